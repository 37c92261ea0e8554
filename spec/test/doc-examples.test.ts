/**
 * Every `@example` in the spec's scripts is a fenced TypeScript block, and every one of them compiles
 * against the script it documents, so no example can drift from the code it shows. (The OpenAPI
 * examples of the spec itself are checked by `examples.test.ts`.)
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  compileExamples,
  relativeImportsFrom,
  sourceCompilerOptions,
  sourceExamples,
} from "../../scripts/compile-examples.js";

const specDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(specDir, ".tmp", "doc-examples");

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples of the spec's scripts", () => {
  it("every @example is fenced as ts", async () => {
    const entries = await readdir(join(specDir, "scripts"), { recursive: true, withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => join(entry.parentPath, entry.name));
    expect(files.length).toBeGreaterThan(3);
    const unfenced: string[] = [];
    for (const file of files) {
      const lines = (await readFile(file, "utf8")).split("\n");
      lines.forEach((line, index) => {
        if (/^\s*\* @example\b/.test(line) && !/^\s*\* ```ts$/.test(lines[index + 1] ?? "")) {
          unfenced.push(`${relative(specDir, file)}:${index + 1}`);
        }
      });
    }
    expect(unfenced).toEqual([]);
  });

  it("every example of the scripts compiles against them", async () => {
    const examples = await sourceExamples(specDir, { folders: ["scripts"] });
    console.log(`compiling ${examples.length} examples of spec/scripts`);
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const errors = await compileExamples({
      scratch,
      examples,
      // The scripts' own settings: they import each other with their `.ts` extension.
      compilerOptions: {
        ...sourceCompilerOptions({ packageDir: specDir, scratch, lib: ["es2023"], paths: {} }),
        allowImportingTsExtensions: true,
      },
      rewrite: relativeImportsFrom(specDir, scratch),
    });
    expect(errors).toBe("");
  }, 300_000);
});
