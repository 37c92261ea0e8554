/**
 * Bundles a consumer that loads two installed copies of the Drill Practice
 * packages with esbuild `--minify` and runs it: the check that errors keep
 * their `name`, `code` and `instanceof` when a minifier renames every class.
 * Each copy is laid out as npm would install it (`<copy>/node_modules/<name>`,
 * the package's `package.json` and `dist`), so imports resolve through the
 * exports maps; third-party dependencies come from `nodePaths`.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";

const run = promisify(execFile);

/**
 * Installs `packages` (name → package directory) twice, as copies `a` and `b`,
 * writes `consumer` (which imports `./a.js` and `./b.js`; each re-exports
 * `entry` of its copy), bundles it minified and returns what it prints, with
 * the bundle's text for checks of the minification itself.
 */
export async function runMinifiedCopies(options: {
  packages: Readonly<Record<string, string>>;
  entry: string;
  consumer: string;
  nodePaths: readonly string[];
}): Promise<{ stdout: string; bundle: string }> {
  const dir = await mkdtemp(join(tmpdir(), "drill-minified-copies-"));
  try {
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
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
