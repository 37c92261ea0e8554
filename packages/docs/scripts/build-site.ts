/**
 * `pnpm docs`: builds the documentation site into `dist/`.
 *
 * Options: `--spec-dir <dir>` takes the per-version bundles from another directory (default:
 * the `@drill-practice/spec` package), `--out <dir>` writes elsewhere.
 */
import { parseArgs } from "node:util";
import { buildSite } from "../src/build-site.ts";

const { values } = parseArgs({
  options: { "spec-dir": { type: "string" }, out: { type: "string" } },
  strict: true,
});

try {
  const started = performance.now();
  const site = await buildSite({
    specDir: values["spec-dir"],
    outDir: values.out,
    log: (line) => console.log(line),
  });
  console.log(`built ${site.files.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`docs build failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
