/**
 * The benchmarks' one shared harness: figures and their formatting, result rows with targets,
 * interleaved rounds (tinybench for timing loops, a concurrent load loop for servers), child
 * processes that serve a benchmark, and the console and BENCHMARKS.md reports.
 */
import { execFile, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Bench } from "tinybench";

// ---- figures -------------------------------------------------------------------------------------

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export const now = (): number => performance.now();

/**
 * The q-quantile (0..1) with linear interpolation between the closest ranks.
 *
 * @example
 * ```ts
 * import { quantile } from "./harness.ts";
 *
 * quantile([1, 2, 3, 4], 0.5); // 2.5
 * ```
 */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const values = [...samples].sort((a, b) => a - b);
  const position = (values.length - 1) * q;
  const low = values[Math.floor(position)] as number;
  const high = values[Math.ceil(position)] as number;
  return low + (high - low) * (position - Math.floor(position));
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p99 = (samples: readonly number[]): number => quantile(samples, 0.99);

/** (max − min) / median: how far a series of rounds spread. */
export function spread(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : (Math.max(...samples) - Math.min(...samples)) / median(samples);
}

/** Above this spread of its rounds a figure claims no verdict against its target. */
export const NOISE_LIMIT = 0.3;

/** Round i of `ours` over round i of `reference`: interleaved rounds cancel most drift. */
export function pairedRatios(ours: readonly number[], reference: readonly number[]): number[] {
  return ours.slice(0, reference.length).map((value, i) => value / (reference[i] as number));
}

export const fmt = {
  ms(ms: number): string {
    if (!Number.isFinite(ms)) return "n/a";
    if (ms < 0) return `−${fmt.ms(-ms)}`;
    if (ms === 0) return "0 ms";
    if (ms < 0.001) return `${(ms * 1e6).toPrecision(3)} ns`;
    if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
    return ms < 1000 ? `${ms.toPrecision(3)} ms` : `${(ms / 1000).toPrecision(3)} s`;
  },
  signedMs: (ms: number): string => (ms >= 0 ? `+${fmt.ms(ms)}` : fmt.ms(ms)),
  ratio(ratio: number): string {
    if (!Number.isFinite(ratio)) return "n/a";
    if (ratio > 0 && ratio < 0.1) return `${ratio.toPrecision(2)}×`;
    return `${ratio.toFixed(ratio < 10 ? 2 : 1)}×`;
  },
  rate: (perSecond: number, unit = "req/s"): string =>
    Number.isFinite(perSecond) ? `${Math.round(perSecond).toLocaleString("en-US")} ${unit}`.trim() : "n/a",
  bytes: (bytes: number): string =>
    bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toPrecision(3)} kB (${bytes.toLocaleString("en-US")} B)`,
  percent: (fraction: number): string =>
    Number.isFinite(fraction) ? `${fraction > 0 ? "+" : ""}${(fraction * 100).toFixed(1)} %` : "n/a",
  count: (n: number): string => n.toLocaleString("en-US"),
  /** A median with the spread of its series, e.g. `0.97× (spread 12.0 %)`. */
  spread: (samples: readonly number[], format: (value: number) => string): string =>
    `${format(median(samples))} (spread ${(spread(samples) * 100).toFixed(1)} %)`,
};

// ---- rows ----------------------------------------------------------------------------------------

/** `noisy`: the row has a target but its rounds spread too widely to claim either outcome. */
export type Verdict = "met" | "missed" | "noisy" | "info";

export interface ResultRow {
  readonly metric: string;
  readonly ours: string;
  readonly reference: string;
  readonly ratio: string;
  readonly target: string;
  readonly verdict: Verdict;
  /** For a missed target: by how much; for a noisy row: the spread that made it so. */
  readonly miss?: string;
  /** Also list this report-only row in the summary at the top of BENCHMARKS.md. */
  readonly headline?: boolean;
}

/** A report-only row; absent cells are "—". */
export function info(
  metric: string,
  cells: { ours: string; reference?: string; ratio?: string },
  headline = false,
): ResultRow {
  const { ours, reference = "—", ratio = "—" } = cells;
  return { metric, ours, reference, ratio, target: "—", verdict: "info", ...(headline ? { headline } : {}) };
}

/** A row with a target: met, missed (saying by how much) or, when `noisy` says why, not claimed. */
export function judged(
  metric: string,
  cells: { ours: string; reference?: string; ratio?: string; target: string },
  outcome: { met: boolean; miss: string; noisy?: string | undefined },
): ResultRow {
  const base = { metric, reference: "—", ratio: "—", ...cells };
  if (outcome.noisy !== undefined) return { ...base, verdict: "noisy", miss: outcome.noisy };
  return outcome.met ? { ...base, verdict: "met" } : { ...base, verdict: "missed", miss: outcome.miss };
}

/** Why a set of series is too noisy to judge, or undefined when none spreads over the limit. */
export function noise(...series: readonly (readonly number[])[]): string | undefined {
  if (!series.some((samples) => samples.length > 1 && spread(samples) > NOISE_LIMIT)) return undefined;
  const spreads = series.map((samples) => `${(spread(samples) * 100).toFixed(1)} %`);
  return `spread ${spreads.join(" / ")} > ${NOISE_LIMIT * 100} %`;
}

/**
 * A row over per-round ratios of ours to the reference, against `≥ ratio` or `≤ ratio`, or
 * report-only without a target.
 */
export function ratioRow(
  metric: string,
  series: { ours: number[]; reference: number[]; format: (value: number) => string },
  target?: { ratio: number; atLeast: boolean },
  headline = false,
): ResultRow {
  const ratios = pairedRatios(series.ours, series.reference);
  const cells = {
    ours: fmt.spread(series.ours, series.format),
    reference: fmt.spread(series.reference, series.format),
    ratio: fmt.spread(ratios, fmt.ratio),
  };
  if (target === undefined) return info(metric, cells, headline);
  const ratio = median(ratios);
  return judged(
    metric,
    { ...cells, target: `ratio ${target.atLeast ? "≥" : "≤"} ${target.ratio}` },
    {
      met: target.atLeast ? ratio >= target.ratio : ratio <= target.ratio,
      miss: `${fmt.percent(ratio / target.ratio - 1)} ${target.atLeast ? "vs" : "over"} target`,
      noisy: noise(ratios, series.ours, series.reference),
    },
  );
}

// ---- timing loops --------------------------------------------------------------------------------

/** One task's figures over interleaved rounds. */
export interface TaskRounds {
  /** Median latency of each round, ms. */
  readonly medians: number[];
  /** Every latency sample of every round, ms. */
  readonly samples: number[];
  /** Process CPU (every thread) per call in each round, ms. */
  readonly cpu: number[];
}

/**
 * Runs the tasks in interleaved rounds on tinybench: each round gives every task `timeMs` (at least
 * `minCalls` calls) back to back, so machine noise hits all alike. The first round is warm-up.
 */
export async function tinyRounds<K extends string>(
  tasks: Readonly<Record<K, () => unknown>>,
  options: {
    rounds: number;
    timeMs: number;
    minCalls?: number;
    maxMs?: number;
    /** Tasks to leave out of a round (a slow reference needs fewer). */
    skip?: (key: K, round: number) => boolean;
  },
): Promise<Record<K, TaskRounds>> {
  const keys = Object.keys(tasks) as K[];
  const out = {} as Record<K, { medians: number[]; samples: number[]; cpu: number[] }>;
  for (const key of keys) out[key] = { medians: [], samples: [], cpu: [] };
  const started = now();
  for (let round = 0; round <= options.rounds && now() - started < (options.maxMs ?? 120_000); round++) {
    for (const key of keys) {
      if (options.skip?.(key, round) === true) continue;
      const bench = new Bench({
        time: options.timeMs,
        iterations: options.minCalls ?? 10,
        // Round 0 is the warm-up (thrown away); tinybench's own would call a slow task 16 times more.
        warmup: false,
        retainSamples: true,
      });
      bench.add(key, tasks[key]);
      const cpuBefore = process.cpuUsage();
      await bench.run();
      const cpu = process.cpuUsage(cpuBefore);
      const task = bench.tasks[0];
      const result = task?.result;
      if (result === undefined || !("latency" in result)) throw new Error(`${key}: ${task?.result.state}`);
      if (round === 0) continue;
      out[key].medians.push(result.latency.p50);
      for (const sample of result.latency.samples ?? []) out[key].samples.push(sample);
      out[key].cpu.push((cpu.user + cpu.system) / 1000 / (task?.runs ?? 1));
    }
  }
  return out;
}

export interface ConcurrentRun {
  readonly completed: number;
  readonly perSecond: number;
  /** Duration of each task in ms. */
  readonly latencies: number[];
  /** CPU time (user + system) of this process during the run, ms. */
  readonly cpuMs: number;
}

/** Runs `total` tasks with at most `concurrency` in flight; starts no new one after `maxMs`. */
export async function runConcurrent(
  options: { readonly total: number; readonly concurrency: number; readonly maxMs: number },
  task: (index: number) => Promise<unknown>,
): Promise<ConcurrentRun> {
  const latencies: number[] = [];
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = now();
  const lane = async () => {
    while (next < options.total && now() - started <= options.maxMs) {
      const index = next++;
      const t0 = now();
      await task(index);
      latencies.push(now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
  const cpu = process.cpuUsage(cpuBefore);
  return {
    completed: latencies.length,
    perSecond: (latencies.length / (now() - started)) * 1000,
    latencies,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/** One load target's figures over interleaved rounds. */
export interface LoadFigures {
  readonly rates: number[];
  readonly latencies: number[];
  /** Client-process CPU per request in each round, ms. */
  readonly cpuPerRequest: number[];
  /** Requests per second over the warm-up. */
  warmupRate: number;
}

/**
 * The servers' load loop: a warm-up per target, then rounds that each run every target's `total`
 * requests back to back (at most `concurrency` in flight), until `rounds` or `maxMs`.
 */
export async function loadRounds<K extends string>(
  targets: Readonly<Record<K, (index: number) => Promise<unknown>>>,
  options: {
    rounds: number;
    total: number;
    concurrency: number;
    roundMaxMs: number;
    maxMs: number;
    warmup: { total: number; maxMs: number };
  },
): Promise<{ rounds: number; figures: Record<K, LoadFigures> }> {
  const keys = Object.keys(targets) as K[];
  const figures = {} as Record<K, LoadFigures>;
  for (const key of keys) {
    const warm = await runConcurrent({ ...options.warmup, concurrency: options.concurrency }, targets[key]);
    figures[key] = { rates: [], latencies: [], cpuPerRequest: [], warmupRate: warm.perSecond };
  }
  const started = now();
  let rounds = 0;
  for (; rounds < options.rounds && now() - started < options.maxMs; rounds++) {
    for (const key of keys) {
      const run = await runConcurrent(
        { total: options.total, concurrency: options.concurrency, maxMs: options.roundMaxMs },
        targets[key],
      );
      figures[key].rates.push(run.perSecond);
      figures[key].latencies.push(...run.latencies);
      figures[key].cpuPerRequest.push(run.cpuMs / run.completed);
    }
  }
  return { rounds, figures };
}

// ---- child processes -----------------------------------------------------------------------------

export type ChildMessage = { readonly type: string; readonly id?: number } & Record<string, unknown>;

export interface ChildServer<Ready extends ChildMessage> {
  readonly ready: Ready;
  request<Answer extends ChildMessage>(message: { type: string } & Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Forks a server of a benchmark (a file in bench/), hands it `init` when it asks (receive-init.mjs)
 * and resolves with its `ready` message; `request` is a numbered IPC question and answer.
 */
export async function startChild<Ready extends ChildMessage>(
  file: string,
  init: Record<string, unknown>,
): Promise<ChildServer<Ready>> {
  // A plain-JavaScript child runs without tsx: its process holds only what it measures.
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    ...(file.endsWith(".mjs") ? { execArgv: [] } : {}),
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const waiting = new Map<number, (message: ChildMessage) => void>();
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${file}: not ready within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once("exit", (code) => reject(new Error(`${file}: exited with code ${code} before it was ready`)));
    child.on("message", (message: ChildMessage) => {
      if (message.type === "waiting") child.send({ ...init, type: "init" });
      else if (message.id !== undefined) waiting.get(message.id)?.(message);
      else {
        clearTimeout(timer);
        if (message.type === "ready") resolve(message as Ready);
        else reject(new Error(`${file}: failed to start: ${JSON.stringify(message)}`));
      }
    });
  });
  let nextId = 1;
  return {
    ready,
    request: <Answer extends ChildMessage>(message: { type: string } & Record<string, unknown>) =>
      new Promise<Answer>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(
          () => reject(new Error(`${file}: no answer to ${message.type}`)),
          REQUEST_TIMEOUT_MS,
        );
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(answer as Answer);
        });
        child.send({ ...message, id });
      }),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: "close" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---- results and reports -------------------------------------------------------------------------

export interface DetailTable {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** What one benchmark hands back to the runner. */
export interface BenchmarkResult {
  /** Short name: the CLI argument and the file's name, e.g. `client-overhead`. */
  readonly name: string;
  readonly title: string;
  /** What is measured and against what (Markdown). */
  readonly measured: string;
  /** Parameters of the run (Markdown bullets, without the dash). */
  readonly setup: readonly string[];
  readonly rows: readonly ResultRow[];
  readonly details: readonly DetailTable[];
  /** Interpretation; for a missed target, the plausible why (Markdown paragraphs). */
  readonly notes: readonly string[];
  readonly durationMs: number;
}

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
  /** 1-minute load average before and after (other work skews figures). */
  readonly load?: { readonly before: number; readonly after: number };
}

export function machineInfo(): MachineInfo {
  const model = os.cpus()[0]?.model.trim() || "unknown";
  return {
    cpu: model,
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

const describeMachine = (m: MachineInfo): string =>
  `${m.cpu}, ${m.cores} cores, ${m.memory} RAM, Node ${m.node}, ${m.os}`;
const formatDate = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const MAIN_HEADERS = ["Metric", "Ours", "Reference", "Ratio", "Target", "Verdict"] as const;

function verdictText(row: ResultRow, markdown: boolean): string {
  const why = row.miss ? ` (${row.miss})` : "";
  if (row.verdict === "met") return markdown ? "✅ met" : "met";
  if (row.verdict === "noisy") return `${markdown ? "⚠️ noisy" : "NOISY"}, not claimed${why}`;
  if (row.verdict === "missed") return `${markdown ? "❌ **MISSED**" : "MISSED"}${why}`;
  return markdown ? "— (report only)" : "report only";
}

const mainCells = (row: ResultRow, markdown: boolean): string[] => [
  row.metric,
  row.ours,
  row.reference,
  row.ratio,
  row.target,
  verdictText(row, markdown),
];

function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, c) => Math.max([...h].length, ...rows.map((r) => [...(r[c] ?? "")].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => cell + " ".repeat(Math.max(0, (widths[c] ?? 0) - [...cell].length)))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c) => c.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The benchmark's result as console text. */
export function formatConsole(result: BenchmarkResult): string {
  const parts = [
    `\n=== ${result.title} (${result.name}, ${(result.durationMs / 1000).toFixed(1)} s) ===`,
    textTable(
      MAIN_HEADERS,
      result.rows.map((row) => mainCells(row, false)),
    ),
    ...result.details.map((d) => `\n${d.title}\n${textTable(d.headers, d.rows)}`),
    ...result.notes.map((note) => `\n${note.replaceAll("**", "")}`),
  ];
  for (const row of result.rows.filter((r) => r.verdict === "missed" || r.verdict === "noisy"))
    parts.push(
      `!!! ${row.verdict.toUpperCase()}: ${row.metric}: ${row.ours} (target ${row.target}) ${row.miss ?? ""}`,
    );
  return parts.join("\n");
}

function section(stored: StoredResult, machineOfRun: MachineInfo): string {
  const { result, load } = stored;
  const elsewhere = describeMachine(stored.machine) === describeMachine(machineOfRun);
  const loadText =
    load === undefined
      ? "."
      : `; 1-minute load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after.`;
  return [
    `## ${result.title}`,
    "",
    `Source: \`bench/${result.name}.ts\`; run it alone with \`pnpm bench:run ${result.name}\`.`,
    "",
    `Measured ${formatDate(stored.date)}${elsewhere ? "" : ` on ${describeMachine(stored.machine)}`}, in ${(result.durationMs / 1000).toFixed(1)} s${loadText}`,
    "",
    result.measured,
    "",
    ...(result.setup.length > 0 ? [...result.setup.map((item) => `- ${item}`), ""] : []),
    markdownTable(
      MAIN_HEADERS,
      result.rows.map((row) => mainCells(row, true)),
    ),
    "",
    ...result.details.flatMap((d) => [`${d.title}:`, "", markdownTable(d.headers, d.rows), ""]),
    ...result.notes.flatMap((note) => [note, ""]),
  ].join("\n");
}

function summaryLine(stored: readonly StoredResult[]): string {
  const count = (verdict: Verdict) =>
    stored.reduce((n, entry) => n + entry.result.rows.filter((row) => row.verdict === verdict).length, 0);
  const missed = count("missed");
  const noisy = count("noisy");
  if (missed === 0 && noisy === 0) return "Every target with a number was met.";
  return [
    missed > 0
      ? `${missed} target${missed === 1 ? " was" : "s were"} missed; the sections below say by how much.`
      : "",
    noisy > 0
      ? `${noisy} figure${noisy === 1 ? " was" : "s were"} too noisy to claim (rounds spread over 30 %); rerun on a quieter machine.`
      : "",
  ]
    .filter((line) => line !== "")
    .join(" ");
}

/** Renders BENCHMARKS.md from stored results, in the given order. */
export function renderMarkdown(stored: readonly StoredResult[], latest: StoredResult | undefined): string {
  const machine = latest?.machine ?? stored[0]?.machine ?? machineInfo();
  const summary = stored.flatMap((entry) =>
    entry.result.rows
      .filter((row) => row.verdict !== "info" || row.headline === true)
      .map((row) => [entry.result.title, ...mainCells(row, true)]),
  );
  const lines = [
    "# Benchmarks",
    "",
    "<!-- Generated by `pnpm bench` (bench/run.ts) from bench/results.json; edit the benchmarks, not this file. -->",
    "",
    "Performance figures of the SDK, each measured next to a reference in the same run. Benchmarks",
    "measure and report; they are not tests and never fail the build. Rerun them all with `pnpm bench`",
    "(builds the packages first), or one with `pnpm bench:run <name>` (uses the packages as built).",
    "A timing target counts as met when the median of three `pnpm bench` runs meets it; a noise note",
    "is information, not a verdict. Counts that must hold exactly are tests, not rows here.",
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
    markdownTable(["Benchmark", ...MAIN_HEADERS], summary),
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
  try {
    const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
    return Array.isArray(parsed) ? (parsed as StoredResult[]) : [];
  } catch {
    return [];
  }
}

/** Writes the stored results, laid out by Biome as `biome check` expects (the file is committed). */
export async function writeStored(path: string, stored: readonly StoredResult[]): Promise<void> {
  await writeFile(path, `${JSON.stringify(stored, null, 2)}\n`);
  const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
  if (!existsSync(biome)) return;
  await new Promise<void>((resolve) => {
    execFile(biome, ["format", "--write", path], { timeout: 30_000 }, () => resolve());
  });
}

/** The wrapper every benchmark's `run` uses: times it and fills in the name. */
export async function timed(
  name: string,
  body: () => Promise<Omit<BenchmarkResult, "name" | "durationMs">>,
): Promise<BenchmarkResult> {
  const started = now();
  const result = await body();
  return { name, ...result, durationMs: now() - started };
}
