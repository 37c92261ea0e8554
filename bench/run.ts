/**
 * Runs the benchmarks (all, or those named on the command line), prints each one's section and
 * rewrites BENCHMARKS.md from the stored results (bench/results.json). Never fails on a missed
 * target: benchmarks measure, they do not test.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseArgsProblem } from "@drill-practice/client/internal";
import { runProcess } from "@drill-practice/tooling/process";
import type { BenchmarkResult, ResultRow, Verdict } from "./harness.ts";

// In the order of BENCHMARKS.md; each file (`bench/<name>.ts`) is loaded only when it runs, so one
// benchmark does not import the others' dependencies.
const ORDER = [
  ...["client-overhead", "token-provider", "assertion-signing", "typecheck-cost", "bundle-size"],
  ...["sandbox-search", "redis-token-cache", "sandbox-engine", "sandbox-in-process", "sandbox-prism"],
  ...["docs-pages", "docs-try-it"],
];
/** A benchmark still running after this long is abandoned. */
const BENCHMARK_TIMEOUT_MS = 10 * 60_000;
const RESULTS_FILE = fileURLToPath(new URL("./results.json", import.meta.url));
const MARKDOWN_FILE = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));
const README = readFileSync(fileURLToPath(new URL("./README.md", import.meta.url)), "utf8");

const USAGE = `Usage: pnpm bench [options] [name…]        (builds the packages first)
       pnpm bench:run [options] [name…]    (uses the packages as built)

Runs the benchmarks (all, or those named), prints a table per benchmark and rewrites
BENCHMARKS.md and bench/results.json. Benchmarks measure; they never fail on a missed target.

Names: ${ORDER.join(", ")}

Options:
  --no-write   print the results only; BENCHMARKS.md and bench/results.json stay as they are
  --render     rewrite BENCHMARKS.md from bench/results.json, measure nothing
  -h, --help   print this help

Exit status: 0 done, 1 a benchmark could not run, 2 wrong usage (nothing run, nothing written).
`;

/** A stored result with where and when it was taken. */
interface StoredResult {
  readonly result: BenchmarkResult;
  readonly machine: ReturnType<typeof machineInfo>;
  readonly date: string;
  readonly command: string;
  /** 1-minute load average before and after (other work skews figures). */
  readonly load?: { readonly before: number; readonly after: number };
}

function machineInfo() {
  return {
    cpu: os.cpus()[0]?.model.trim() || "unknown",
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

const describeMachine = (m: StoredResult["machine"]): string =>
  `${m.cpu}, ${m.cores} cores, ${m.memory} RAM, Node ${m.node}, ${m.os}`;
const formatDate = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

// ---- BENCHMARKS.md, whose sections are also what the console shows of a run ---------------------

const HEADERS = ["Metric", "Ours", "Reference", "Ratio", "Target", "Verdict"] as const;
const VERDICTS: Record<Verdict, string> = {
  met: "✅ met",
  noisy: "⚠️ noisy, not claimed",
  missed: "❌ **MISSED**",
  info: "— (report only)",
};

const cells = (row: ResultRow): string[] => [
  ...[row.metric, row.ours, row.reference, row.ratio, row.target],
  `${VERDICTS[row.verdict]}${row.miss ? ` (${row.miss})` : ""}`,
];

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (items: readonly string[]) =>
    `| ${items.map((c) => c.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Section `## <name>: <title>` of bench/README.md: what a benchmark measures, or BENCHMARKS.md's opening. */
function prose(name: string): { title: string; text: string } {
  const [, title, text] = new RegExp(`^## ${name}: (.+)\\n([^]*?)(?=^## |(?![^]))`, "m").exec(README) ?? [];
  if (title === undefined || text === undefined)
    throw new Error(`bench/README.md has no section "## ${name}: …"`);
  return { title, text: text.trim() };
}

/** One benchmark's section; the machine is named only when it is not the run's. */
function section(stored: StoredResult, machineOfRun: StoredResult["machine"]): string {
  const { result, load } = stored;
  const { title, text } = prose(result.name);
  const machine = describeMachine(stored.machine);
  const where = machine !== describeMachine(machineOfRun) ? ` on ${machine}` : "";
  const loadText = load
    ? `; 1-minute load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after`
    : "";
  return [
    `## ${title}`,
    `Source: \`bench/${result.name}.ts\`; run it alone with \`pnpm bench:run ${result.name}\`.`,
    `Measured ${formatDate(stored.date)}${where}, in ${(result.durationMs / 1000).toFixed(1)} s${loadText}.`,
    text,
    ...(result.setup.length > 0 ? [result.setup.map((item) => `- ${item}`).join("\n")] : []),
    table(HEADERS, result.rows.map(cells)),
    ...result.details.map((d) => `${d.title}:\n\n${table(d.headers, d.rows)}`),
    ...result.notes,
  ].join("\n\n");
}

/** How many targets were missed or too noisy to claim, in one line. */
function summaryLine(stored: readonly StoredResult[]): string {
  const count = (verdict: Verdict) =>
    stored.flatMap((entry) => entry.result.rows).filter((row) => row.verdict === verdict).length;
  const [missed, noisy] = [count("missed"), count("noisy")];
  const said = [
    missed > 0 ? `${missed} target(s) missed; the sections below say by how much.` : "",
    noisy > 0
      ? `${noisy} figure(s) too noisy to claim (rounds spread over 30 %); rerun on a quieter machine.`
      : "",
  ];
  return said.join(" ").trim() || "Every target with a number was met.";
}

/** BENCHMARKS.md from the stored results; `latest` gives its machine, date and command. */
function renderMarkdown(stored: readonly StoredResult[], latest = stored[stored.length - 1]): string {
  const machine = latest?.machine ?? machineInfo();
  const summary = stored.flatMap((entry) =>
    entry.result.rows
      .filter((row) => row.verdict !== "info" || row.headline === true)
      .map((row) => [prose(entry.result.name).title, ...cells(row)]),
  );
  const command =
    latest === undefined || latest.command === "tsx bench/run.ts"
      ? "- Command: `pnpm bench` (builds the packages, then runs `tsx bench/run.ts`)"
      : `- Command of the latest run: \`${latest.command}\` (the other sections keep the date of their own run)`;
  const intro = prose("intro");
  const paragraphs = [
    `# ${intro.title}`,
    "<!-- Generated by `pnpm bench` (bench/run.ts) from bench/results.json; edit the benchmarks, not this file. -->",
    intro.text,
    `- Machine: ${describeMachine(machine)}\n- Date: ${formatDate(latest?.date ?? new Date().toISOString())}\n${command}`,
    prose("load-note").text,
    "## Summary",
    table(["Benchmark", ...HEADERS], summary),
    summaryLine(stored),
    ...stored.map((entry) => section(entry, machine)),
  ];
  return `${paragraphs.join("\n\n")}\n`;
}

// ---- stored results ------------------------------------------------------------------------------

/** The stored results (none when the file is missing or unreadable). */
async function readStored(): Promise<StoredResult[]> {
  const parsed: unknown = JSON.parse(await readFile(RESULTS_FILE, "utf8").catch(() => "[]"));
  return Array.isArray(parsed) ? (parsed as StoredResult[]) : [];
}

/** Stores fresh results over the old ones, in ORDER, laid out by Biome (the file is committed). */
async function write(fresh: readonly StoredResult[]): Promise<void> {
  const byName = new Map((await readStored()).map((entry) => [entry.result.name, entry]));
  for (const entry of fresh) byName.set(entry.result.name, entry);
  const stored = ORDER.flatMap((name) => byName.get(name) ?? []);
  await writeFile(RESULTS_FILE, `${JSON.stringify(stored, null, 2)}\n`);
  const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
  if (existsSync(biome)) {
    const args = ["format", "--write", RESULTS_FILE];
    await runProcess({ command: biome, args, cwd: ".", env: {}, timeoutMs: 30_000 });
  }
  await writeFile(MARKDOWN_FILE, renderMarkdown(stored, fresh[fresh.length - 1]));
  console.log(`(wrote ${MARKDOWN_FILE} and ${RESULTS_FILE})`);
}

// ---- the run -------------------------------------------------------------------------------------

async function runOne(name: string): Promise<BenchmarkResult> {
  const { run } = (await import(`./${name}.ts`)) as { run: () => Promise<BenchmarkResult> };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no result within 600 s; abandoned")), BENCHMARK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function measure(selected: readonly string[], command: string, save: boolean): Promise<number> {
  const machine = machineInfo();
  console.log(`Machine: ${describeMachine(machine)}\nRunning: ${selected.join(", ")}`);
  const fresh: StoredResult[] = [];
  const failed: string[] = [];
  for (const name of selected) {
    const before = loadavg();
    try {
      const result = await runOne(name);
      const load = { before, after: loadavg() };
      const entry = { result, machine, date: new Date().toISOString(), command, load };
      console.log(`\n${section(entry, machine)}\n`);
      fresh.push(entry);
      // Written after each one, so a run cut short keeps what it measured.
      if (save) await write(fresh);
    } catch (error) {
      failed.push(name);
      console.error(
        `\n!!! ${name} did not complete: ${error instanceof Error ? (error.stack ?? error.message) : error}`,
      );
    }
  }
  const failures = failed.length > 0 ? `, ${failed.length} did not complete (${failed.join(", ")})` : "";
  const unmet = fresh.flatMap(({ result }) =>
    result.rows.filter((row) => row.verdict === "missed" || row.verdict === "noisy").map(cells),
  );
  console.log(`\n${fresh.length} benchmark(s) done${failures}. ${summaryLine(fresh)}`);
  if (unmet.length > 0) console.log(table(HEADERS, unmet));
  // A benchmark that could not run is a broken benchmark, not a missed target.
  return failed.length > 0 ? 1 : 0;
}

const loadavg = () => os.loadavg()[0] ?? Number.NaN;

/** A command-line mistake: one line, the usage hint, exit 2, before anything runs or is written. */
function usageError(message: string): number {
  console.error(`bench: ${message}\nRun pnpm bench --help for usage.`);
  return 2;
}

function parse(args: string[]) {
  const options = {
    "no-write": { type: "boolean" },
    render: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as const;
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    return parseArgsProblem(error, "pnpm bench");
  }
}

async function main(): Promise<number> {
  // pnpm passes a "--" through when one is typed before the arguments.
  const parsed = parse(process.argv.slice(2).filter((arg) => arg !== "--"));
  if (typeof parsed === "string") return usageError(parsed);
  if (parsed.values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  const names = parsed.positionals;
  if (parsed.values.render === true) {
    if (names.length > 0) return usageError("--render measures nothing and takes no benchmark names");
    const stored = await readStored();
    await writeFile(MARKDOWN_FILE, renderMarkdown(stored));
    console.log(`Rewrote ${MARKDOWN_FILE} from ${stored.length} stored result(s).`);
    return 0;
  }
  const unknown = names.filter((name) => !ORDER.includes(name));
  if (unknown.length > 0)
    return usageError(
      `unknown benchmark ${unknown.map((name) => JSON.stringify(name)).join(", ")}; known: ${ORDER.join(", ")}`,
    );
  const selected = names.length > 0 ? ORDER.filter((name) => names.includes(name)) : ORDER;
  const command = `tsx bench/run.ts${names.length > 0 ? ` ${selected.join(" ")}` : ""}`;
  return measure(selected, command, parsed.values["no-write"] !== true);
}

const exitCode = await main();
process.exitCode = exitCode;
// An abandoned benchmark may still hold sockets or child processes; do not wait for them.
if (exitCode !== 0) process.exit(exitCode);
