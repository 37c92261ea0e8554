/**
 * The release step's half of the spec diff (run by `pnpm run version` after `changeset version`
 * and `pnpm generate`): archives the changes of the release being made (spec/baseline/changes/
 * <client version>.json, what the docs' Changes page shows), then makes the current bundles, the
 * consumer code and the generated types' hash the new baseline, so the next diff starts empty.
 *
 * Usage: tsx scripts/spec-baseline.ts
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { collectConsumers, compileConsumers } from "./spec-diff/consumers.ts";
import {
  BUNDLES,
  type ConsumerSnapshot,
  generatedTypesHash,
  type Release,
  runSpecDiff,
  specPackages,
} from "./spec-diff/run.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const baselineDir = join(root, "spec/baseline");
const distDir = join(root, "spec/dist");
const write = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

for (const bundle of BUNDLES) {
  if (!existsSync(join(distDir, bundle))) {
    console.error(`spec-baseline: ${join(distDir, bundle)} is missing; run pnpm generate first`);
    process.exit(1);
  }
}
const packages = specPackages(root);
const clientVersion = packages.find((pkg) => pkg.name === "@drill-practice/client")?.version ?? "unknown";

if (existsSync(join(baselineDir, "release.json"))) {
  const report = runSpecDiff({ root, consumers: "auto" });
  mkdirSync(join(baselineDir, "changes"), { recursive: true });
  const previous = JSON.parse(readFileSync(join(baselineDir, "release.json"), "utf8")) as Release;
  write(join(baselineDir, "changes", `${clientVersion}.json`), {
    version: clientVersion,
    since: previous.packages,
    versions: report.versions,
    compileErrors: report.compileErrors ?? [],
  });
  console.log(`spec-baseline: wrote spec/baseline/changes/${clientVersion}.json`);
}

mkdirSync(baselineDir, { recursive: true });
for (const bundle of BUNDLES) copyFileSync(join(distDir, bundle), join(baselineDir, bundle));

// Only code that compiles now is held against later types; what does not (a block needing files of
// its own) is listed with the reason, so that nobody mistakes it for checked code.
const files = collectConsumers(root);
const errors = compileConsumers(root, files);
const failing = new Map<string, string>();
for (const error of errors)
  if (!failing.has(error.path)) failing.set(error.path, `${error.at}: ${error.message}`);
const snapshot: ConsumerSnapshot = {
  files: files.filter((file) => !failing.has(file.path)),
  leftOut: files
    .filter((file) => failing.has(file.path))
    .map((file) => ({
      path: file.path,
      ...(file.origin ? { origin: file.origin } : {}),
      reason: failing.get(file.path) ?? "",
    })),
};
write(join(baselineDir, "consumers.json"), snapshot);
const release: Release = {
  packages: Object.fromEntries(packages.map((pkg) => [pkg.name, pkg.version])),
  generatedTypes: generatedTypesHash(root),
};
write(join(baselineDir, "release.json"), release);
console.log(
  `spec-baseline: spec/baseline/ holds the bundles, ${snapshot.files.length} consumer file(s) and the types' hash of ${clientVersion}`,
);
for (const left of snapshot.leftOut) console.log(`  left out (does not compile here): ${left.reason}`);
