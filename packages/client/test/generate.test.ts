import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import { scratchDirForAll, scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_NAMES } from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const generatedDir = join(packageDir, "src", "generated");
const tsx = join(packageDir, "node_modules", ".bin", "tsx");
const spec = JSON.parse(
  await readFile(new URL("../../../spec/dist/openapi.json", import.meta.url), "utf8"),
) as { components: { schemas: Record<string, unknown> } };

async function generate(...args: string[]) {
  const { exitCode, stdout, stderr } = await runProcess({
    command: tsx,
    args: ["scripts/generate.ts", ...args],
    cwd: packageDir,
    env: process.env,
    timeoutMs: 60_000,
  });
  return { code: exitCode, stdout, stderr };
}

describe("generated files", () => {
  /** A fresh generation, made once; each test edits its own copy, so no test depends on another. */
  const pristine = scratchDirForAll("drill-client-generate-");
  const copy = scratchDirForEach("drill-client-generate-copy-");
  beforeAll(async () => {
    const made = await generate("--dir", pristine());
    if (made.code !== 0) throw new Error(`generate --dir failed: ${made.stderr}`);
  }, 60_000);

  async function ownCopy(): Promise<string> {
    await cp(pristine(), copy(), { recursive: true });
    return copy();
  }

  it("the committed files match the spec (generate --check passes)", async () => {
    const result = await generate("--check");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("openapi.d.ts is up to date");
    expect(result.stdout).toContain("schemas.ts is up to date");
  }, 60_000);

  it("--check names the stale file, the first differing line and the fix", async () => {
    const dir = await ownCopy();
    const types = join(dir, "openapi.d.ts");
    const lines = (await readFile(types, "utf8")).split("\n");
    const changed = lines.findIndex((line) => line.includes('"/api/2/store"'));
    const edited = lines[changed]?.replace("/api/2/store", "/api/2/shop") ?? "";
    lines[changed] = edited;
    await writeFile(types, lines.join("\n"));

    const result = await generate("--check", "--dir", dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${types} is stale`);
    expect(result.stderr).toContain(`first difference at line ${changed + 1}`);
    expect(result.stderr).toContain(`committed: ${edited}`);
    expect(result.stderr).toContain("Run pnpm generate");
    expect(result.stdout).toContain("schemas.ts is up to date");
  }, 60_000);

  it("--check reports a missing file", async () => {
    const dir = await ownCopy();
    await rm(join(dir, "schemas.ts"));
    const result = await generate("--check", "--dir", dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/schemas\.ts is missing\. Run pnpm generate/);
    expect(result.stdout).toContain("openapi.d.ts is up to date");
  }, 60_000);

  it("types every version as users read it: known values that survive NonNullable, named fields only", async () => {
    const files = (await readdir(pristine())).filter((name) => name.endsWith(".d.ts"));
    expect(files).toEqual(expect.arrayContaining(["openapi-v2.1.d.ts", "openapi-v2.0.d.ts"]));
    for (const file of files) {
      const types = await readFile(join(pristine(), file), "utf8");
      // `string & {}` folds into `string` under NonNullable, and the known values with it.
      expect(types, file).not.toContain("(string & {})");
      // An index signature beside named fields lets `group.nmae` compile.
      expect(types, file).not.toMatch(/\} & \{\s*\[key: string\]/);
    }
  });

  it("has one alias per schema of the spec", async () => {
    expect([...SCHEMA_NAMES]).toEqual(Object.keys(spec.components.schemas).sort());
    const aliases = await readFile(join(generatedDir, "schemas.ts"), "utf8");
    for (const name of Object.keys(spec.components.schemas)) {
      expect(aliases).toContain(`export type ${name} = components["schemas"]["${name}"];`);
    }
    // A fixed list on purpose: these are the type names users import (README, examples); renaming a
    // schema in the spec silently breaks their code, so it has to fail here.
    for (const expected of [
      "Drillable",
      "Drillables",
      "QuestionResponse",
      "Question",
      "Term",
      "AccessTokenResponse",
      "TokenRequest",
      "AuthorizationServerMetadata",
      "ErrorResponse",
      "ServiceAccountKeyFile",
      "AssertionHeader",
      "AssertionClaims",
      "NotShown",
    ]) {
      expect(SCHEMA_NAMES).toContain(expected);
    }
  });
});
