/**
 * `pnpm spec:diff`: compares the description (spec/dist, per API version) with the last release
 * (spec/baseline), prints the changelog in Markdown, compiles the release's consumer code against
 * the current generated types when they changed, and fails (exit 1) when a change lacks the
 * changeset it needs, naming the change and the changeset.
 *
 * Usage: see USAGE below (`pnpm spec:diff --help`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { versionsMarkdown } from "./spec-diff/changelog.ts";
import { runSpecDiff, type SpecDiffReport } from "./spec-diff/run.ts";
import { bundlesAt } from "./spec-diff/since.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

const USAGE = `usage: pnpm spec:diff [options]

Compares the API description (spec/dist, after pnpm generate) with the last release
(spec/baseline), prints the changes in Markdown and fails (exit 1) when a change lacks the
changeset it needs. Needs the generated files (pnpm generate), no build of any package.

  --since <ref>        only what changed since a commit (its spec/ bundled afresh), e.g. --since main
  --baseline <dir>     the released bundles (default spec/baseline)
  --current <dir>      the bundles to judge (default spec/dist)
  --changesets <dir>   the pending changesets (default .changeset)
  --consumers <when>   compile the release's consumer code: auto (when the types changed),
                       always or never (default auto; never with --since)
  --quiet              print only the problems (the check in pnpm test)
  -h, --help           this text
`;

function usage(message: string): never {
  console.error(`spec:diff: ${message}`);
  console.error("run pnpm spec:diff --help for the options");
  process.exit(2);
}

let values: {
  baseline?: string;
  current?: string;
  changesets?: string;
  consumers?: string;
  since?: string;
  quiet?: boolean;
  help?: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      baseline: { type: "string" },
      current: { type: "string" },
      changesets: { type: "string" },
      consumers: { type: "string" },
      since: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }));
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.since !== undefined && values.baseline !== undefined)
  usage("--since and --baseline both name what to compare with: give one");
const consumers = values.consumers ?? (values.since === undefined ? "auto" : "never");
if (consumers !== "auto" && consumers !== "always" && consumers !== "never")
  usage(`--consumers must be auto, always or never (got ${JSON.stringify(consumers)})`);

function markdown(report: SpecDiffReport): string {
  const since = report.release
    ? Object.entries(report.release.packages)
        .map(([name, version]) => `${name} ${version}`)
        .join(", ")
    : "the baseline";
  const lines = [
    values.since === undefined
      ? `# Changes to the API description since the last release (${since})`
      : `# Changes to the API description since ${values.since}`,
    "",
    versionsMarkdown(report.versions),
    "## The release's consumer code against the new types",
    "",
  ];
  if (report.compileErrors === undefined)
    lines.push(
      report.typesChanged
        ? "Not compiled (--consumers never)."
        : "The generated types are those of the release.",
    );
  else if (report.compileErrors.length === 0)
    lines.push(
      "The examples, the docs' TypeScript blocks and the client's type tests of the release still compile.",
    );
  else for (const error of report.compileErrors) lines.push(`- \`${error.at}\` ${error.message}`);
  lines.push("", "## Changesets", "");
  if (report.problems.length === 0) lines.push("Every change has the changeset it needs.");
  else for (const problem of report.problems) lines.push(`- ✗ ${problem}`);
  return `${lines.join("\n")}\n`;
}

let report: SpecDiffReport;
const scratch = values.since === undefined ? undefined : mkdtempSync(join(tmpdir(), "spec-diff-since-"));
try {
  const baselineDir =
    values.since !== undefined && scratch !== undefined
      ? bundlesAt(root, values.since, scratch)
      : values.baseline === undefined
        ? undefined
        : resolve(values.baseline);
  report = runSpecDiff({
    root,
    ...(baselineDir === undefined ? {} : { baselineDir }),
    ...(values.current === undefined ? {} : { currentDir: resolve(values.current) }),
    ...(values.changesets === undefined ? {} : { changesetDir: resolve(values.changesets) }),
    consumers,
  });
} catch (error) {
  console.error(`spec:diff: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
} finally {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
}
if (!values.quiet) process.stdout.write(markdown(report));
const breaking = report.versions
  .flatMap((version) => version.findings)
  .filter((f) => f.severity === "breaking").length;
const total = report.versions.reduce((sum, version) => sum + version.findings.length, 0);
if (report.problems.length > 0) {
  console.error(`spec:diff: ${report.problems.length} problem(s) with the changesets:`);
  for (const problem of report.problems) console.error(`  ✗ ${problem}`);
  console.error('  See spec/README.md, "Changing the description safely".');
  process.exit(1);
}
console.error(
  `spec:diff: ${total} change(s) since ${values.since ?? "the release"}, ${breaking} breaking${report.compileErrors?.length ? `, ${report.compileErrors.length} compile error(s) in the release's consumer code` : ""}; the changesets cover them`,
);
