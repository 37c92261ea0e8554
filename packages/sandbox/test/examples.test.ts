/**
 * The example rule (see the root README's "Developing"): every name the public entries export carries
 * an `@example` that uses it, and every example (the entries' header comments, and those internal
 * modules, build scripts and test helpers keep) is a fenced TypeScript block that compiles against
 * the package's source, so no example can drift from the code it shows; the public examples that
 * need nothing but the in-process sandbox also run.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Example, publicExports, uniqueExamples } from "@drill-practice/tooling/examples";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";
import { describe, expect, it, vi } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** What examples import, as the exports map resolves it under Node. */
const PATHS = { "@drill-practice/sandbox": "src/index.ts", "@drill-practice/sandbox/msw": "src/msw.ts" };
const ENTRIES = {
  "@drill-practice/sandbox": "src/index.ts",
  // The same specifier outside Node (the `default` condition).
  "@drill-practice/sandbox (web)": "src/web.ts",
  "@drill-practice/sandbox/msw": "src/msw.ts",
};

// The public entries' examples (header comments included), then those internal modules, the build
// scripts and the test helpers keep, with the package's own settings.
describeSourceExamples("documentation examples", {
  packageDir,
  folders: ["src", "scripts", "test/support"],
  lib: ["es2023"],
  entries: ENTRIES,
  paths: PATHS,
  minimum: 50,
});

describe("documentation examples of the public entries", () => {
  // The Node entry re-exports the web one: each declaration's examples once.
  const examples: Example[] = uniqueExamples(
    publicExports({ packageDir, entries: ENTRIES, paths: PATHS }).flatMap(({ examples }) => examples),
  );

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
