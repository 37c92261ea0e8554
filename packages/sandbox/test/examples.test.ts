/**
 * Every name the public entries export carries an `@example` that uses it, and every one of those
 * examples, with those of the entries' own header comments and of every internal module, compiles
 * against the package's source, so no example can drift from the code it shows; the public
 * examples that need nothing but the in-process sandbox also run. Every `@example` anywhere in the
 * source and in the build scripts (dataset generators, code generators) is a fenced TypeScript block,
 * as in the other packages, and compiles as well.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  compileSourceExamples,
  type Example,
  missingExamples,
  publicExports,
  unfencedExamples,
  uniqueExamples,
} from "../../../scripts/compile-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "examples");

/** What examples import, as the exports map resolves it under Node. */
const PATHS = { "@drill-practice/sandbox": "src/index.ts", "@drill-practice/sandbox/msw": "src/msw.ts" };
const exported = publicExports({
  packageDir,
  paths: PATHS,
  entries: {
    "@drill-practice/sandbox": "src/index.ts",
    // The same specifier outside Node (the `default` condition).
    "@drill-practice/sandbox (web)": "src/web.ts",
    "@drill-practice/sandbox/msw": "src/msw.ts",
  },
});

// The Node entry re-exports the web one: each declaration's examples once.
const examples: Example[] = uniqueExamples(exported.flatMap(({ examples }) => examples));

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("every @example is fenced as ts", async () => {
    expect(await unfencedExamples(packageDir, { folders: ["src", "scripts", "test/support"] })).toEqual([]);
  });

  it("every export of every public entry has an example that uses it", () => {
    expect(exported.filter((entry) => entry.kind === "value").length).toBeGreaterThan(25);
    expect(missingExamples(exported)).toEqual([]);
  });

  it("every example in the package compiles against its source", async () => {
    // The public entries' examples (header comments included), then those of internal modules, the
    // build scripts and the test helpers, with the package's own settings.
    const { examples: all, errors } = await compileSourceExamples({
      packageDir,
      scratch,
      folders: ["src", "scripts", "test/support"],
      lib: ["es2023"],
      paths: PATHS,
      also: examples,
    });
    expect(all.length).toBeGreaterThan(250);
    expect(all.filter(({ origin }) => origin.startsWith("scripts/")).length).toBeGreaterThan(25);
    expect(errors).toBe("");
  }, 300_000);

  it("every example that needs only the in-process sandbox runs without an error", async () => {
    // No socket, no file, no other package: what runs in any runtime, in a few milliseconds.
    const runnable = examples.filter(
      ({ code }) =>
        [...code.matchAll(/from "([^"]+)"/g)].every(
          ([, specifier]) => specifier === "@drill-practice/sandbox",
        ) && !code.includes("startSandbox"),
    );
    expect(runnable.length).toBeGreaterThan(15);
    const dir = join(packageDir, ".tmp", "examples-run");
    await mkdir(dir, { recursive: true });
    const entry = pathToFileURL(join(packageDir, "src", "index.ts")).href;
    const failed: string[] = [];
    // The examples print what they show; keep the test output to the failures.
    const quiet = [vi.spyOn(console, "log"), vi.spyOn(console, "error")].map((spy) =>
      spy.mockImplementation(() => {}),
    );
    try {
      for (const [index, example] of runnable.entries()) {
        const file = join(dir, `example-${index}.ts`);
        await writeFile(
          file,
          `${example.code.replaceAll('"@drill-practice/sandbox"', JSON.stringify(entry))}\nexport {};\n`,
        );
        await import(pathToFileURL(file).href).catch((error: unknown) => {
          failed.push(`${example.origin} (example of ${example.name}): ${String(error)}`);
        });
      }
    } finally {
      for (const spy of quiet) spy.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
    console.log(`ran ${runnable.length} examples of @drill-practice/sandbox in process`);
    expect(failed).toEqual([]);
  }, 120_000);
});
