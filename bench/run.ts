/**
 * Runs the benchmarks (all, or those named on the command line), prints a table per benchmark and
 * rewrites BENCHMARKS.md. Never fails on a missed target: benchmarks measure, they do not test.
 *
 *   tsx bench/run.ts                    # all
 *   tsx bench/run.ts client-overhead    # one (or several) by name
 *   tsx bench/run.ts --no-write …       # print only
 *   tsx bench/run.ts --render           # rewrite BENCHMARKS.md from bench/results.json, measure nothing
 */
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import {
  type BenchmarkResult,
  formatConsole,
  machineInfo,
  readStored,
  renderMarkdown,
  type StoredResult,
  writeStored,
} from "./report.ts";

type Benchmark = () => Promise<BenchmarkResult>;

// Loaded lazily so that running one benchmark does not import the others' dependencies.
const BENCHMARKS: Readonly<Record<string, () => Promise<Benchmark>>> = {
  "client-overhead": async () => (await import("./client-overhead.ts")).run,
  "token-provider": async () => (await import("./token-provider.ts")).run,
  "assertion-signing": async () => (await import("./assertion-signing.ts")).run,
  "typecheck-cost": async () => (await import("./typecheck-cost.ts")).run,
  "bundle-size": async () => (await import("./bundle-size.ts")).run,
  "sandbox-search": async () => (await import("./sandbox-search.ts")).run,
  "redis-token-cache": async () => (await import("./redis-token-cache.ts")).run,
  "sandbox-engine": async () => (await import("./sandbox-engine.ts")).run,
  "sandbox-in-process": async () => (await import("./sandbox-in-process.ts")).run,
  "sandbox-prism": async () => (await import("./sandbox-prism.ts")).run,
  "docs-pages": async () => (await import("./docs-pages.ts")).run,
};
const ORDER = Object.keys(BENCHMARKS);

/** A benchmark still running after this long is abandoned (each one takes well under two minutes). */
const BENCHMARK_TIMEOUT_MS = 5 * 60_000;

const RESULTS_FILE = fileURLToPath(new URL("./results.json", import.meta.url));
const MARKDOWN_FILE = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((arg) => arg !== "--");
  const write = !args.includes("--no-write");
  if (args.includes("--render")) {
    const stored = await readStored(RESULTS_FILE);
    await writeFile(MARKDOWN_FILE, renderMarkdown(stored, stored[stored.length - 1]));
    console.log(`Rewrote ${MARKDOWN_FILE} from ${stored.length} stored result(s).`);
    return 0;
  }
  const names = args.filter((arg) => !arg.startsWith("--"));
  const unknown = names.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark(s): ${unknown.join(", ")}. Known: ${ORDER.join(", ")}`);
    return 2;
  }
  const selected = names.length > 0 ? ORDER.filter((name) => names.includes(name)) : ORDER;
  const machine = machineInfo();
  const command = `tsx bench/run.ts${names.length > 0 ? ` ${selected.join(" ")}` : ""}`;
  console.log(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}\nRunning: ${selected.join(", ")}`,
  );

  const fresh: StoredResult[] = [];
  const failed: string[] = [];
  for (const name of selected) {
    const load = BENCHMARKS[name];
    if (load === undefined) continue;
    let timer: NodeJS.Timeout | undefined;
    const loadBefore = loadavg()[0] ?? Number.NaN;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no result within ${BENCHMARK_TIMEOUT_MS / 1000} s; abandoned`)),
          BENCHMARK_TIMEOUT_MS,
        );
      });
      const result = await Promise.race([(await load())(), deadline]);
      console.log(formatConsole(result));
      const loadAverage = { before: loadBefore, after: loadavg()[0] ?? Number.NaN };
      console.log(
        `(1-minute load average ${loadAverage.before.toFixed(2)} before, ${loadAverage.after.toFixed(2)} after)`,
      );
      fresh.push({ result, machine, date: new Date().toISOString(), command, load: loadAverage });
    } catch (error) {
      failed.push(name);
      console.error(
        `\n!!! ${name} did not complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  const missed = fresh.flatMap((entry) =>
    entry.result.rows
      .filter((row) => row.verdict === "missed")
      .map((row) => `${entry.result.name}: ${row.metric}`),
  );
  console.log(
    `\n${fresh.length} benchmark(s) done${failed.length > 0 ? `, ${failed.length} did not complete (${failed.join(", ")})` : ""}.`,
  );
  const noisy = fresh.flatMap((entry) =>
    entry.result.rows
      .filter((row) => row.verdict === "noisy")
      .map((row) => `${entry.result.name}: ${row.metric}`),
  );
  if (missed.length > 0) console.log(`MISSED targets:\n  ${missed.join("\n  ")}`);
  if (noisy.length > 0) {
    console.log(`NOISY (spread over 30 %, no result claimed):\n  ${noisy.join("\n  ")}`);
  }
  if (missed.length === 0 && noisy.length === 0 && fresh.length > 0) {
    console.log("All targets with a number were met.");
  }

  if (write && fresh.length > 0) {
    const previous = await readStored(RESULTS_FILE);
    const byName = new Map(previous.map((entry) => [entry.result.name, entry]));
    for (const entry of fresh) byName.set(entry.result.name, entry);
    const stored = ORDER.flatMap((name) => {
      const entry = byName.get(name);
      return entry === undefined ? [] : [entry];
    });
    const latest = fresh[fresh.length - 1];
    await writeStored(RESULTS_FILE, stored);
    await writeFile(MARKDOWN_FILE, renderMarkdown(stored, latest));
    console.log(`Wrote ${MARKDOWN_FILE} and ${RESULTS_FILE}.`);
  }
  // A benchmark that could not run is a broken benchmark, not a missed target.
  return failed.length > 0 ? 1 : 0;
}

const exitCode = await main();
process.exitCode = exitCode;
// An abandoned benchmark may still hold sockets or child processes; do not wait for them.
if (exitCode !== 0) process.exit(exitCode);
