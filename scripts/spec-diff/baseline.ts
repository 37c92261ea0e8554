/**
 * The release step's half of the spec diff: archives the changes of the release being made, then
 * makes the current bundles, the consumer code that compiles and the generated types' hash the new
 * baseline, so that the next diff starts empty.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ConsumerFile, compileConsumers } from "./consumers.ts";
import {
  baselineBundles,
  type ConsumerSnapshot,
  generatedTypesHash,
  type Release,
  runSpecDiff,
  specPackages,
} from "./run.ts";

const write = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** What {@link writeBaseline} did, for its log line. */
export interface BaselineWritten {
  /** The archive written for the release (`<baselineDir>/changes/<version>.json`), if there was a baseline before. */
  readonly archived: string | undefined;
  readonly snapshot: ConsumerSnapshot;
}

/**
 * Archives the changes since the previous baseline under the client's (new) version and writes
 * the new baseline: bundles, consumer code (what does not compile now is listed as left out, with
 * the reason, never held against later types), the packages' versions and the types' hash.
 */
export function writeBaseline(options: {
  root: string;
  distDir: string;
  baselineDir: string;
  consumers: readonly ConsumerFile[];
}): BaselineWritten {
  const { root, distDir, baselineDir, consumers } = options;
  const bundles = baselineBundles(distDir);
  for (const bundle of bundles.length > 1 ? bundles : [...bundles, "openapi-v<version>.json"]) {
    if (!existsSync(join(distDir, bundle)))
      throw new Error(`${join(distDir, bundle)} is missing; run pnpm generate first`);
  }
  const packages = specPackages(root);
  const clientVersion = packages.find((pkg) => pkg.name === "@drill-practice/client")?.version ?? "unknown";
  let archived: string | undefined;
  if (existsSync(join(baselineDir, "release.json"))) {
    const report = runSpecDiff({ root, baselineDir, currentDir: distDir, consumers: "never" });
    const previous = JSON.parse(readFileSync(join(baselineDir, "release.json"), "utf8")) as Release;
    mkdirSync(join(baselineDir, "changes"), { recursive: true });
    archived = join(baselineDir, "changes", `${clientVersion}.json`);
    write(archived, { version: clientVersion, since: previous.packages, versions: report.versions });
  }
  mkdirSync(baselineDir, { recursive: true });
  for (const bundle of bundles) copyFileSync(join(distDir, bundle), join(baselineDir, bundle));
  const failing = new Map<string, string>();
  for (const error of compileConsumers(root, consumers))
    if (!failing.has(error.path)) failing.set(error.path, `${error.at}: ${error.message}`);
  const snapshot: ConsumerSnapshot = {
    files: consumers.filter((file) => !failing.has(file.path)),
    leftOut: consumers
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
  return { archived, snapshot };
}
