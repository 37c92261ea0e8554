/**
 * Publishing metadata that tools act on, checked by what the tools do with it:
 * a bundler drops what `sideEffects` calls side-effect free and keeps what it
 * lists, and a publish must never ship a stale build. Expected values come from
 * the manifest itself (its `bin`, `exports` and build config), not copies of it.
 */
import { readFile } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface Manifest {
  readonly sideEffects?: unknown;
  readonly bin?: Record<string, string>;
  readonly scripts?: Record<string, string>;
  readonly exports: Record<string, { default: string } | string>;
}

async function manifest(): Promise<Manifest> {
  return JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as Manifest;
}

/** Bundles `import "<file>"` the way an application's bundler would; returns the package files kept. */
async function keptBy(file: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `import ${JSON.stringify(`./${file}`)};`, resolveDir: packageDir, loader: "js" },
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0];
  return Object.entries(output?.inputs ?? {})
    .filter(([path, input]) => input.bytesInOutput > 0 && path !== "<stdin>")
    .map(([path]) => normalize(relative(packageDir, join(process.cwd(), path))));
}

/** Module specifiers a file imports for their side effects (`import "x";`). */
async function bareImports(file: string): Promise<string[]> {
  const text = await readFile(join(packageDir, file), "utf8");
  return [...text.matchAll(/^\s*import\s+["']([^"']+)["'];?/gm)].map((match) => match[1] ?? "");
}

describe("package.json as bundlers read it", () => {
  it("a bundler keeps the CLI that each bin runs, and the modules the bin imports", async () => {
    const { bin = {} } = await manifest();
    expect(Object.keys(bin).length).toBeGreaterThan(0);
    for (const target of Object.values(bin)) {
      const binFile = normalize(target);
      const imported = (await bareImports(binFile)).map((specifier) =>
        normalize(join(dirname(binFile), specifier)),
      );
      expect(imported.length).toBeGreaterThan(0);
      const kept = await keptBy(binFile);
      // Dropping these would turn `drill-token` into a program that does nothing.
      for (const module of imported) expect(kept).toContain(module);
    }
  });

  it("a bundler drops the library entries when an application imports them only for side effects", async () => {
    const { exports } = await manifest();
    const entries = Object.entries(exports)
      .filter(([subpath]) => subpath !== "./package.json")
      .map(([, target]) => normalize(typeof target === "string" ? target : target.default));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(await keptBy(entry)).toEqual([]);
  });
});

describe("package.json as a publish runs it", () => {
  it("builds into the directory the exports point at before every publish", async () => {
    const { scripts = {}, exports } = await manifest();
    const publishStep = scripts.prepublishOnly ?? "";
    const invoked = /\b(?:pnpm|npm) run ([\w:-]+)/.exec(publishStep)?.[1];
    expect(invoked, "prepublishOnly runs a script of this package").toBeDefined();
    const buildCommand = scripts[invoked as string] ?? "";
    // The script compiles with a tsconfig whose outDir is where the main export lives.
    const project = /\btsc\b.*?-p\s+(\S+)/.exec(buildCommand)?.[1];
    expect(project, `"${invoked}" compiles with tsc -p <config>`).toBeDefined();
    const config = JSON.parse(await readFile(join(packageDir, project as string), "utf8")) as {
      compilerOptions: { outDir: string };
    };
    const main = exports["."];
    const mainFile = typeof main === "string" ? main : (main?.default ?? "");
    expect(normalize(dirname(mainFile))).toBe(normalize(config.compilerOptions.outDir));
  });

  it("does not build on pack or install, because the tests pack the built package as it is", async () => {
    const { scripts = {} } = await manifest();
    expect(scripts.prepack).toBeUndefined();
    expect(scripts.prepare).toBeUndefined();
  });
});
