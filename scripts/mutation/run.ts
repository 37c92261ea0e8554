/**
 * `pnpm mutation`: runs Stryker (stryker.config.mjs, incremental) over the modules
 * marked `measure` in scripts/mutation/modules.json, one run per package (each with
 * only that package's tests, so one package's results survive another's failure),
 * merges the runs' JSON reports into the standard one (reports/mutation/mutation.json),
 * prints the mutation score per module and
 * writes MUTATION.md: the date, the command, one row per module (pending ones say
 * why) and every surviving mutant, with the reason when it is listed as equivalent
 * in scripts/mutation/equivalent.json.
 *
 * Usage: pnpm mutation [--report-only] [--package auth|client|sandbox] [stryker options, e.g. --concurrency 1 --force]
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const REPORT = "reports/mutation/mutation.json";
const TARGET = 80;

interface Module {
  name: string;
  files: string[];
  measure: boolean;
  pending?: string;
}
interface Equivalent {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  line?: number;
  reason: string;
}
interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface MutationReport {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}

const args = process.argv.slice(2).filter((arg) => arg !== "--");
const reportOnly = args.includes("--report-only");
const packageArg = args.indexOf("--package");
const chosen = packageArg === -1 ? undefined : args[packageArg + 1];
const strykerArgs = args.filter(
  (arg, i) => arg !== "--report-only" && (packageArg === -1 || (i !== packageArg && i !== packageArg + 1)),
);
const command = `pnpm mutation${args.length > 0 ? ` ${args.join(" ")}` : ""}`;

const { modules } = readJson<{ modules: Module[] }>("scripts/mutation/modules.json");
const { equivalent } = readJson<{ equivalent: Equivalent[] }>("scripts/mutation/equivalent.json");
const packages = [...new Set(modules.filter((m) => m.measure).flatMap((m) => m.files.map(packageOf)))];

const started = Date.now();
const timings: string[] = [];
if (!reportOnly) {
  for (const name of packages.filter((p) => chosen === undefined || p === chosen)) {
    const begun = Date.now();
    const stryker = spawnSync("stryker", ["run", ...strykerArgs], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, DRILL_MUTATION_PACKAGE: name },
    });
    if (stryker.status !== 0) {
      console.error(
        `stryker (${name}) exited with ${stryker.status ?? stryker.signal}; its report is not updated`,
      );
      process.exit(stryker.status ?? 1);
    }
    timings.push(`${name} ${((Date.now() - begun) / 60_000).toFixed(1)} min`);
    writeFileSync(
      `${root}reports/mutation/${name}.run.json`,
      `${JSON.stringify({ command, minutes: (Date.now() - begun) / 60_000 })}\n`,
    );
  }
}
const minutes = (Date.now() - started) / 60_000;

// The standard report of all packages: the per-package reports with their files side by side.
const reportPaths = packages
  .map((name) => `reports/mutation/${name}.json`)
  .filter((path) => existsSync(`${root}${path}`));
const parts = reportPaths.map((path) => readJson<MutationReport & Record<string, unknown>>(path));
// When each package's numbers were measured (its last Stryker run finished).
const measuredAt = reportPaths.map((path) => {
  const name = path.split("/").at(-1)?.replace(".json", "") ?? path;
  const runFile = `reports/mutation/${name}.run.json`;
  const run = existsSync(`${root}${runFile}`)
    ? readJson<{ command: string; minutes: number }>(runFile)
    : undefined;
  const how = run ? ` by \`${run.command}\` in ${run.minutes.toFixed(1)} min` : "";
  return `${name} ${isoMinute(statSync(`${root}${path}`).mtime)}${how}`;
});
if (parts.length === 0) {
  console.error("no Stryker report yet: run pnpm mutation without --report-only");
  process.exit(1);
}
const report: MutationReport = {
  ...parts[0],
  files: Object.assign({}, ...parts.map((part) => part.files)),
  testFiles: Object.assign({}, ...parts.map((part) => (part as { testFiles?: object }).testFiles ?? {})),
} as MutationReport;
writeFileSync(`${root}${REPORT}`, JSON.stringify(report));

interface Row {
  module: Module;
  killed: number;
  timeout: number;
  survived: Survivor[];
  noCoverage: Survivor[];
  errors: number;
  ignored: number;
  score: number | undefined;
}
interface Survivor {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  status: string;
  reason: string | undefined;
}

const rows: Row[] = modules.map((module) => {
  const row: Row = {
    module,
    killed: 0,
    timeout: 0,
    survived: [],
    noCoverage: [],
    errors: 0,
    ignored: 0,
    score: undefined,
  };
  if (!module.measure) return row;
  for (const file of filesOf(module, Object.keys(report.files))) {
    const result = report.files[file];
    if (!result) continue;
    for (const mutant of result.mutants) {
      if (mutant.status === "Killed") row.killed += 1;
      else if (mutant.status === "Timeout") row.timeout += 1;
      else if (mutant.status === "Survived" || mutant.status === "NoCoverage") {
        const survivor = describe(file, result.source, mutant);
        (mutant.status === "Survived" ? row.survived : row.noCoverage).push(survivor);
      } else if (mutant.status === "CompileError" || mutant.status === "RuntimeError") row.errors += 1;
      else if (mutant.status === "Ignored") row.ignored += 1;
    }
  }
  // Stryker's own definition: detected (killed, timed out) over valid (detected, survived, not covered).
  const detected = row.killed + row.timeout;
  const valid = detected + row.survived.length + row.noCoverage.length;
  row.score = valid === 0 ? undefined : (100 * detected) / valid;
  return row;
});

const missing = rows.filter((row) => row.module.measure && row.score === undefined);
const table = [
  "| module | files | killed | timed out | survived | no coverage | equivalent (listed) | static (not run) | score |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((row) => {
    const files = row.module.files.map((file) => `\`${file}\``).join("<br>");
    if (!row.module.measure)
      return `| ${row.module.name} | ${files} | | | | | | | pending: ${row.module.pending ?? "not measured"} |`;
    if (row.score === undefined)
      return `| ${row.module.name} | ${files} | | | | | | | not measured yet (no Stryker result for these files) |`;
    const listed = [...row.survived, ...row.noCoverage].filter((s) => s.reason !== undefined).length;
    const mark = row.score >= TARGET ? "" : " (below target)";
    return `| ${row.module.name} | ${files} | ${row.killed} | ${row.timeout} | ${row.survived.length} | ${row.noCoverage.length} | ${listed} | ${row.ignored} | ${row.score.toFixed(1)} %${mark} |`;
  }),
];

const survivors = rows.flatMap((row) =>
  [...row.survived, ...row.noCoverage].map((s) => ({ ...s, module: row.module.name })),
);
const survivorLines = survivors.map(
  (s) =>
    `- ${s.module} — \`${s.file}:${s.line}\` ${s.mutator} (${s.status}): \`${oneLine(s.original)}\` → \`${oneLine(s.replacement)}\`` +
    (s.reason ? `\n  - equivalent: ${s.reason}` : "\n  - not yet killed or explained"),
);

const markdown = [
  "# Mutation score",
  "",
  "Generated by `scripts/mutation/run.ts`; do not edit by hand.",
  "",
  `- Date: ${isoMinute(new Date())}; Stryker runs finished: ${measuredAt.join(", ")}`,
  `- Command: \`${command}\`${reportOnly ? " (table recomputed from the last Stryker reports)" : ` (${minutes.toFixed(1)} min: ${timings.join(", ")})`}`,
  `- Report: \`${REPORT}\` (Stryker's JSON report); modules and globs: \`scripts/mutation/modules.json\``,
  `- Score = (killed + timed out) / (killed + timed out + survived + no coverage); target ≥ ${TARGET} % per module.`,
  "- Static mutants (module-level code that runs only on import) are not run (`ignoreStatic`, for the time budget) and not scored; their count is shown.",
  "",
  ...table,
  "",
  `## Surviving mutants (${survivors.length})`,
  "",
  ...(survivorLines.length > 0 ? survivorLines : ["None."]),
  "",
].join("\n");
writeFileSync(`${root}MUTATION.md`, markdown);
// Laid out the way `pnpm test`'s Biome check expects, so a fresh report never fails the lint.
spawnSync("biome", ["format", "--write", "MUTATION.md"], { cwd: root, stdio: "ignore" });

for (const row of rows) {
  const score = row.module.measure
    ? row.score === undefined
      ? "not in the report"
      : `${row.score.toFixed(1)} %`
    : "pending";
  console.log(`${row.module.name.padEnd(34)} ${score}`);
}
console.log(`MUTATION.md written (${survivors.length} surviving mutants listed)`);
process.exit(missing.length > 0 ? 1 : 0);

function describe(file: string, source: string, mutant: Mutant): Survivor {
  const original = slice(source, mutant.location);
  const replacement = mutant.replacement ?? "";
  const listed = equivalent.find(
    (e) =>
      e.file === file &&
      // A line pins an entry whose text is too common to name one mutant (`[]`, `i < n`).
      (e.line === undefined || e.line === mutant.location.start.line) &&
      e.mutator === mutant.mutatorName &&
      oneLine(e.original) === oneLine(original) &&
      oneLine(e.replacement) === oneLine(replacement),
  );
  return {
    file,
    line: mutant.location.start.line,
    mutator: mutant.mutatorName,
    original,
    replacement,
    status: mutant.status,
    reason: listed?.reason,
  };
}

/**
 * The report's files a module names: each path as it is, each glob (`*` within one folder, as
 * stryker.config.mjs passes them to Stryker) as the reported files it matches.
 */
function filesOf(module: Module, reported: readonly string[]): string[] {
  return module.files.flatMap((pattern) => {
    if (!pattern.includes("*")) return [pattern];
    const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
    const glob = new RegExp(`^${escaped.join("[^/]*")}$`);
    return reported.filter((file) => glob.test(file)).sort();
  });
}

/** The source text a location covers (lines and columns are 1-based, end exclusive). */
function slice(source: string, location: Mutant["location"]): string {
  const lines = source.split("\n");
  const { start, end } = location;
  if (start.line === end.line) return (lines[start.line - 1] ?? "").slice(start.column - 1, end.column - 1);
  const first = (lines[start.line - 1] ?? "").slice(start.column - 1);
  const middle = lines.slice(start.line, end.line - 1);
  const last = (lines[end.line - 1] ?? "").slice(0, end.column - 1);
  return [first, ...middle, last].join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
}

function isoMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16)}Z`;
}

function packageOf(file: string): string {
  return file.split("/")[1] ?? file;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(`${root}${path}`, "utf8")) as T;
}
