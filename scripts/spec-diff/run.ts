/**
 * One run of the spec diff: each version's bundle compared with the released baseline, the
 * release's consumer code compiled against the current generated types, and the pending
 * changesets held against what was found.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BreakingChange,
  type Changeset,
  missingChangesets,
  readChangesets,
  type SpecPackage,
} from "./changesets.ts";
import { classifyChanges, type Finding } from "./classify.ts";
import { type CompileError, type ConsumerFile, compileConsumers } from "./consumers.ts";

/** A per-version bundle's name: `openapi-v<version>.json` (spec/dist and the baseline use the same names). */
const VERSION_BUNDLE = /^openapi-v(\d+(?:\.\d+)*)\.json$/;

/**
 * The API versions whose bundles a directory holds, newest first: whatever versions the description
 * has, so a version added to it (API 2.1.1) is compared without a change here.
 */
export function versionBundles(dir: string): { id: string; bundle: string }[] {
  if (!existsSync(dir)) return [];
  const byNumber = (id: string) => id.split(".").map(Number);
  return readdirSync(dir)
    .map((file) => VERSION_BUNDLE.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ id: match[1] as string, bundle: match[0] }))
    .sort((a, b) => {
      const [x, y] = [byNumber(a.id), byNumber(b.id)];
      for (let i = 0; i < Math.max(x.length, y.length); i++)
        if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
      return 0;
    });
}

/** Every bundle kept in the baseline: the full one and each version's. */
export function baselineBundles(dir: string): string[] {
  return ["openapi.json", ...versionBundles(dir).map((version) => version.bundle)];
}

/** The document a version that one side lacks is compared with: no operations at all. */
const EMPTY_DOCUMENT = { openapi: "3.1.0", info: { title: "none", version: "none" }, paths: {} };

/** Where the client's generated types live, whose change needs a client changeset. */
export const GENERATED_DIRS = ["packages/client/src/generated", "packages/client/src/core/generated"];

/** What the release step recorded next to the bundles (`spec/baseline/release.json`). */
export interface Release {
  /** The released version of each package built from the description. */
  readonly packages: Record<string, string>;
  /** sha256 of the client's generated types at the release. */
  readonly generatedTypes: string;
}

/** The consumer code kept with the baseline (`spec/baseline/consumers.json`). */
export interface ConsumerSnapshot {
  readonly files: readonly ConsumerFile[];
  /** Blocks that did not compile in this setting at the release, so are not held against later types. */
  readonly leftOut: readonly { path: string; origin?: string; reason: string }[];
}

export interface VersionDiff {
  readonly id: string;
  readonly bundle: string;
  readonly findings: readonly Finding[];
}

export interface SpecDiffReport {
  readonly release: Release | undefined;
  readonly versions: readonly VersionDiff[];
  readonly typesChanged: boolean;
  /** Undefined when the consumer code was not compiled (types unchanged, or not asked for). */
  readonly compileErrors: readonly CompileError[] | undefined;
  readonly packages: readonly SpecPackage[];
  readonly changesets: readonly Changeset[];
  /** What keeps the changes from shipping; empty when they may. */
  readonly problems: readonly string[];
}

export interface SpecDiffOptions {
  /** The repository (packages, generated types, consumer code). */
  readonly root: string;
  /** Default `<root>/spec/baseline`. */
  readonly baselineDir?: string;
  /** Where the current bundles are; default `<root>/spec/dist`. */
  readonly currentDir?: string;
  /** Default `<root>/.changeset`. */
  readonly changesetDir?: string;
  /** `auto` (default): compile when the generated types changed; `always`; `never`. */
  readonly consumers?: "auto" | "always" | "never";
}

/** A JSON file's content; a file that is not JSON is an error naming the file, on one line. */
export function readJson<T>(path: string): T {
  const text = readFileSync(path, "utf8");
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`${path}: not valid JSON (${why})`);
  }
}

/**
 * The sha256 of the client's generated types in a repository.
 */
export function generatedTypesHash(root: string): string {
  const hash = createHash("sha256");
  for (const dir of GENERATED_DIRS) {
    const full = join(root, dir);
    if (!existsSync(full)) continue;
    for (const file of readdirSync(full).sort()) {
      hash.update(`${dir}/${file}\0`);
      hash.update(readFileSync(join(full, file)));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}

/**
 * The published packages built from the description (those depending on `@drill-practice/spec`),
 * at the versions in their package.json.
 */
export function specPackages(root: string): SpecPackage[] {
  const found: SpecPackage[] = [];
  for (const dir of readdirSync(join(root, "packages")).sort()) {
    const file = join(root, "packages", dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = readJson<{
      name: string;
      version: string;
      private?: boolean;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    }>(file);
    const deps = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
    if (!manifest.private && "@drill-practice/spec" in deps)
      found.push({ name: manifest.name, version: manifest.version });
  }
  return found;
}

/**
 * Compares the current bundles with the baseline and judges the pending changesets.
 */
export function runSpecDiff(options: SpecDiffOptions): SpecDiffReport {
  const { root } = options;
  const baselineDir = options.baselineDir ?? join(root, "spec/baseline");
  const currentDir = options.currentDir ?? join(root, "spec/dist");
  const changesetDir = options.changesetDir ?? join(root, ".changeset");
  const inBaseline = versionBundles(baselineDir);
  const inCurrent = versionBundles(currentDir);
  if (inBaseline.length === 0)
    throw new Error(`no baseline bundle (openapi-v*.json) in ${baselineDir} (the release step writes it)`);
  if (inCurrent.length === 0)
    throw new Error(`no bundle (openapi-v*.json) in ${currentDir}; run pnpm generate first`);
  const read = (dir: string, bundle: string) =>
    existsSync(join(dir, bundle)) ? readJson<Record<string, unknown>>(join(dir, bundle)) : EMPTY_DOCUMENT;
  // A version only one side has is compared with no operations: all added, or all removed.
  const versions = [
    ...inCurrent,
    ...inBaseline.filter((old) => !inCurrent.some((now) => now.id === old.id)),
  ].map((version) => ({
    ...version,
    findings: classifyChanges(read(baselineDir, version.bundle), read(currentDir, version.bundle)),
  }));
  const releaseFile = join(baselineDir, "release.json");
  const release = existsSync(releaseFile) ? readJson<Release>(releaseFile) : undefined;
  const typesChanged = release !== undefined && release.generatedTypes !== generatedTypesHash(root);
  const consumersFile = join(baselineDir, "consumers.json");
  const mode = options.consumers ?? "auto";
  const compileErrors =
    existsSync(consumersFile) && (mode === "always" || (mode === "auto" && typesChanged))
      ? compileConsumers(root, readJson<ConsumerSnapshot>(consumersFile).files)
      : undefined;
  const breaking: BreakingChange[] = [];
  for (const version of versions) {
    for (const finding of version.findings) {
      if (finding.severity !== "breaking") continue;
      breaking.push({
        label: `API ${version.id}: ${finding.pointer} (${finding.group}): ${finding.reason}`,
        names: finding.names.length > 0 ? finding.names : [finding.pointer],
      });
    }
  }
  for (const error of compileErrors ?? []) {
    const file = error.at.replace(/:\d+$/, "");
    breaking.push({
      label: `${error.at}: the release's consumer code no longer compiles: ${error.message}`,
      names: [file],
    });
  }
  const packages = specPackages(root);
  // A pointer shared by both versions (token exchange, discovery) needs naming once.
  const unique = [
    ...new Map(breaking.map((change) => [change.label.replace(/^API [\d.]+: /, ""), change])).values(),
  ];
  const changesets = readChangesets(changesetDir);
  const problems = missingChangesets({ breaking: unique, typesChanged, packages, changesets });
  return { release, versions, typesChanged, compileErrors, packages, changesets, problems };
}
