/**
 * The repository's own tooling documents itself the way the packages do: every `@example` of the
 * scripts and the benchmarks is a fenced TypeScript block that compiles against the code it shows.
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
} from "./compile-examples.ts";

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
    const examples = await sourceExamples(root, { folders: FOLDERS });
    console.log(`compiling ${examples.length} examples of scripts/ and bench/`);
    expect(examples.length).toBeGreaterThan(45);
    const errors = await compileExamples({
      scratch,
      examples,
      // The root tsconfig's settings: the tooling imports its modules with their `.ts` extension.
      compilerOptions: {
        ...sourceCompilerOptions({ packageDir: root, scratch, lib: ["es2023", "dom"], paths: {} }),
        allowImportingTsExtensions: true,
      },
      rewrite: relativeImportsFrom(root, scratch),
    });
    expect(errors).toBe("");
  }, 300_000);
});
