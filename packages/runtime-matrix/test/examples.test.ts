/**
 * Every `@example` of the matrix's source is a fenced TypeScript block, as in the other packages, and
 * compiles against that source with the package's own settings, so no example can drift from the code
 * it shows. Only the compiler runs: no runtime of the matrix needs to be installed.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  compileSourceExamples,
  sourceExamples,
  unfencedExamples,
} from "../../../scripts/compile-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "examples");

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("every @example is fenced as ts", async () => {
    expect(await sourceExamples(packageDir)).not.toEqual([]);
    expect(await unfencedExamples(packageDir)).toEqual([]);
  });

  it("every example compiles against the package's source", async () => {
    // The package's settings (tsconfig.json: ES2023 and DOM); the workspace packages it tests
    // resolve through its node_modules, as its own source imports them.
    const { examples, errors } = await compileSourceExamples({ packageDir, scratch, lib: ["es2023", "dom"] });
    expect(examples.length).toBeGreaterThan(10);
    expect(errors).toBe("");
  }, 300_000);
});
