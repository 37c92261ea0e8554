/**
 * Sandbox store search over HTTP on the default data and on 100,000 drills next to the bare loopback
 * server, the 100,000-drill start-up and memory, and the data file's streamed read next to
 * `JSON.parse` (bench/README.md says what each row is).
 */
import { readFile } from "node:fs/promises";
import { validateDataFile } from "../packages/sandbox/src/data/data-file.ts";
import { streamDataFile } from "../packages/sandbox/src/data/data-file-stream.ts";
import {
  bearer,
  createBenchKey,
  DEFAULT_CATALOG,
  defaultDrillCount,
  LARGE_CATALOG,
  LARGE_DRILLS,
  queryString,
  type ServerReady,
  searchMix,
  startLoopbackServer,
  startSandboxServer,
  writeLargeDataFile,
} from "./fixtures.ts";
import {
  atMost,
  type BenchmarkResult,
  compared,
  type Figures,
  fmt,
  loadCompared,
  loadSetup,
  median,
  type ResultRow,
  rounds,
  SERVER_LOAD,
  throughputJudged,
  timed,
} from "./harness.ts";
import { mixLoad, withServers } from "./sandbox-setup.ts";

const LOAD = { ...SERVER_LOAD, maxMs: 150_000 };
const LARGE_STARTS = 3;
const LARGE = fmt.count(LARGE_DRILLS);
const MIB_TO_MB = 1.048576;

/** The mix over HTTP on one server, with a token from its own token endpoint. */
async function searches(ready: ServerReady, catalog: string, failed: { count: number }) {
  const authorization = await bearer(ready);
  return mixLoad(catalog, failed, async (params) => {
    const url = `${ready.url}/api/2/store?${queryString(params)}`;
    const response = await fetch(url, { headers: { authorization } });
    const body = (await response.json()) as { total?: unknown };
    return response.ok && typeof body.total === "number";
  });
}

/** The three servers under the load, the 100,000-drill one started `LARGE_STARTS` times (the last kept). */
const measure = (dataFile: string) =>
  withServers(async (open) => {
    const bare = await open(startLoopbackServer(createBenchKey()));
    const small = await open(startSandboxServer());
    let large = await open(startSandboxServer(dataFile));
    const starts = [large.ready.startupMs];
    while (starts.length < LARGE_STARTS) {
      await large.close();
      large = await open(startSandboxServer(dataFile));
      starts.push(large.ready.startupMs);
    }
    const failed = { count: 0 };
    const load = await rounds(
      {
        bare: await searches(bare.ready, DEFAULT_CATALOG, failed),
        small: await searches(small.ready, DEFAULT_CATALOG, failed),
        large: await searches(large.ready, LARGE_CATALOG, failed),
      },
      LOAD,
    );
    return {
      load,
      failures: failed.count,
      small: small.ready,
      large: large.ready,
      starts,
      loadedMb: await large.rssMb(),
    };
  });

/** Throughput and latency of one sandbox next to the bare server's. */
function searchRows(label: string, ours: Figures, bare: Figures): ResultRow[] {
  return [
    loadCompared(`${label}: throughput, median of rounds`, [ours, bare], "throughput", true),
    loadCompared(`${label}: latency p99 at concurrency ${LOAD.concurrency}`, [ours, bare], "p99", true),
    loadCompared(`${label}: latency median at concurrency ${LOAD.concurrency}`, [ours, bare], "median"),
  ];
}

function rowsOf(m: Awaited<ReturnType<typeof measure>>, reads: Record<"streamed" | "parsed", Figures>) {
  const { bare, small, large } = m.load;
  const startup = median(m.starts);
  const mib = (value: number) => `${Math.round(value)} MiB`;
  const memory = (metric: string, value: number, reference: number) =>
    atMost(metric, value * MIB_TO_MB, 300, " MB", compared(value, reference, mib));
  return [
    ...searchRows(`sandbox, ${LARGE} drills`, large, bare),
    throughputJudged(
      `throughput at ${LARGE} drills relative to the default data (median of per-round ratios)`,
      [large, small],
      0.5,
    ),
    atMost(
      `start-up with a ${LARGE}-drill data file (startSandbox until listening, median of ${m.starts.length})`,
      startup,
      5000,
      " ms",
      { ...compared(startup, m.small.startupMs, fmt.ms), ours: fmt.spread(m.starts, fmt.ms) },
    ),
    memory(`resident memory after start, ${LARGE} drills`, m.large.memoryMb, m.small.memoryMb),
    memory(`resident memory after the load of mixed searches, ${LARGE} drills`, m.loadedMb, m.large.memoryMb),
    loadCompared(
      `reading and checking the ${LARGE}-drill data file: streamed (the sandbox's) vs \`JSON.parse\` of the whole file, median of 3`,
      [reads.streamed, reads.parsed],
      "median",
      true,
    ),
  ];
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-search", async () => {
    const file = await writeLargeDataFile();
    try {
      const m = await measure(file.path);
      const reads = await rounds(
        {
          streamed: () => streamDataFile(file.path),
          parsed: async () => validateDataFile(JSON.parse(await readFile(file.path, "utf8"))),
        },
        { rounds: 3, timeMs: 0, calls: 1 },
      );
      const defaultData = `sandbox, default data (${await defaultDrillCount()} drills)`;
      return {
        setup: [
          loadSetup(m.load.rounds, LOAD, "requests", "target"),
          `The ${searchMix(LARGE_CATALOG).length} searches of the mix are cycled; start-up is the median of ${LARGE_STARTS} starts`,
        ],
        rows: [...searchRows(defaultData, m.load.small, m.load.bare), ...rowsOf(m, reads)],
        notes: [
          `Start-ups of the ${LARGE}-drill sandbox: ${m.starts.map(fmt.ms).join(", ")}; ${m.failures} request(s) failed.`,
        ],
      };
    } finally {
      await file.remove();
    }
  });
}
