/**
 * Runs the benchmarks (all, or those named on the command line), prints each one's section and
 * rewrites BENCHMARKS.md. Never fails on a missed target: benchmarks measure, they do not test.
 */
import { writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseArgsProblem } from "@drill-practice/client/internal";
import type { BenchmarkResult } from "./harness.ts";
import {
  machineInfo,
  readStored,
  renderMarkdown,
  type StoredResult,
  section,
  writeStored,
} from "./report.ts";

// In the order of BENCHMARKS.md; each file (`bench/<name>.ts`) is loaded only when it runs, so one
// benchmark does not import the others' dependencies.
const ORDER = [
  ...["client-overhead", "token-provider", "assertion-signing", "typecheck-cost", "bundle-size"],
  ...["sandbox-search", "redis-token-cache", "sandbox-engine", "sandbox-in-process", "sandbox-prism"],
  ...["docs-pages", "docs-try-it", "drift-coverage"],
];

/** A benchmark still running after this long is abandoned. */
const BENCHMARK_TIMEOUT_MS = 10 * 60_000;
const RESULTS_FILE = fileURLToPath(new URL("./results.json", import.meta.url));
const MARKDOWN_FILE = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));

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

/** A command-line mistake: one line, the usage hint, exit 2, before anything runs or is written. */
function usageError(message: string): number {
  console.error(`bench: ${message}\nRun pnpm bench --help for usage.`);
  return 2;
}

function parse(argv: string[]) {
  const options = {
    "no-write": { type: "boolean" },
    render: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as const;
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    return parseArgsProblem(error, "pnpm bench");
  }
}

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

async function write(fresh: readonly StoredResult[]): Promise<void> {
  const byName = new Map((await readStored(RESULTS_FILE)).map((entry) => [entry.result.name, entry]));
  for (const entry of fresh) byName.set(entry.result.name, entry);
  const stored = ORDER.flatMap((name) => byName.get(name) ?? []);
  await writeStored(RESULTS_FILE, stored);
  await writeFile(MARKDOWN_FILE, renderMarkdown(stored, fresh[fresh.length - 1]));
  console.log(`(wrote ${MARKDOWN_FILE} and ${RESULTS_FILE})`);
}

function closing(fresh: readonly StoredResult[], failed: readonly string[]): void {
  const listOf = (verdict: string) =>
    fresh.flatMap(({ result }) =>
      result.rows.filter((row) => row.verdict === verdict).map((row) => `${result.name}: ${row.metric}`),
    );
  const [missed, noisy] = [listOf("missed"), listOf("noisy")];
  const failures = failed.length > 0 ? `, ${failed.length} did not complete (${failed.join(", ")})` : "";
  console.log(`\n${fresh.length} benchmark(s) done${failures}.`);
  if (missed.length > 0) console.log(`MISSED targets:\n  ${missed.join("\n  ")}`);
  if (noisy.length > 0) console.log(`NOISY (spread over 30 %, no result claimed):\n  ${noisy.join("\n  ")}`);
  if (missed.length === 0 && noisy.length === 0 && fresh.length > 0)
    console.log("All targets with a number were met.");
}

async function measure(selected: readonly string[], command: string, save: boolean): Promise<number> {
  const machine = machineInfo();
  console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}`);
  console.log(`Running: ${selected.join(", ")}`);
  const fresh: StoredResult[] = [];
  const failed: string[] = [];
  for (const name of selected) {
    const before = loadavg()[0] ?? Number.NaN;
    try {
      const result = await runOne(name);
      const load = { before, after: loadavg()[0] ?? Number.NaN };
      const entry = { result, machine, date: new Date().toISOString(), command, load };
      console.log(`\n${section(entry, machine)}`);
      fresh.push(entry);
      // Written after each one, so a run cut short keeps what it measured.
      if (save) await write(fresh);
    } catch (error) {
      failed.push(name);
      console.error(
        `\n!!! ${name} did not complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }
  closing(fresh, failed);
  // A benchmark that could not run is a broken benchmark, not a missed target.
  return failed.length > 0 ? 1 : 0;
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
    const stored = await readStored(RESULTS_FILE);
    await writeFile(MARKDOWN_FILE, renderMarkdown(stored, stored[stored.length - 1]));
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
