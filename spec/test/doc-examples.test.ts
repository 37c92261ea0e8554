/**
 * Every `@example` in the spec's scripts is a fenced TypeScript block, and every one of them compiles
 * against the script it documents, so no example can drift from the code it shows. (The OpenAPI
 * examples of the spec itself are checked by `examples.test.ts`.)
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
} from "../../scripts/compile-examples.js";

const specDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(specDir, ".tmp", "doc-examples");

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples of the spec's scripts", () => {
  it("every @example is fenced as ts", async () => {
    expect(await unfencedExamples(specDir, { folders: ["scripts"] })).toEqual([]);
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
