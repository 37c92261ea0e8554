/**
 * `pnpm test:loaded`: the whole `pnpm test` while every core is kept busy, to show
 * that no test depends on a quiet machine (a slow CI runner, a laptop compiling
 * something else).
 *
 * The load is one busy worker thread per core. Each spins until the suite ends or
 * until its own deadline (`--max-minutes`, default 45) passes, whichever comes first,
 * so the load never outlives the run, even if this script is killed. `pnpm test` runs
 * with TURBO_FORCE=true: a loaded run from turbo's cache would prove nothing.
 *
 * Usage: tsx scripts/test-loaded.ts [--workers <n>] [--max-minutes <m>]
 * Exit status: that of `pnpm test`; 2 for wrong usage.
 */
import { readFile, rm } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { runAttached } from "@drill-practice/tooling/terminal";

const USAGE = `Usage: pnpm test:loaded [--workers <n>] [--max-minutes <m>]

Runs the whole \`pnpm test\` (turbo cache bypassed) while busy workers keep the CPU loaded.
  --workers <n>       busy worker threads (default: one per core, here ${availableParallelism()})
  --max-minutes <m>   the workers stop by themselves after this long (default 45)
  -h, --help          print this help
`;

const root = fileURLToPath(new URL("..", import.meta.url));

function usageError(message: string): never {
  process.stderr.write(`test:loaded: ${message}\nRun pnpm test:loaded --help for usage.\n`);
  process.exit(2);
}

let values: { workers?: string; "max-minutes"?: string; help?: boolean };
try {
  values = parseArgs({
    args: process.argv.slice(2),
    options: {
      workers: { type: "string" },
      "max-minutes": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: false,
  }).values;
} catch (error) {
  usageError((error as Error).message);
}
if (values.help === true) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const workers = wholeNumber("--workers", values.workers, availableParallelism());
const maxMinutes = wholeNumber("--max-minutes", values["max-minutes"], 45);

function wholeNumber(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    usageError(`${flag} must be a whole number from 1 to 1000 (got "${text}")`);
  }
  return value;
}

// The workers spin on this flag: setting it to 1 stops them all at once.
const stop = new Int32Array(new SharedArrayBuffer(4));
const deadline = Date.now() + maxMinutes * 60_000;
const busy = `
const { workerData } = require("node:worker_threads");
const stop = new Int32Array(workerData.stop);
let x = 0;
while (Atomics.load(stop, 0) === 0 && Date.now() < workerData.deadline) {
  for (let i = 0; i < 100000; i += 1) x = (x * 31 + i) | 0;
}
`;
const threads = Array.from(
  { length: workers },
  () => new Worker(busy, { eval: true, workerData: { stop: stop.buffer, deadline } }),
);
const loadEnded = Promise.all(
  threads.map((thread) => new Promise((resolve) => thread.once("exit", resolve))),
);

await rm(join(root, ".reports", "summary.txt"), { force: true });
console.log(`test:loaded: ${workers} busy workers (stop after ${maxMinutes} min at most); running pnpm test`);
const started = performance.now();
const ending = await runAttached({
  command: "pnpm",
  args: ["test"],
  cwd: root,
  env: { ...process.env, TURBO_FORCE: "true" },
}).ended;
if (ending.startError) console.error(`test:loaded: ${ending.startError}`);
const exitCode = ending.exitCode ?? 1;
const seconds = (performance.now() - started) / 1000;
Atomics.store(stop, 0, 1);
await loadEnded;

const summary = (
  await readFile(join(root, ".reports", "summary.txt"), "utf8").catch(() => "no summary\n")
).trim();
const loadHeld = Date.now() < deadline;
console.log(
  `test:loaded: ${summary} in ${seconds.toFixed(0)} s with ${workers} busy workers; exit ${exitCode}`,
);
if (!loadHeld) {
  // A pass without load all along is not the result this check exists for.
  console.error(
    `test:loaded: the workers stopped after ${maxMinutes} min, before the suite ended; raise --max-minutes`,
  );
  process.exit(exitCode === 0 ? 1 : exitCode);
}
process.exit(exitCode);
