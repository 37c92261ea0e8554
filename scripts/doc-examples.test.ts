/**
 * The repository's own tooling documents itself the way the packages do: every `@example` of the
 * scripts and the benchmarks is a fenced TypeScript block that compiles against the code it shows.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileSourceExamples, unfencedExamples } from "./compile-examples.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(root, ".tmp", "doc-examples");
const FOLDERS = ["scripts", "bench"];

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples of the scripts and benchmarks", () => {
  it("every @example is fenced as ts", async () => {
    expect(await unfencedExamples(root, { folders: FOLDERS })).toEqual([]);
  });

  it("every example compiles against the code it shows", async () => {
    // The root tsconfig's settings: the tooling imports its modules with their `.ts` extension.
    const { examples, errors } = await compileSourceExamples({
      packageDir: root,
      scratch,
      folders: FOLDERS,
      lib: ["es2023", "dom"],
      tsExtensions: true,
    });
    expect(examples.length).toBeGreaterThan(45);
    expect(errors).toBe("");
  }, 300_000);
});
