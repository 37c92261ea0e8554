/**
 * `pnpm spec:diff`: compares the description (spec/dist, per API version) with the last release
 * (spec/baseline), prints the changelog in Markdown, compiles the release's consumer code against
 * the current generated types when they changed, and fails (exit 1) when a change lacks the
 * changeset it needs, naming the change and the changeset.
 *
 * Usage: tsx scripts/spec-diff.ts [--baseline <dir>] [--current <dir>] [--changesets <dir>]
 *                                 [--consumers auto|always|never] [--quiet]
 * `--quiet` prints only the problems (the check in `pnpm test`).
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { versionsMarkdown } from "./spec-diff/changelog.ts";
import { runSpecDiff, type SpecDiffReport } from "./spec-diff/run.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

function usage(message: string): never {
  console.error(`spec:diff: ${message}`);
  console.error(
    "usage: pnpm spec:diff [--baseline <dir>] [--current <dir>] [--changesets <dir>] [--consumers auto|always|never] [--quiet]",
  );
  process.exit(2);
}

let values: { baseline?: string; current?: string; changesets?: string; consumers?: string; quiet?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      baseline: { type: "string" },
      current: { type: "string" },
      changesets: { type: "string" },
      consumers: { type: "string" },
      quiet: { type: "boolean" },
    },
    strict: true,
  }));
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const consumers = values.consumers ?? "auto";
if (consumers !== "auto" && consumers !== "always" && consumers !== "never")
  usage(`--consumers must be auto, always or never (got ${JSON.stringify(consumers)})`);

function markdown(report: SpecDiffReport): string {
  const since = report.release
    ? Object.entries(report.release.packages)
        .map(([name, version]) => `${name} ${version}`)
        .join(", ")
    : "the baseline";
  const lines = [
    `# Changes to the API description since the last release (${since})`,
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
try {
  report = runSpecDiff({
    root,
    ...(values.baseline === undefined ? {} : { baselineDir: resolve(values.baseline) }),
    ...(values.current === undefined ? {} : { currentDir: resolve(values.current) }),
    ...(values.changesets === undefined ? {} : { changesetDir: resolve(values.changesets) }),
    consumers,
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
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
  `spec:diff: ${total} change(s) since the release, ${breaking} breaking${report.compileErrors?.length ? `, ${report.compileErrors.length} compile error(s) in the release's consumer code` : ""}; the changesets cover them`,
);
