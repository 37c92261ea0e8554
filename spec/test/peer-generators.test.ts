/**
 * Teams that do not use our client generate their own from the per-version bundles. Each bundle must
 * give a type-clean SDK with @hey-api/openapi-ts and with orval (`client: 'fetch'`) under strict
 * `tsc`; a failure prints the compiler's messages. Both tools are pinned devDependencies, so this
 * runs offline; one generation per bundle per tool keeps it as fast as the tools allow.
 */

import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import { scratchDirs } from "@drill-practice/tooling/scratch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const scratchFolders = scratchDirs("peer-generators-");

const run = promisify(execFile);
const specDir = resolve(import.meta.dirname, "..");
const bin = (name: string) => join(specDir, "node_modules", ".bin", name);
const bundles = API_VERSIONS.map((version) => version.bundle);
// Generators and the compiler are slow on a loaded 2-core machine.
const TIMEOUT = 240_000;

const generators = {
  "@hey-api/openapi-ts": (input: string, out: string) =>
    run(bin("openapi-ts"), ["--input", input, "--output", out], { cwd: specDir }),
  orval: (input: string, out: string) =>
    run(bin("orval"), ["--input", input, "--output", join(out, "api.ts"), "--client", "fetch"], {
      cwd: specDir,
    }),
} as const;

async function typeScriptFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Runs strict `tsc` over the files and answers its messages, empty when the output is type-clean. */
async function compilerMessages(files: string[]): Promise<string> {
  try {
    await run(
      bin("tsc"),
      [
        "--noEmit",
        "--strict",
        "--skipLibCheck",
        "--target",
        "es2022",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        "--lib",
        "es2022,dom,dom.iterable",
        ...files,
      ],
      { cwd: specDir, maxBuffer: 16 * 1024 * 1024 },
    );
    return "";
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ""}${stderr ?? ""}`.trim() || String(error);
  }
}

let workDir = "";
beforeAll(async () => {
  workDir = await scratchFolders.make();
});
afterAll(async () => {
  await scratchFolders.removeAll();
});

describe.each(bundles)("%s", (bundle) => {
  it.each(Object.keys(generators) as (keyof typeof generators)[])(
    "generates a type-clean SDK with %s under strict tsc",
    async (tool) => {
      const out = join(workDir, `${bundle}-${tool.replace(/\W+/g, "-")}`);
      await generators[tool](join(specDir, "dist", bundle), out);
      const files = await typeScriptFiles(out);
      expect(files.length, `${tool} wrote no TypeScript for ${bundle}`).toBeGreaterThan(0);
      expect(await compilerMessages(files)).toBe("");
    },
    TIMEOUT,
  );
});
