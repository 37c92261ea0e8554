/**
 * `pnpm release:dry-run`: the release rehearsed in a scratch copy, against a local registry this
 * command starts and stops itself (see scripts/release/dry-run.ts). Nothing is published anywhere
 * else, and the repository itself is left as it was.
 *
 * Usage: tsx scripts/release-dry-run.ts [--keep]   (--keep leaves the scratch directory for a look)
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { releaseDryRun } from "./release/dry-run.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
let keep = false;
try {
  keep = parseArgs({ options: { keep: { type: "boolean" } }, strict: true }).values.keep === true;
} catch (error) {
  console.error(`release:dry-run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
const upstream = execFileSync("npm", ["config", "get", "registry"]).toString().trim();
const scratch = await makeScratchDir("release-dry-run-");
const started = performance.now();
try {
  const report = await releaseDryRun({ root, scratch, upstream, log: (line) => console.error(line) });
  for (const step of report.steps) console.log(`${step.seconds.toFixed(1).padStart(6)} s  ${step.name}`);
  console.log(
    `tarball install with pnpm: exit ${report.tarballInstall.exitCode}, ${report.tarballInstall.error}`,
  );
  for (const [name, version] of Object.entries(report.published)) console.log(`published ${name}@${version}`);
  for (const [manager, output] of Object.entries(report.programOutput))
    console.log(`${manager} project: ${output}`);
  console.log(`release:dry-run: passed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  if (keep) console.error(`release:dry-run: kept ${scratch}`);
  else await removeScratchDir(scratch);
}
