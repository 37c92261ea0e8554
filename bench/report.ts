/**
 * Result model, console tables and the BENCHMARKS.md writer.
 *
 * Raw results live in `bench/results.json` so that running a single benchmark refreshes its own
 * section of BENCHMARKS.md and keeps the others (each section states when and where it was measured).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as os from "node:os";
import { fileURLToPath } from "node:url";

/**
 * Whether a row has a target and whether it was reached. `noisy`: the row has a target, but its
 * rounds spread too widely for the run to claim either outcome (see `NOISE_LIMIT` in stats.ts).
 */
export type Verdict = "met" | "missed" | "noisy" | "info";

/** One line of a benchmark's main table. */
export interface ResultRow {
  /** What the row measures. */
  readonly metric: string;
  /** Our figure, formatted. */
  readonly ours: string;
  /** The reference figure, formatted ("—" when there is none). */
  readonly reference: string;
  /** ours / reference, formatted ("—" when not meaningful). */
  readonly ratio: string;
  /** The target, formatted ("—" for report-only rows). */
  readonly target: string;
  readonly verdict: Verdict;
  /** For a missed target: by how much; for a noisy row: the spread that made it so. */
  readonly miss?: string;
  /** Also list this report-only row in the summary at the top of BENCHMARKS.md. */
  readonly headline?: boolean;
}

/** An extra table of a benchmark (per-round figures and the like). */
export interface DetailTable {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** What one benchmark hands back to the runner. */
export interface BenchmarkResult {
  /** Short name, also the CLI argument, e.g. `client-overhead`. */
  readonly name: string;
  readonly title: string;
  /** What is measured and against what, in a sentence or two (Markdown). */
  readonly measured: string;
  /** Parameters of the run (Markdown bullets, without the dash). */
  readonly setup: readonly string[];
  readonly rows: readonly ResultRow[];
  readonly details: readonly DetailTable[];
  /** Interpretation; for a missed target, the plausible why (Markdown paragraphs). */
  readonly notes: readonly string[];
  /** Wall time of the benchmark itself. */
  readonly durationMs: number;
}

/** The machine a result was measured on. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memory: string;
  readonly node: string;
  readonly os: string;
}

/** A stored result with where and when it was taken. */
export interface StoredResult {
  readonly result: BenchmarkResult;
  readonly machine: MachineInfo;
  readonly date: string;
  readonly command: string;
  /** 1-minute load average of the machine before and after the benchmark (other work skews figures). */
  readonly load?: { readonly before: number; readonly after: number };
}

/** Description of this machine. */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? "unknown";
  return {
    cpu: model === "" ? "unknown" : model,
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

/** `2026-01-31 14:05 UTC` from an ISO timestamp. */
function formatDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function describeMachine(machine: MachineInfo): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM, Node ${machine.node}, ${machine.os}`;
}

function verdictText(row: ResultRow): string {
  if (row.verdict === "met") return "met";
  if (row.verdict === "noisy") return `NOISY, not claimed${row.miss ? ` (${row.miss})` : ""}`;
  if (row.verdict === "missed") return `MISSED${row.miss ? ` (${row.miss})` : ""}`;
  return "report only";
}

function verdictMarkdown(row: ResultRow): string {
  if (row.verdict === "met") return "✅ met";
  if (row.verdict === "noisy") return `⚠️ noisy, not claimed${row.miss ? ` (${row.miss})` : ""}`;
  if (row.verdict === "missed") return `❌ **MISSED**${row.miss ? ` (${row.miss})` : ""}`;
  return "— (report only)";
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - [...text].length));
}

function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max([...header].length, ...rows.map((row) => [...(row[column] ?? "")].length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => pad(cell, widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const MAIN_HEADERS = ["Metric", "Ours", "Reference", "Ratio", "Target", "Verdict"] as const;

/** The benchmark's result as console text. */
export function formatConsole(result: BenchmarkResult): string {
  const parts = [
    `\n=== ${result.title} (${result.name}, ${(result.durationMs / 1000).toFixed(1)} s) ===`,
    textTable(
      MAIN_HEADERS,
      result.rows.map((row) => [
        row.metric,
        row.ours,
        row.reference,
        row.ratio,
        row.target,
        verdictText(row),
      ]),
    ),
  ];
  for (const detail of result.details)
    parts.push(`\n${detail.title}\n${textTable(detail.headers, detail.rows)}`);
  for (const note of result.notes) parts.push(`\n${note.replaceAll("**", "")}`);
  const missed = result.rows.filter((row) => row.verdict === "missed");
  for (const row of missed) parts.push(`!!! MISSED: ${row.metric}: ${row.ours} vs target ${row.target}`);
  for (const row of result.rows.filter((entry) => entry.verdict === "noisy")) {
    parts.push(
      `!!! NOISY: ${row.metric}: ${row.ours} (target ${row.target}) is not claimed: ${row.miss ?? ""}`,
    );
  }
  return parts.join("\n");
}

function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

function section(stored: StoredResult, machineOfRun: MachineInfo): string {
  const { result } = stored;
  const lines = [
    `## ${result.title}`,
    "",
    `Source: \`bench/${result.name}.ts\`; run it alone with \`pnpm bench:run ${result.name}\`.`,
    "",
  ];
  const sameMachine = describeMachine(stored.machine) === describeMachine(machineOfRun);
  lines.push(
    `Measured ${formatDate(stored.date)}${sameMachine ? "" : ` on ${describeMachine(stored.machine)}`}, in ${(result.durationMs / 1000).toFixed(1)} s` +
      (stored.load === undefined
        ? "."
        : `; 1-minute load average ${stored.load.before.toFixed(2)} before, ${stored.load.after.toFixed(2)} after.`),
    "",
    result.measured,
    "",
  );
  if (result.setup.length > 0) lines.push(...result.setup.map((item) => `- ${item}`), "");
  lines.push(
    markdownTable(
      MAIN_HEADERS,
      result.rows.map((row) => [
        row.metric,
        row.ours,
        row.reference,
        row.ratio,
        row.target,
        verdictMarkdown(row),
      ]),
    ),
    "",
  );
  for (const detail of result.details) {
    lines.push(`${detail.title}:`, "", markdownTable(detail.headers, detail.rows), "");
  }
  for (const note of result.notes) lines.push(note, "");
  return lines.join("\n");
}

/** Renders BENCHMARKS.md from stored results, in the given order. */
export function renderMarkdown(stored: readonly StoredResult[], latest: StoredResult | undefined): string {
  const machine = latest?.machine ?? stored[0]?.machine ?? machineInfo();
  const summaryRows = stored.flatMap((entry) =>
    entry.result.rows
      .filter((row) => row.verdict !== "info" || row.headline === true)
      .map((row) => [
        entry.result.title,
        row.metric,
        row.ours,
        row.reference,
        row.ratio,
        row.target,
        verdictMarkdown(row),
      ]),
  );
  const count = (verdict: Verdict) =>
    stored.reduce(
      (total, entry) => total + entry.result.rows.filter((row) => row.verdict === verdict).length,
      0,
    );
  const missed = count("missed");
  const noisy = count("noisy");
  const lines = [
    "# Benchmarks",
    "",
    "<!-- Generated by `pnpm bench` (bench/run.ts) from bench/results.json; edit the benchmarks, not this file. -->",
    "",
    "Performance figures of the SDK, each measured next to a reference in the same run. Benchmarks",
    "measure and report; they are not tests and never fail the build. Rerun them all with `pnpm bench`",
    "(builds the packages first), or one with `pnpm bench:run <name>` (uses the packages as built).",
    "",
    `- Machine: ${describeMachine(machine)}`,
    `- Date: ${formatDate(latest?.date ?? stored[0]?.date ?? new Date().toISOString())}`,
    latest === undefined || latest.command === "tsx bench/run.ts"
      ? "- Command: `pnpm bench` (builds the packages, then runs `tsx bench/run.ts`)"
      : `- Command of the latest run: \`${latest.command}\` (the other sections keep the date of their own run)`,
    "",
    "Servers run in their own processes, so a benchmark keeps up to two processes busy and pushes the",
    "1-minute load average (given per section) towards 2 by itself; clearly more means other work shared",
    "the machine and the figures are noisier. Ratios come from interleaved rounds, which cancels most drift.",
    "",
    "## Summary",
    "",
    markdownTable(["Benchmark", "Metric", "Ours", "Reference", "Ratio", "Target", "Verdict"], summaryRows),
    "",
    missed === 0 && noisy === 0
      ? "Every target with a number was met."
      : [
          missed > 0
            ? `${missed} target${missed === 1 ? " was" : "s were"} missed; the sections below say by how much and why.`
            : "",
          noisy > 0
            ? `${noisy} figure${noisy === 1 ? " was" : "s were"} too noisy to claim (rounds spread over 30 %); rerun on a quieter machine.`
            : "",
        ]
          .filter((line) => line !== "")
          .join(" "),
    "",
  ];
  for (const entry of stored) lines.push(section(entry, machine));
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Reads the stored results (empty when there are none yet or the file is unreadable). */
export async function readStored(path: string): Promise<StoredResult[]> {
  if (!existsSync(path)) return [];
  try {
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    return Array.isArray(parsed) ? (parsed as StoredResult[]) : [];
  } catch {
    return [];
  }
}

/**
 * Writes the stored results, then lets Biome lay the JSON out the way `biome check` expects (the
 * file is committed). Without Biome the plain JSON is kept; it is still valid.
 */
export async function writeStored(path: string, stored: readonly StoredResult[]): Promise<void> {
  await writeFile(path, `${JSON.stringify(stored, null, 2)}\n`);
  const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
  if (!existsSync(biome)) return;
  await new Promise<void>((resolve) => {
    execFile(biome, ["format", "--write", path], { timeout: 30_000 }, () => resolve());
  });
}
