/**
 * Every `@example` in the package's source, scripts and test helpers is a fenced TypeScript block,
 * and every one of them compiles against the code it documents, so no example can drift from it.
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
} from "../../../scripts/compile-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "doc-examples");
const FOLDERS = ["src", "scripts", "test/helpers"];

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("every @example is fenced as ts", async () => {
    const files: string[] = [];
    for (const folder of FOLDERS) {
      const entries = await readdir(join(packageDir, folder), { recursive: true, withFileTypes: true });
      files.push(
        ...entries
          .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
          .map((entry) => join(entry.parentPath, entry.name)),
      );
    }
    expect(files.length).toBeGreaterThan(15);
    const unfenced: string[] = [];
    for (const file of files) {
      const lines = (await readFile(file, "utf8")).split("\n");
      lines.forEach((line, index) => {
        if (/^\s*\* @example\b/.test(line) && !/^\s*\* ```ts$/.test(lines[index + 1] ?? "")) {
          unfenced.push(`${relative(packageDir, file)}:${index + 1}`);
        }
      });
    }
    expect(unfenced).toEqual([]);
  });

  it("every example in the package compiles against its source", async () => {
    const examples = await sourceExamples(packageDir, { folders: FOLDERS });
    console.log(`compiling ${examples.length} examples of @drill-practice/docs`);
    expect(examples.length).toBeGreaterThan(35);
    const errors = await compileExamples({
      scratch,
      examples,
      // The package's own settings: its source imports its modules with their `.ts` extension.
      compilerOptions: {
        ...sourceCompilerOptions({ packageDir, scratch, lib: ["es2023"], paths: {} }),
        allowImportingTsExtensions: true,
      },
      rewrite: relativeImportsFrom(packageDir, scratch),
    });
    expect(errors).toBe("");
  }, 300_000);
});
