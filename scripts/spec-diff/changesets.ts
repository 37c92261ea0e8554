/**
 * Ties the spec diff to changesets: a breaking change ships only with a changeset that bumps every
 * package built from the description by the bump that means breaking (major; for a 0.x version,
 * the minor) and whose text names the change; a change of the client's generated types needs at
 * least a patch changeset for the client.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type Bump = "patch" | "minor" | "major";

/** One pending changeset file. */
export interface Changeset {
  readonly file: string;
  readonly releases: ReadonlyMap<string, Bump>;
  readonly summary: string;
}

/** A breaking change as the check names it. */
export interface BreakingChange {
  /** Where it is: a JSON pointer (with its operation), or `file:line` of consumer code. */
  readonly label: string;
  /** What a changeset may write to name it (operationIds, `METHOD /path`, a component, a file). */
  readonly names: readonly string[];
}

/** A package built from the description, at its current (last released) version. */
export interface SpecPackage {
  readonly name: string;
  readonly version: string;
}

const BUMPS: readonly Bump[] = ["patch", "minor", "major"];
export const CLIENT = "@drill-practice/client";

/**
 * The pending changesets of a `.changeset` directory (its README.md aside).
 */
export function readChangesets(dir: string): Changeset[] {
  const changesets: Changeset[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith(".md") || file === "README.md") continue;
    const text = readFileSync(join(dir, file), "utf8");
    // The release lines may be none at all (`changeset --empty`).
    const match = /^---\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$)([\s\S]*)$/m.exec(text);
    if (!match) throw new Error(`${join(dir, file)}: no front matter (--- "package": bump ---)`);
    const releases = new Map<string, Bump>();
    for (const line of (match[1] ?? "").split(/\r?\n/)) {
      if (line.trim() === "") continue;
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
      if (!entry) throw new Error(`${join(dir, file)}: cannot read the release line ${JSON.stringify(line)}`);
      releases.set(entry[1] as string, entry[2] as Bump);
    }
    changesets.push({ file, releases, summary: match[2] ?? "" });
  }
  return changesets;
}

/** The bumps that mean "breaking" for a version: major, or for 0.x the minor (and major). */
export function breakingBumps(version: string): readonly Bump[] {
  return version.startsWith("0.") ? ["minor", "major"] : ["major"];
}

/** Whether a text names `name` as a whole (`GET /api/2/user` is not named by `GET /api/2/user/{user}`). */
function names(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w/{}.-])${escaped}(?![\\w/{}-])`).test(text);
}

function atLeast(bump: Bump | undefined, least: Bump): boolean {
  return bump !== undefined && BUMPS.indexOf(bump) >= BUMPS.indexOf(least);
}

/**
 * What is missing from the pending changesets for these changes; empty when they may ship.
 */
export function missingChangesets(input: {
  breaking: readonly BreakingChange[];
  typesChanged: boolean;
  packages: readonly SpecPackage[];
  changesets: readonly Changeset[];
}): string[] {
  const { breaking, typesChanged, packages, changesets } = input;
  const problems: string[] = [];
  if (breaking.length > 0) {
    const wanted = packages.map((pkg) => {
      const bumps = breakingBumps(pkg.version);
      return {
        ...pkg,
        bumps,
        line: `"${pkg.name}": ${bumps[0]}`,
      };
    });
    const breakingFor = (changeset: Changeset) =>
      wanted.some((pkg) => {
        const bump = changeset.releases.get(pkg.name);
        return bump !== undefined && pkg.bumps.includes(bump);
      });
    const why = wanted.some((pkg) => pkg.bumps[0] === "minor")
      ? " (for a 0.x version the minor is the breaking bump)"
      : "";
    for (const pkg of wanted) {
      const has = changesets.some((changeset) => {
        const bump = changeset.releases.get(pkg.name);
        return bump !== undefined && pkg.bumps.includes(bump);
      });
      if (!has)
        problems.push(
          `missing changeset: ${breaking.length} breaking change(s) need a changeset with ${pkg.line}${why}; none of the ${changesets.length} pending changeset(s) bumps ${pkg.name} that far`,
        );
    }
    for (const change of breaking) {
      const named = changesets.some(
        (changeset) => breakingFor(changeset) && change.names.some((name) => names(changeset.summary, name)),
      );
      if (!named)
        problems.push(
          `breaking change not named by a changeset: ${change.label}\n    write a changeset with ${wanted.map((pkg) => pkg.line).join(" and ")}${why}, whose text names it as ${change.names.map((name) => `\`${name}\``).join(" or ")}`,
        );
    }
  }
  if (typesChanged && !changesets.some((changeset) => atLeast(changeset.releases.get(CLIENT), "patch")))
    problems.push(
      `missing changeset: the client's generated types changed since the release; add at least "${CLIENT}": patch saying what changed`,
    );
  return problems;
}
