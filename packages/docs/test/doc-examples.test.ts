/**
 * Every `@example` in the package's source, scripts and test helpers is a fenced TypeScript block,
 * and every one of them compiles against the code it documents, so no example can drift from it.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileSourceExamples, unfencedExamples } from "../../../scripts/compile-examples.js";

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
    // The package's own settings: its source imports its modules with their `.ts` extension.
    const { examples, errors } = await compileSourceExamples({
      packageDir,
      scratch,
      folders: FOLDERS,
      lib: ["es2023"],
      tsExtensions: true,
    });
    expect(examples.length).toBeGreaterThan(35);
    expect(errors).toBe("");
  }, 300_000);
});
