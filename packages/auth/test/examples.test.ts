/**
 * Every name the public entries export carries an `@example` that uses it, and every example in
 * the package (the entries' own header comments and internal modules included) compiles against
 * the package's source, so no example can drift from the code it shows.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileSourceExamples, missingExamples, publicExports } from "../../../scripts/compile-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "examples");

const ENTRIES = {
  "@drill-practice/auth": "src/index.ts",
  "@drill-practice/auth/node": "src/node.ts",
  "@drill-practice/auth/redis": "src/redis/index.ts",
};
/** What examples import: the entries, and the client they are used with, from source. */
const PATHS = {
  ...ENTRIES,
  "@drill-practice/client": "../client/src/index.ts",
  "@drill-practice/client/internal": "../client/src/core/index.ts",
};
const exported = publicExports({ packageDir, entries: ENTRIES, paths: PATHS });

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("every export of every public entry has an example that uses it", () => {
    expect(exported.filter((entry) => entry.kind === "value").length).toBeGreaterThan(30);
    expect(missingExamples(exported)).toEqual([]);
  });

  it("every example in the package compiles against its source", async () => {
    // The public entries' examples (header comments included), then those of internal modules,
    // with the package's own settings.
    const { examples, errors } = await compileSourceExamples({
      packageDir,
      scratch,
      lib: ["es2023", "dom"],
      paths: PATHS,
      also: exported.flatMap(({ examples }) => examples),
    });
    // One or more per public export (internals keep one only where their use is not obvious).
    expect(examples.length).toBeGreaterThan(60);
    expect(errors).toBe("");
  }, 300_000);
});
