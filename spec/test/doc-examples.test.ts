/**
 * Every `@example` in the spec's scripts is a fenced TypeScript block, and every one of them compiles
 * against the script it documents, so no example can drift from the code it shows. (The OpenAPI
 * examples of the spec itself are checked by `examples.test.ts`.)
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileSourceExamples, unfencedExamples } from "../../scripts/compile-examples.js";

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
    // The scripts' own settings: they import each other with their `.ts` extension.
    const { examples, errors } = await compileSourceExamples({
      packageDir: specDir,
      scratch,
      folders: ["scripts"],
      lib: ["es2023"],
      tsExtensions: true,
    });
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(errors).toBe("");
  }, 300_000);
});
