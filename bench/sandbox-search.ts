/**
 * Sandbox store search: authenticated `GET /api/2/store` on the default data and on 100,000
 * generated drills (each sandbox in its own process), next to the bare loopback server answering a
 * fixed body; the 100,000-drill start-up and memory; and the data file's streamed read
 * (`data/json-top-level-scanner.ts`) next to `JSON.parse` of the whole file.
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
  type ChildServer,
  compared,
  cycle,
  type Figures,
  fmt,
  infoCompared,
  loadSetup,
  median,
  p99,
  pairedRatios,
  type ResultRow,
  ratioJudged,
  rounds,
  SERVER_LOAD,
  timed,
} from "./harness.ts";

const LOAD = { ...SERVER_LOAD, maxMs: 150_000 };
const LARGE_STARTS = 3;
const LARGE = fmt.count(LARGE_DRILLS);
const MIB_TO_MB = 1.048576;
const mib = (value: number) => `${Math.round(value)} MiB`;

/** A load cycling through the mix on one server, counting the searches that failed. */
async function target(ready: ServerReady, catalog: string, state: { failures: number }) {
  const authorization = await bearer(ready);
  return cycle(
    searchMix(catalog).map(({ params }) => async () => {
      const response = await fetch(`${ready.url}/api/2/store?${queryString(params)}`, {
        headers: { authorization },
      });
      const body = (await response.json()) as { total?: unknown };
      if (!response.ok || typeof body.total !== "number") state.failures++;
    }),
  );
}

/**
 * Starts the three servers (the 100,000-drill one `LARGE_STARTS` times, the last kept), puts the
 * load on them, and closes them whatever happens.
 */
async function measure(dataFile: string) {
  const servers: ChildServer<ServerReady>[] = [];
  const start = async <T extends ChildServer<ServerReady>>(server: Promise<T>) => {
    servers.push(await server);
    return servers[servers.length - 1] as T;
  };
  try {
    const bare = await start(startLoopbackServer(createBenchKey()));
    const small = await start(startSandboxServer());
    let large = await start(startSandboxServer(dataFile));
    const starts = [large.ready.startupMs];
    while (starts.length < LARGE_STARTS) {
      await large.close();
      large = await start(startSandboxServer(dataFile));
      starts.push(large.ready.startupMs);
    }
    const state = { failures: 0 };
    const tasks = {
      bare: await target(bare.ready, DEFAULT_CATALOG, state),
      small: await target(small.ready, DEFAULT_CATALOG, state),
      large: await target(large.ready, LARGE_CATALOG, state),
    };
    const load = await rounds(tasks, LOAD);
    const loadedMb = await large.rssMb();
    return { load, failures: state.failures, small: small.ready, large: large.ready, starts, loadedMb };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

function searchRows(label: string, ours: Figures, bare: Figures): ResultRow[] {
  const at = `at concurrency ${LOAD.concurrency}`;
  return [
    infoCompared(
      `${label}: throughput, median of rounds`,
      [median(ours.rates), median(bare.rates)],
      fmt.rate,
      true,
    ),
    infoCompared(`${label}: latency p99 ${at}`, [p99(ours.samples), p99(bare.samples)], fmt.ms, true),
    infoCompared(`${label}: latency median ${at}`, [median(ours.samples), median(bare.samples)], fmt.ms),
  ];
}

type Measured = Awaited<ReturnType<typeof measure>>;

function rowsOf(m: Measured, reads: Record<"streamed" | "parsed", Figures>, smallLabel: string): ResultRow[] {
  const { bare, small, large } = m.load;
  const scale = pairedRatios(large.rates, small.rates);
  const startup = median(m.starts);
  const memory = (metric: string, value: number, reference: number) =>
    atMost(metric, value * MIB_TO_MB, 300, " MB", compared(value, reference, mib));
  const scaleCells = {
    ...compared(median(large.rates), median(small.rates), fmt.rate),
    ratio: fmt.spread(scale, fmt.ratio),
  };
  return [
    ...searchRows(smallLabel, small, bare),
    ...searchRows(`sandbox, ${LARGE} drills`, large, bare),
    ratioJudged(
      `throughput at ${LARGE} drills relative to the default data (median of per-round ratios)`,
      scaleCells,
      median(scale),
      { at: 0.5, atLeast: true },
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
    infoCompared(
      `reading and checking the ${LARGE}-drill data file: streamed (the sandbox's) vs \`JSON.parse\` of the whole file, median of 3`,
      [median(reads.streamed.samples), median(reads.parsed.samples)],
      fmt.ms,
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
      return {
        setup: [
          loadSetup(m.load.rounds, LOAD, "requests", "target"),
          `The ${searchMix(LARGE_CATALOG).length} searches of the mix are cycled; start-up is the median of ${LARGE_STARTS} starts`,
        ],
        rows: rowsOf(m, reads, `sandbox, default data (${await defaultDrillCount()} drills)`),
        notes: [
          `Start-ups of the ${LARGE}-drill sandbox: ${m.starts.map(fmt.ms).join(", ")}; ${m.failures} request(s) failed.`,
        ],
      };
    } finally {
      await file.remove();
    }
  });
}
