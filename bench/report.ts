/**
 * The benchmarks' report: stored results (bench/results.json) and BENCHMARKS.md, whose sections are
 * also what the console shows of a run.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as os from "node:os";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import type { BenchmarkResult, ResultRow, Verdict } from "./harness.ts";

export type MachineInfo = ReturnType<typeof machineInfo>;

/** A stored result with where and when it was taken. */
export interface StoredResult {
  readonly result: BenchmarkResult;
  readonly machine: MachineInfo;
  readonly date: string;
  readonly command: string;
  /** 1-minute load average before and after (other work skews figures). */
  readonly load?: { readonly before: number; readonly after: number };
}

export function machineInfo() {
  return {
    cpu: os.cpus()[0]?.model.trim() || "unknown",
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

const describeMachine = (m: MachineInfo): string =>
  `${m.cpu}, ${m.cores} cores, ${m.memory} RAM, Node ${m.node}, ${m.os}`;
const formatDate = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const HEADERS = ["Metric", "Ours", "Reference", "Ratio", "Target", "Verdict"] as const;
const VERDICTS: Record<Verdict, string> = {
  met: "✅ met",
  noisy: "⚠️ noisy, not claimed",
  missed: "❌ **MISSED**",
  info: "— (report only)",
};

const cells = (row: ResultRow): string[] => [
  row.metric,
  row.ours,
  row.reference,
  row.ratio,
  row.target,
  `${VERDICTS[row.verdict]}${row.miss ? ` (${row.miss})` : ""}`,
];

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (items: readonly string[]) =>
    `| ${items.map((c) => c.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

const README = readFileSync(fileURLToPath(new URL("./README.md", import.meta.url)), "utf8");

/** A benchmark's title and what it measures, from its section `## <name>: <title>` of bench/README.md. */
function prose(name: string): { title: string; text: string } {
  const [, title, text] = new RegExp(`^## ${name}: (.+)\\n([^]*?)(?=^## |(?![^]))`, "m").exec(README) ?? [];
  if (title === undefined || text === undefined)
    throw new Error(`bench/README.md has no section "## ${name}: …"`);
  return { title, text: text.trim() };
}

/** One benchmark's section of BENCHMARKS.md; printed to the console as it is. */
export function section(stored: StoredResult, machineOfRun: MachineInfo): string {
  const { result, load } = stored;
  const { title, text } = prose(result.name);
  const elsewhere = describeMachine(stored.machine) !== describeMachine(machineOfRun);
  const loadText = load
    ? `; 1-minute load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after`
    : "";
  return [
    `## ${title}`,
    "",
    `Source: \`bench/${result.name}.ts\`; run it alone with \`pnpm bench:run ${result.name}\`.`,
    "",
    `Measured ${formatDate(stored.date)}${elsewhere ? ` on ${describeMachine(stored.machine)}` : ""}, in ${(result.durationMs / 1000).toFixed(1)} s${loadText}.`,
    "",
    text,
    "",
    ...(result.setup.length > 0 ? [...result.setup.map((item) => `- ${item}`), ""] : []),
    table(HEADERS, result.rows.map(cells)),
    "",
    ...result.details.flatMap((d) => [`${d.title}:`, "", table(d.headers, d.rows), ""]),
    ...result.notes.flatMap((note) => [note, ""]),
  ].join("\n");
}

function summaryLine(stored: readonly StoredResult[]): string {
  const count = (verdict: Verdict) =>
    stored.reduce((n, entry) => n + entry.result.rows.filter((row) => row.verdict === verdict).length, 0);
  const [missed, noisy] = [count("missed"), count("noisy")];
  if (missed === 0 && noisy === 0) return "Every target with a number was met.";
  return [
    ...(missed > 0 ? [`${missed} target(s) missed; the sections below say by how much.`] : []),
    ...(noisy > 0
      ? [`${noisy} figure(s) too noisy to claim (rounds spread over 30 %); rerun on a quieter machine.`]
      : []),
  ].join(" ");
}

const INTRO = `Performance figures of the SDK, each measured next to a reference in the same run. Benchmarks
measure and report; they are not tests and never fail the build. Rerun them all with \`pnpm bench\`
(builds the packages first), or one with \`pnpm bench:run <name>\` (uses the packages as built).
A timing target counts as met when the median of three \`pnpm bench\` runs meets it; a noise note
is information, not a verdict. Counts that must hold exactly are tests, not rows here.`;

const LOAD_NOTE = `Servers run in their own processes, so a benchmark keeps up to two processes busy and pushes the
1-minute load average (given per section) towards 2 by itself; clearly more means other work shared
the machine and the figures are noisier. Ratios come from interleaved rounds, which cancels most drift.`;

/** Renders BENCHMARKS.md from stored results, in the given order. */
export function renderMarkdown(stored: readonly StoredResult[], latest: StoredResult | undefined): string {
  const machine = latest?.machine ?? stored[0]?.machine ?? machineInfo();
  const summary = stored.flatMap((entry) =>
    entry.result.rows
      .filter((row) => row.verdict !== "info" || row.headline === true)
      .map((row) => [prose(entry.result.name).title, ...cells(row)]),
  );
  const command =
    latest === undefined || latest.command === "tsx bench/run.ts"
      ? "- Command: `pnpm bench` (builds the packages, then runs `tsx bench/run.ts`)"
      : `- Command of the latest run: \`${latest.command}\` (the other sections keep the date of their own run)`;
  const lines = [
    "# Benchmarks",
    "",
    "<!-- Generated by `pnpm bench` (bench/run.ts) from bench/results.json; edit the benchmarks, not this file. -->",
    "",
    INTRO,
    "",
    `- Machine: ${describeMachine(machine)}`,
    `- Date: ${formatDate(latest?.date ?? stored[0]?.date ?? new Date().toISOString())}`,
    command,
    "",
    LOAD_NOTE,
    "",
    "## Summary",
    "",
    table(["Benchmark", ...HEADERS], summary),
    "",
    summaryLine(stored),
    "",
    ...stored.map((entry) => section(entry, machine)),
  ];
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The stored results (none when the file is missing or unreadable). */
export async function readStored(path: string): Promise<StoredResult[]> {
  if (!existsSync(path)) return [];
  const parsed: unknown = JSON.parse(await readFile(path, "utf8").catch(() => "[]"));
  return Array.isArray(parsed) ? (parsed as StoredResult[]) : [];
}

/** Writes the stored results, laid out by Biome as `biome check` expects (the file is committed). */
export async function writeStored(path: string, stored: readonly StoredResult[]): Promise<void> {
  await writeFile(path, `${JSON.stringify(stored, null, 2)}\n`);
  const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
  if (existsSync(biome))
    await runProcess({
      command: biome,
      args: ["format", "--write", path],
      cwd: ".",
      env: {},
      timeoutMs: 30_000,
    });
}
