/**
 * The GitHub workflows as GitHub would take them: each passes the workflow schema validator
 * (`action-validator`, which refuses the broken one below), and the release workflow releases the
 * way the README's "Releasing" says.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const workflowsDir = join(root, ".github/workflows");
const validator = join(root, "node_modules/.bin/action-validator");
const scratch = scratchDirForAll("workflows-");

async function validate(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(validator, [file]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("the workflows", () => {
  const files = readdirSync(workflowsDir).filter((file) => /\.ya?ml$/.test(file));

  it("are the CI and the release workflow", () => {
    expect(files.sort()).toEqual(["ci.yml", "release.yml"]);
  });

  for (const file of files)
    it(`${file} passes action-validator`, async () => {
      const result = await validate(join(workflowsDir, file));
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    }, 60_000);

  it("a broken workflow fails the validator, naming what is wrong", async () => {
    const broken = join(scratch(), "broken.yml");
    await writeFile(broken, "name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n");
    const result = await validate(broken);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("Additional property 'stepz' is not allowed");
  }, 60_000);
});

describe("the release workflow", () => {
  const text = readFileSync(join(workflowsDir, "release.yml"), "utf8");

  it("versions and publishes through changesets with the root scripts, with npm provenance", () => {
    expect(text).toContain("uses: changesets/action@v1");
    expect(text).toContain("version: pnpm run version");
    expect(text).toContain("publish: pnpm run release");
    expect(text).toMatch(/permissions:\n(?: {6}.*\n)*? {6}id-token: write/);
    expect(text).toContain('NPM_CONFIG_PROVENANCE: "true"');
    const scripts = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.version).toMatch(/^changeset version && /);
    expect(scripts.release).toBe("changeset publish");
  });

  it("deploys the docs to GitHub Pages only after a publish, keeping earlier releases on gh-pages", () => {
    expect(text).toContain("if: needs.release.outputs.published == 'true'");
    expect(text).toContain("scripts/release/docs-site.ts --built packages/docs/dist --site site");
    expect(text).toContain("git push origin HEAD:gh-pages");
    expect(text).toContain("uses: actions/deploy-pages@v4");
  });
});
