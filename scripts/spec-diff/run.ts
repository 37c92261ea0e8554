/**
 * One run of the spec diff: each version's bundle compared with the released baseline, the
 * release's consumer code compiled against the current generated types, and the pending
 * changesets held against what was found.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import {
  type BreakingChange,
  type Changeset,
  missingChangesets,
  readChangesets,
  type SpecPackage,
} from "./changesets.ts";
import { classifyChanges, type Finding } from "./classify.ts";
import { type CompileError, type ConsumerFile, compileConsumers } from "./consumers.ts";

/** The API versions compared, each with its bundle (spec/dist and the baseline use the same names). */
export const VERSIONS = API_VERSIONS.map(({ id, bundle, prefix }) => ({ id, bundle, prefix }));

/** The API versions (of the one list) whose bundles a directory holds, newest first. */
export function versionBundles(dir: string): { id: string; bundle: string }[] {
  return VERSIONS.filter((version) => existsSync(join(dir, version.bundle))).map(({ id, bundle }) => ({
    id,
    bundle,
  }));
}

/** Every bundle a directory holds of those kept in a baseline: the full one and each version's. */
export function baselineBundles(dir: string): string[] {
  return ["openapi.json", ...versionBundles(dir).map((version) => version.bundle)];
}

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
 * A version's released bundle. A version new since the release (the baseline's full bundle has no
 * path under its prefix) has none: it is compared with an empty description, so each of its
 * operations is an addition. Any other missing bundle is an incomplete baseline.
 */
function baselineOf(baselineDir: string, bundle: string, prefix: string): Record<string, unknown> {
  const file = join(baselineDir, bundle);
  if (existsSync(file)) return readJson<Record<string, unknown>>(file);
  const full = join(baselineDir, "openapi.json");
  const released = existsSync(full)
    ? readJson<{ paths?: Record<string, unknown>; components?: unknown; tags?: { name: string }[] }>(full)
    : undefined;
  if (released === undefined || Object.keys(released.paths ?? {}).some((path) => path.startsWith(prefix))) {
    throw new Error(`spec diff: no baseline ${file} (the release step writes it)`);
  }
  // The release's document-level parts and those every version shares (security scheme, the
  // authentication tag), none of any version's operations or tags.
  const components = (released.components ?? {}) as Record<string, unknown>;
  const shared = (released.tags ?? []).filter(
    (tag) => !API_VERSIONS.some((version) => tag.name.startsWith(version.tagPrefix)),
  );
  return {
    ...released,
    paths: {},
    components: { securitySchemes: components.securitySchemes },
    tags: shared,
    "x-tagGroups": [],
  };
}

/**
 * Compares the current bundles with the baseline and judges the pending changesets.
 */
export function runSpecDiff(options: SpecDiffOptions): SpecDiffReport {
  const { root } = options;
  const baselineDir = options.baselineDir ?? join(root, "spec/baseline");
  const currentDir = options.currentDir ?? join(root, "spec/dist");
  const changesetDir = options.changesetDir ?? join(root, ".changeset");
  for (const version of VERSIONS) {
    if (!existsSync(join(currentDir, version.bundle)))
      throw new Error(`spec diff: no bundle ${join(currentDir, version.bundle)}; run pnpm generate first`);
  }
  const versions = VERSIONS.map(({ id, bundle, prefix }) => ({
    id,
    bundle,
    findings: classifyChanges(baselineOf(baselineDir, bundle, prefix), readJson(join(currentDir, bundle))),
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
