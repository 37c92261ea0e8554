/**
 * Small statistics and formatting helpers shared by the benchmarks.
 */
import { performance } from "node:perf_hooks";

/** Sorted copy of the samples (ascending). */
function sorted(samples: readonly number[]): number[] {
  return [...samples].sort((a, b) => a - b);
}

/**
 * The q-quantile (0..1) with linear interpolation between the closest ranks.
 *
 * @example
 * ```ts
 * import { quantile } from "./stats.ts";
 *
 * quantile([1, 2, 3, 4], 0.5); // 2.5
 * ```
 */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const values = sorted(samples);
  const position = (values.length - 1) * Math.min(1, Math.max(0, q));
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = values[lower] as number;
  const high = values[upper] as number;
  return low + (high - low) * (position - lower);
}

/**
 * Median of the samples.
 *
 * @example
 * ```ts
 * import { median } from "./stats.ts";
 *
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/**
 * 99th percentile of the samples.
 *
 * @example
 * ```ts
 * import { p99 } from "./stats.ts";
 *
 * const latencies = [11, 12, 15, 80];
 * p99(latencies); // 78.05: near the slowest
 * ```
 */
export function p99(samples: readonly number[]): number {
  return quantile(samples, 0.99);
}

/**
 * Relative spread of the samples: (max - min) / median, to show how stable a series was.
 *
 * @example
 * ```ts
 * import { spread } from "./stats.ts";
 *
 * spread([98, 100, 103]); // 0.05
 * ```
 */
export function spread(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  return (Math.max(...samples) - Math.min(...samples)) / median(samples);
}

/**
 * Above this spread ((max - min) / median of the rounds) a run is too noisy to claim a result
 * against a target either way; the row says so instead.
 */
export const NOISE_LIMIT = 0.3;

/**
 * Whether any of the series spread more than {@link NOISE_LIMIT}.
 *
 * @example
 * ```ts
 * import { isNoisy } from "./stats.ts";
 *
 * isNoisy([100, 101, 99], [50, 90]); // true: the second series spreads 57 %
 * ```
 */
export function isNoisy(...series: readonly (readonly number[])[]): boolean {
  return series.some((samples) => samples.length > 1 && spread(samples) > NOISE_LIMIT);
}

/**
 * Why a row is noisy: the spread of each series {@link isNoisy} was given, in the same order.
 *
 * @example
 * ```ts
 * import { noiseNote } from "./stats.ts";
 *
 * noiseNote([1, 1.5], [100, 101]); // "spread 40.0 % / 1.0 % > 30 %"
 * ```
 */
export function noiseNote(...series: readonly (readonly number[])[]): string {
  return `spread ${series.map((samples) => formatPercent(spread(samples)).replace("+", "")).join(" / ")} > ${NOISE_LIMIT * 100} %`;
}

/**
 * Element-wise ratios of two series measured in interleaved rounds (round i of `ours` against
 * round i of `reference`), which cancels most of the drift a shared machine adds between rounds.
 *
 * @example
 * ```ts
 * import { pairedRatios } from "./stats.ts";
 *
 * pairedRatios([90, 100], [100, 100]); // [0.9, 1]
 * ```
 */
export function pairedRatios(ours: readonly number[], reference: readonly number[]): number[] {
  const length = Math.min(ours.length, reference.length);
  return Array.from({ length }, (_, index) => (ours[index] as number) / (reference[index] as number));
}

/**
 * A median with the spread of its samples, e.g. `0.97× (spread 12.0 %)`.
 *
 * @example
 * ```ts
 * import { formatRatio, withSpread } from "./stats.ts";
 *
 * withSpread([0.9, 1, 1.1], formatRatio); // "1.00× (spread 20.0 %)"
 * ```
 */
export function withSpread(samples: readonly number[], format: (value: number) => string): string {
  return `${format(median(samples))} (spread ${(spread(samples) * 100).toFixed(1)} %)`;
}

/**
 * A ratio with two decimals (two significant digits below 0.1), e.g. `0.97×`.
 *
 * @example
 * ```ts
 * import { formatRatio } from "./stats.ts";
 *
 * formatRatio(1.234); // "1.23×"
 * ```
 */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return "n/a";
  if (ratio > 0 && ratio < 0.1) return `${ratio.toPrecision(2)}×`;
  return `${ratio.toFixed(ratio < 10 ? 2 : 1)}×`;
}

/**
 * A duration in milliseconds, shown in the unit that keeps three significant digits.
 *
 * @example
 * ```ts
 * import { formatMs } from "./stats.ts";
 *
 * formatMs(0.0123); // "12.3 µs"
 * ```
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms < 0) return `−${formatMs(-ms)}`;
  if (ms === 0) return "0 ms";
  if (ms < 0.001) return `${(ms * 1e6).toPrecision(3)} ns`;
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

/**
 * A duration difference with its sign, e.g. `+12.0 µs` or `−3.00 ms`.
 *
 * @example
 * ```ts
 * import { formatSignedMs } from "./stats.ts";
 *
 * formatSignedMs(-0.5); // "−500 µs"
 * ```
 */
export function formatSignedMs(ms: number): string {
  return ms >= 0 ? `+${formatMs(ms)}` : formatMs(ms);
}

/**
 * A rate with thousands separators, e.g. `12,345 req/s`.
 *
 * @example
 * ```ts
 * import { formatRate } from "./stats.ts";
 *
 * formatRate(12345.6, "req/s"); // "12,346 req/s"
 * ```
 */
export function formatRate(perSecond: number, unit: string): string {
  if (!Number.isFinite(perSecond)) return "n/a";
  return `${Math.round(perSecond).toLocaleString("en-US")} ${unit}`;
}

/**
 * A byte count, exact below 1 kB and in kB (1000 bytes) above.
 *
 * @example
 * ```ts
 * import { formatBytes } from "./stats.ts";
 *
 * formatBytes(8_123); // "8.12 kB (8,123 B)"
 * ```
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "n/a";
  if (bytes < 1000) return `${bytes} B`;
  return `${(bytes / 1000).toPrecision(3)} kB (${bytes.toLocaleString("en-US")} B)`;
}

/**
 * A fraction as a signed percentage, e.g. `+12.5 %`.
 *
 * @example
 * ```ts
 * import { formatPercent } from "./stats.ts";
 *
 * formatPercent(-0.031); // "-3.1 %"
 * ```
 */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return "n/a";
  const sign = fraction > 0 ? "+" : "";
  return `${sign}${(fraction * 100).toFixed(1)} %`;
}

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

/** Limits of a measuring loop: it stops at whichever comes first. */
export interface LoopBounds {
  /** Most iterations. */
  readonly maxCount: number;
  /** Most wall time in milliseconds. */
  readonly maxMs: number;
  /** Fewest iterations, even if the time is up (still bounded by maxCount). */
  readonly minCount?: number;
}

/**
 * Runs `body` repeatedly, within both bounds, and returns each iteration's duration in ms.
 *
 * @example
 * ```ts
 * import { median, timeEach } from "./stats.ts";
 *
 * const samples = await timeEach({ maxCount: 1000, maxMs: 2000 }, async () => JSON.parse('{"a":1}'));
 * console.log(`${samples.length} runs, median ${median(samples)} ms`);
 * ```
 */
export async function timeEach(
  bounds: LoopBounds,
  body: (index: number) => Promise<unknown>,
): Promise<number[]> {
  const samples: number[] = [];
  const started = now();
  const minCount = Math.min(bounds.minCount ?? 1, bounds.maxCount);
  for (let i = 0; i < bounds.maxCount; i++) {
    if (i >= minCount && now() - started > bounds.maxMs) break;
    const t0 = now();
    await body(i);
    samples.push(now() - t0);
  }
  return samples;
}

/** Outcome of {@link runConcurrent}. */
export interface ConcurrentRun {
  /** Requests completed. */
  readonly completed: number;
  /** Wall time of the whole run in ms. */
  readonly elapsedMs: number;
  /** Completed per second. */
  readonly perSecond: number;
  /** Duration of each task in ms. */
  readonly latencies: number[];
  /** CPU time (user + system) this process spent during the run, in ms. */
  readonly cpuMs: number;
}

/**
 * Runs `total` tasks with at most `concurrency` in flight; stops starting new ones after `maxMs`.
 *
 * @example
 * ```ts
 * import { runConcurrent } from "./stats.ts";
 *
 * const url = "http://127.0.0.1:4010/.well-known/oauth-authorization-server";
 * const run = await runConcurrent({ total: 2000, concurrency: 16, maxMs: 10_000 }, () => fetch(url));
 * console.log(`${run.perSecond.toFixed(0)} requests per second`);
 * ```
 */
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
  const elapsedMs = now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    completed: latencies.length,
    elapsedMs,
    perSecond: (latencies.length / elapsedMs) * 1000,
    latencies,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}
