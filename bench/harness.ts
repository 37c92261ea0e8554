/**
 * The benchmarks' one shared harness: figures and their formatting, result rows with targets,
 * interleaved rounds on tinybench (timing loops one call at a time, server load with calls in
 * flight), and servers that run in a child process.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { startProcess } from "@drill-practice/tooling/process";
import { Bench, now } from "tinybench";

// ---- figures -------------------------------------------------------------------------------------

/** tinybench's clock (`performance.now()`, ms): timings outside its tasks read the same one. */
export { now };

/** The q-quantile (0..1) of samples from several tinybench tasks, interpolated between closest ranks. */
function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const values = [...samples].sort((a, b) => a - b);
  const position = (values.length - 1) * q;
  const low = values[Math.floor(position)] as number;
  return low + ((values[Math.ceil(position)] as number) - low) * (position - Math.floor(position));
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p99 = (samples: readonly number[]): number => quantile(samples, 0.99);

/** (max − min) / median: how far a series of rounds spread. */
export const spread = (samples: readonly number[]): number =>
  samples.length === 0 ? Number.NaN : (Math.max(...samples) - Math.min(...samples)) / median(samples);

/** Above this spread of its rounds a figure claims no verdict against its target. */
const NOISE_LIMIT = 0.3;

/** Round i of `ours` over round i of `reference`: interleaved rounds cancel most drift. */
export const pairedRatios = (ours: readonly number[], reference: readonly number[]): number[] =>
  ours.slice(0, reference.length).map((value, i) => value / (reference[i] as number));

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
    return ratio > 0 && ratio < 0.1 ? `${ratio.toPrecision(2)}×` : `${ratio.toFixed(ratio < 10 ? 2 : 1)}×`;
  },
  rate: (perSecond: number): string =>
    Number.isFinite(perSecond) ? `${Math.round(perSecond).toLocaleString("en-US")} req/s` : "n/a",
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

/** A row's figures: ours, and where it has them the reference's and the ratio. */
type Cells = Pick<ResultRow, "ours"> & Partial<Pick<ResultRow, "reference" | "ratio">>;

/** A report-only row; absent cells are "—". */
export function info(metric: string, cells: Cells, headline = false): ResultRow {
  const { ours, reference = "—", ratio = "—" } = cells;
  return { metric, ours, reference, ratio, target: "—", verdict: "info", ...(headline ? { headline } : {}) };
}

/** A ratio of two figures as the three cells of a row; `what` names the reference in its cell. */
export const compared = (ours: number, reference: number, format: (n: number) => string, what?: string) => ({
  ours: format(ours),
  reference: what === undefined ? format(reference) : `${format(reference)} (${what})`,
  ratio: fmt.ratio(ours / reference),
});

/** A report-only row of two figures and their ratio. */
export const infoCompared = (
  metric: string,
  [ours, reference]: readonly [number, number],
  format: (value: number) => string,
  headline = false,
): ResultRow => info(metric, compared(ours, reference, format), headline);

/** A report-only row of two loads' throughput (median of rounds) or latency (median or p99 of all samples). */
export function loadCompared(
  metric: string,
  [ours, reference]: readonly [Figures, Figures],
  figure: "throughput" | "median" | "p99",
  headline = false,
): ResultRow {
  if (figure === "throughput")
    return infoCompared(metric, [median(ours.rates), median(reference.rates)], fmt.rate, headline);
  const at = figure === "p99" ? p99 : median;
  return infoCompared(metric, [at(ours.samples), at(reference.samples)], fmt.ms, headline);
}

/** A row with a target: met, missed (`miss` says by how much) or, when `noisy` says why, not claimed. */
function judged(metric: string, cells: Cells, target: string, met: boolean, miss: string, noisy?: string) {
  const verdict = noisy !== undefined ? "noisy" : met ? "met" : "missed";
  const row = { metric, reference: "—", ratio: "—", ...cells, target, verdict } as const;
  return verdict === "met" ? row : { ...row, miss: noisy ?? miss };
}

/**
 * A row against `≤ limit`: with a unit, the limit as a count (`≤ 300 MB`) and a miss in percent;
 * with a format, both in that format (`≤ 100 ms`, `+12.0 ms`), and by default the figure as `ours`.
 */
export function atMost(
  metric: string,
  value: number,
  limit: number,
  unit: string | ((n: number) => string),
  cells: Cells = { ours: typeof unit === "string" ? fmt.count(value) : unit(value) },
): ResultRow {
  if (typeof unit !== "string")
    return judged(metric, cells, `≤ ${unit(limit)}`, value <= limit, `+${unit(value - limit)}`);
  const miss = `${fmt.percent(value / limit - 1)} over`;
  return judged(metric, cells, `≤ ${fmt.count(limit)}${unit}`, value <= limit, miss);
}

/** A row holding a ratio to `≤ limit×` (or `≥` with `atLeast`); `against` names the reference in the target. */
export function ratioJudged(
  metric: string,
  cells: Cells,
  ratio: number,
  limit: { at: number; atLeast?: boolean; against?: string; noisy?: string | undefined },
): ResultRow {
  const { at, atLeast = false, against = "", noisy } = limit;
  const miss = atLeast ? `${fmt.ratio(ratio)} instead of ${at}×` : `+${fmt.ratio(ratio - at)}`;
  const target = `${atLeast ? "≥" : "≤"} ${at}×${against}`;
  return judged(metric, cells, target, atLeast ? ratio >= at : ratio <= at, miss, noisy);
}

/** A row holding our throughput to `≥ at×` the reference's, judged on the median of per-round ratios. */
export function throughputJudged(metric: string, [ours, reference]: readonly [Figures, Figures], at: number) {
  const ratios = pairedRatios(ours.rates, reference.rates);
  const cells = compared(median(ours.rates), median(reference.rates), fmt.rate);
  cells.ratio = fmt.spread(ratios, fmt.ratio);
  return ratioJudged(metric, cells, median(ratios), { at, atLeast: true });
}

/** Why a set of series is too noisy to judge, or undefined when none spreads over the limit. */
export function noise(...series: readonly (readonly number[])[]): string | undefined {
  if (!series.some((samples) => samples.length > 1 && spread(samples) > NOISE_LIMIT)) return undefined;
  return `spread ${series.map((s) => `${(spread(s) * 100).toFixed(1)} %`).join(" / ")} > ${NOISE_LIMIT * 100} %`;
}

/** A row over per-round ratios of ours to the reference, against `≥`/`≤ ratio`, or report-only. */
export function ratioRow(
  metric: string,
  { ours, reference, format }: { ours: number[]; reference: number[]; format: (value: number) => string },
  target?: { ratio: number; atLeast: boolean },
  headline = false,
): ResultRow {
  const ratios = pairedRatios(ours, reference);
  const cells = { ours: fmt.spread(ours, format), reference: fmt.spread(reference, format) };
  const all = { ...cells, ratio: fmt.spread(ratios, fmt.ratio) };
  if (target === undefined) return info(metric, all, headline);
  const { ratio: at, atLeast } = target;
  const [ratio, noisy] = [median(ratios), noise(ratios, ours, reference)];
  const met = atLeast ? ratio >= at : ratio <= at;
  return judged(metric, all, `ratio ${atLeast ? "≥" : "≤"} ${at}`, met, `${fmt.ratio(ratio)} instead`, noisy);
}

// ---- rounds --------------------------------------------------------------------------------------

/** One task's figures over the counted rounds (the warm-up round left out). */
export interface Figures {
  /** Median latency of each round, ms. */
  readonly medians: number[];
  /** Every latency sample of every round, ms. */
  readonly samples: number[];
  /** Process CPU (every thread) per call in each round, ms. */
  readonly cpu: number[];
  /** Calls per second of wall time in each round. */
  readonly rates: number[];
}

export interface RoundOptions {
  readonly rounds: number;
  /** Time per task and round; with `concurrency`, the most a round may take. */
  readonly timeMs: number;
  /** Calls per task and round: the least, or with `concurrency` the most. */
  readonly calls: number;
  /** Calls in flight at once (tinybench's task concurrency): a load on a server. */
  readonly concurrency?: number;
  /** Started no new round after this long. */
  readonly maxMs?: number;
  /** Round 0, thrown away, with other limits than the counted rounds. */
  readonly warmup?: { readonly calls: number; readonly timeMs: number };
  /** Tasks to leave out of a round (a slow reference needs fewer). */
  readonly skip?: (key: string, round: number) => boolean;
}

/** The load every server benchmark puts on its servers: interleaved rounds, 16 requests in flight. */
export const SERVER_LOAD: Required<Omit<RoundOptions, "skip">> = {
  rounds: 6,
  calls: 1000,
  concurrency: 16,
  timeMs: 4000,
  maxMs: 120_000,
  warmup: { calls: 3000, timeMs: 10_000 },
};

/** The setup line of a server load, e.g. `6 interleaved rounds of 1000 requests per target (…)`. */
export function loadSetup(done: number | string, load: typeof SERVER_LOAD, unit: string, per: string) {
  return `${done} interleaved rounds of ${load.calls} ${unit} per ${per} (tinybench, ${load.concurrency} in flight), after ${load.warmup.calls} warm-up ${unit} each`;
}

/** One tinybench run of one task: its result, wall time and the process's CPU time. */
async function once(task: () => unknown, options: RoundOptions, warmup: boolean) {
  const limits = warmup && options.warmup ? options.warmup : options;
  const bench = new Bench({
    ...{ time: limits.timeMs, iterations: limits.calls, retainSamples: true },
    // The rounds' own round 0 is the warm-up: tinybench's would call a slow task 16 times more.
    warmup: false,
    ...(options.concurrency ? { concurrency: "task" as const, threshold: options.concurrency } : {}),
  });
  bench.add("task", task);
  const [cpuBefore, started] = [process.cpuUsage(), now()];
  await bench.run();
  const [cpu, wallMs] = [process.cpuUsage(cpuBefore), now() - started];
  const result = bench.tasks[0]?.result;
  if (result === undefined || !("latency" in result)) throw new Error(`task ${result?.state ?? "missing"}`);
  const runs = result.latency.samples?.length ?? 0;
  return { result, runs, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * Runs the tasks in interleaved rounds: each round runs every task back to back, so machine noise
 * hits all alike, starting one task later than the round before. Round 0 is warm-up.
 */
export async function rounds<K extends string>(
  tasks: Readonly<Record<K, () => unknown>>,
  options: RoundOptions,
): Promise<Record<K, Figures> & { rounds: number }> {
  const keys = Object.keys(tasks) as K[];
  const out = {} as Record<K, Figures>;
  for (const key of keys) out[key] = { medians: [], samples: [], cpu: [], rates: [] };
  const started = now();
  let round = 0;
  for (; round <= options.rounds && now() - started < (options.maxMs ?? 120_000); round++) {
    // No task always runs first: the first of a round meets the previous round's garbage and timers.
    for (const key of keys.map((_, i) => keys[(i + round) % keys.length] as K)) {
      if (options.skip?.(key, round) === true) continue;
      const { result, runs, wallMs, cpuMs } = await once(tasks[key], options, round === 0).catch((error) => {
        throw new Error(`${key}: ${(error as Error).message}`);
      });
      if (round === 0) continue;
      out[key].medians.push(result.latency.p50);
      for (const sample of result.latency.samples ?? []) out[key].samples.push(sample);
      out[key].cpu.push(cpuMs / runs);
      out[key].rates.push((runs / wallMs) * 1000);
    }
  }
  return Object.assign(out, { rounds: round - 1 });
}

/** Calls `tasks` in turn, one per call of the returned function: a load that cycles through a mix. */
export function cycle<T>(tasks: readonly (() => Promise<T>)[]): () => Promise<T> {
  let next = 0;
  return () => (tasks[next++ % tasks.length] as () => Promise<T>)();
}

// ---- servers in child processes ------------------------------------------------------------------

export interface ChildServer<Ready> {
  /** What the child printed on its `ready <json>` line. */
  readonly ready: Ready;
  /** Its resident memory now, as its own `process.memoryUsage().rss` would say (Linux `/proc`). */
  rssMb(): Promise<number>;
  /** Ends it (SIGTERM) and waits until it has exited. */
  close(): Promise<void>;
}

/**
 * Starts a file of bench/ in its own process (the tooling's startProcess) with `init` in its
 * environment (DRILL_BENCH_INIT); ready once it prints `ready <json>`. A plain-JavaScript child runs
 * without tsx, so its process holds only what it measures.
 */
export async function startChild<Ready>(
  file: string,
  init: object,
  options: { execPath?: string; startMs?: number } = {},
): Promise<ChildServer<Ready>> {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const { child, ready, exited } = await startProcess({
    command: options.execPath ?? process.execPath,
    args: [...(file.endsWith(".mjs") ? [] : process.execArgv), path],
    ...{ cwd: process.cwd(), env: { ...process.env, DRILL_BENCH_INIT: JSON.stringify(init) } },
    ...{ readyWhen: /^ready (.*)\n/m, startMs: options.startMs ?? 120_000, name: file },
  });
  return {
    ready: JSON.parse(ready[1] as string) as Ready,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    async close() {
      child.kill("SIGTERM");
      await exited();
    },
  };
}

/** The child's side: says it is ready with `message`, and ends when its parent goes. */
export function childReady(message: object): void {
  process.stdout.write(`ready ${JSON.stringify(message)}\n`);
  process.stdin.on("end", () => process.exit()).resume();
}

// ---- results -------------------------------------------------------------------------------------

export interface DetailTable {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** What one benchmark hands back to the runner; what it measures is said in bench/README.md. */
export interface BenchmarkResult {
  /** Short name: the CLI argument and the file's name, e.g. `client-overhead`. */
  readonly name: string;
  /** Parameters of the run (Markdown bullets, without the dash). */
  readonly setup: readonly string[];
  readonly rows: readonly ResultRow[];
  readonly details: readonly DetailTable[];
  /** What the figures of this run show; for a missed target, the plausible why (Markdown). */
  readonly notes: readonly string[];
  readonly durationMs: number;
}

/** The wrapper every benchmark's `run` uses: times it and fills in the name and empty parts. */
export async function timed(
  name: string,
  body: () => Promise<Pick<BenchmarkResult, "rows"> & Partial<BenchmarkResult>>,
): Promise<BenchmarkResult> {
  const started = now();
  const result = await body();
  return { setup: [], details: [], notes: [], ...result, name, durationMs: now() - started };
}
