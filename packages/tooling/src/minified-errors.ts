/**
 * Bundles a consumer that loads two installed copies of the Drill Practice
 * packages with esbuild `--minify` and runs it: the check that errors keep
 * their `name`, `code` and `instanceof` when a minifier renames every class.
 * Each copy is laid out as npm would install it (`<copy>/node_modules/<name>`,
 * the package's `package.json` and `dist`), so imports resolve through the
 * exports maps; third-party dependencies come from `nodePaths`.
 *
 * @example
 * ```ts
 * import { describeMinifiedErrors } from "@drill-practice/tooling/minified-errors";
 *
 * describeMinifiedErrors({
 *   packageDir: new URL("..", import.meta.url),
 *   consumer: `import * as a from "./a.js";\nimport * as b from "./b.js";\nconsole.log(JSON.stringify(new a.ListenError("x").code));\n`,
 *   renamedClass: "ListenError",
 *   expected: "ERR_SANDBOX_LISTEN",
 * });
 * ```
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { withScratchDir } from "./scratch.js";

const run = promisify(execFile);

/**
 * Installs `packages` (name → package directory) twice, as copies `a` and `b`,
 * writes `consumer` (which imports `./a.js` and `./b.js`; each re-exports
 * `entry` of its copy), bundles it minified and returns what it prints, with
 * the bundle's text for checks of the minification itself.
 */
async function runMinifiedCopies(options: {
  packages: Readonly<Record<string, string>>;
  entry: string;
  consumer: string;
  nodePaths: readonly string[];
}): Promise<{ stdout: string; bundle: string }> {
  return withScratchDir("drill-minified-copies-", async (dir) => {
    for (const copy of ["a", "b"]) {
      for (const [name, source] of Object.entries(options.packages)) {
        const target = join(dir, copy, "node_modules", name);
        await mkdir(target, { recursive: true });
        await cp(join(source, "package.json"), join(target, "package.json"));
        await cp(join(source, "dist"), join(target, "dist"), { recursive: true });
      }
      await writeFile(join(dir, copy, "entry.js"), `export * from ${JSON.stringify(options.entry)};\n`);
      await writeFile(join(dir, `${copy}.js`), `export * from "./${copy}/entry.js";\n`);
    }
    await writeFile(join(dir, "consumer.js"), options.consumer);
    const result = await build({
      entryPoints: [join(dir, "consumer.js")],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "node",
      target: "node20",
      nodePaths: [...options.nodePaths],
      write: false,
      logLevel: "silent",
    });
    const bundle = result.outputFiles[0]?.text ?? "";
    await writeFile(join(dir, "bundle.mjs"), bundle);
    const { stdout } = await run(process.execPath, [join(dir, "bundle.mjs")], { cwd: dir });
    return { stdout, bundle };
  });
}

/**
 * One package's error check: its consumer script and what that script must print.
 *
 * @example
 * ```ts
 * import { describeMinifiedErrors, type MinifiedErrorsCase } from "@drill-practice/tooling/minified-errors";
 *
 * // auth's copies need the client installed beside them.
 * const authCase: MinifiedErrorsCase = {
 *   packageDir: new URL("..", import.meta.url),
 *   alongside: { "@drill-practice/client": "client" },
 *   consumer: `import * as a from "./a.js";\nimport * as b from "./b.js";\nconsole.log(JSON.stringify(a.AuthError === b.AuthError));\n`,
 *   renamedClass: "AuthError",
 *   expected: false,
 * };
 * describeMinifiedErrors(authCase);
 * ```
 */
export interface MinifiedErrorsCase {
  /** The package under test, by its `package.json` URL's folder (`new URL("..", import.meta.url)`). */
  readonly packageDir: URL;
  /** Other workspace packages installed beside it in each copy (auth needs the client), by folder name. */
  readonly alongside?: Readonly<Record<string, string>>;
  /** Imports `./a.js` and `./b.js` (each copy's main entry) and prints one JSON line. */
  readonly consumer: string;
  /** A class the minifier must have renamed: its declaration may not survive in the bundle. */
  readonly renamedClass: string;
  /** The JSON the consumer must print. */
  readonly expected: unknown;
}

/**
 * The test every published package has: errors of two installed copies, bundled by a minifier
 * that renames every class, keep their literal `name` and `code` and match by `instanceof` across
 * the copies (and never a class of another code).
 *
 * @example
 * ```ts
 * import { describeMinifiedErrors } from "@drill-practice/tooling/minified-errors";
 *
 * describeMinifiedErrors({
 *   packageDir: new URL("..", import.meta.url),
 *   consumer: `import * as a from "./a.js";\nimport * as b from "./b.js";\nconsole.log(JSON.stringify(new a.ListenError("x") instanceof b.ListenError));\n`,
 *   renamedClass: "ListenError",
 *   expected: true,
 * });
 * ```
 */
export function describeMinifiedErrors(test: MinifiedErrorsCase): void {
  const packageDir = fileURLToPath(test.packageDir);
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { name: string };
  describe("errors of two installed copies, bundled with esbuild --minify", () => {
    it("keep their literal name and code and match by instanceof across the copies", async () => {
      const alongside = Object.entries(test.alongside ?? {}).map(([name, folder]) => [
        name,
        join(packageDir, "..", folder),
      ]);
      const { stdout, bundle } = await runMinifiedCopies({
        packages: { [manifest.name]: packageDir, ...Object.fromEntries(alongside) },
        entry: manifest.name,
        consumer: test.consumer,
        nodePaths: [join(packageDir, "node_modules")],
      });
      // The minifier did rename the classes: no declaration keeps its name.
      expect(bundle).not.toMatch(new RegExp(`class ${test.renamedClass}\\b`));
      expect(JSON.parse(stdout)).toEqual(test.expected);
    }, 60_000);
  });
}
