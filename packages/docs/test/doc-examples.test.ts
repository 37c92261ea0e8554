/**
 * Every `@example` in the package's source, scripts and test helpers is a fenced TypeScript block,
 * and every one of them compiles against the code it documents, so no example can drift from it.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  compileExamples,
  relativeImportsFrom,
  sourceCompilerOptions,
  sourceExamples,
  unfencedExamples,
} from "../../../scripts/compile-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "doc-examples");
const FOLDERS = ["src", "scripts", "test/helpers"];

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("every @example is fenced as ts", async () => {
    expect(await unfencedExamples(packageDir, { folders: FOLDERS })).toEqual([]);
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
