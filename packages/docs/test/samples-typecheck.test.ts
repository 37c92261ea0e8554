/**
 * Every TypeScript sample of the built references, compiled by tsc against the built
 * `@drill-practice/client` and `@drill-practice/auth` (their `dist/` types, through the packages'
 * `exports`, as a user's project would see them).
 */
import { spawnSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packageDir } from "../src/build-site.ts";
import { assertSiteBuilt, type BuiltSamples, builtSamples } from "./helpers/site.ts";

const workDir = join(packageDir, ".samples-check");

describe("TypeScript samples", () => {
  let samples: BuiltSamples[];
  beforeAll(async () => {
    await assertSiteBuilt();
    samples = await builtSamples();
  });

  it("exist for every operation of both references (218 distinct operations in the spec)", async () => {
    const require = createRequire(import.meta.url);
    const ids = new Set<string>();
    for (const bundle of ["openapi-v2.1.json", "openapi-v2.0.json"]) {
      const { listOperations } = await import("../src/openapi-document.ts");
      const document = require(`@drill-practice/spec/${bundle}`);
      for (const { operation } of listOperations(document)) ids.add(operation.operationId as string);
    }
    expect(samples.map((s) => s.operationId).sort()).toEqual([...ids].sort());
    for (const sample of samples) {
      expect(sample.typescript, sample.operationId).toContain("serviceAccountAuth");
      if (!sample.typescript.includes("auth.getToken()")) {
        expect(sample.typescript, sample.operationId).toContain(
          `client.${sample.method.toUpperCase()}("${sample.path}"`,
        );
        expect(sample.typescript, sample.operationId).toContain("await unwrap(");
      }
    }
  });

  it("type-check against the built packages", async () => {
    await rm(workDir, { recursive: true, force: true });
    await mkdir(workDir, { recursive: true });
    await writeFile(join(workDir, "package.json"), '{ "type": "module", "private": true }\n');
    await writeFile(
      join(workDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
        },
        include: ["*.ts"],
      }),
    );
    for (const sample of samples)
      await writeFile(join(workDir, `${sample.operationId}.ts`), sample.typescript);
    const require = createRequire(import.meta.url);
    const tsc = require.resolve("typescript/bin/tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", workDir], { encoding: "utf8", timeout: 240_000 });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
    // A deliberately wrong path must fail, or the check above proves nothing.
    const broken = samples[0] as BuiltSamples;
    await writeFile(
      join(workDir, `${broken.operationId}.ts`),
      broken.typescript.replace(/client\.(\w+)\("\//, 'client.$1("/no-such-path/'),
    );
    if (broken.typescript.includes("client.")) {
      const failing = spawnSync(process.execPath, [tsc, "-p", workDir], {
        encoding: "utf8",
        timeout: 240_000,
      });
      expect(failing.status).not.toBe(0);
    }
    await rm(workDir, { recursive: true, force: true });
  }, 300_000);
});
