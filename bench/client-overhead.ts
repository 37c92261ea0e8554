/**
 * Client overhead: `createDrillClient` with service-account auth next to the floor (openapi-fetch
 * with a timeout signal) and raw `fetch`, against the loopback server, in interleaved rounds; on the
 * host's Node and, in a child process running this file, on Node 24.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parseServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient } from "@drill-practice/client";
import { DEFAULT_TIMEOUT_MS } from "@drill-practice/client/internal";
import { binaryPath, RUNTIME_CASES, unavailable } from "../packages/runtime-matrix/src/runtimes.ts";
import { createBenchKey, type ServerReady, startLoopbackServer } from "./fixtures.ts";
import {
  type BenchmarkResult,
  childReady,
  fmt,
  info,
  loadSetup,
  median,
  p99,
  type ResultRow,
  ratioRow,
  rounds,
  SERVER_LOAD,
  startChild,
  timed,
} from "./harness.ts";

// Two runtimes must fit in the runner's ten minutes.
const WARMUP = { calls: 1000, timeMs: 5000 };
const LOAD = { ...SERVER_LOAD, rounds: 8, calls: 2000, timeMs: 15_000, maxMs: 75_000, warmup: WARMUP };
/** The targets against the floor: throughput at least, CPU per request at most. */
const [MIN_RATE, MAX_CPU] = [0.95, 1.1];

type Variant = "ours" | "floor" | "raw";

/** What one runtime measured (plain data: the Node 24 child prints it on its ready line). */
type OverheadMeasurement = Awaited<ReturnType<typeof measureClientOverhead>>;

type Answer = { data?: { total?: number } };
type OpenapiFetch = (options: { baseUrl: string; headers: Record<string, string> }) => {
  GET(path: string, init: { params: object; signal?: AbortSignal }): Promise<Answer>;
};

/** One call per variant, each checking the answer's body. */
async function variantCalls(server: ServerReady): Promise<Record<Variant, () => Promise<boolean>>> {
  const { url: baseUrl, keyFile, clientId, clientSecret } = server;
  const auth = serviceAccountAuth({ key: await parseServiceAccountKey(keyFile), clientId, clientSecret });
  // The client gives the auth its base URL, so it exists before the first token.
  const client = createDrillClient({ baseUrl, auth });
  const headers = { authorization: `Bearer ${(await auth.getToken()).value}` };
  // openapi-fetch is the client's dependency, not the root's: the very copy the client uses.
  const require = createRequire(new URL("../packages/client/package.json", import.meta.url));
  const { default: createClient } = (await import(pathToFileURL(require.resolve("openapi-fetch")).href)) as {
    default: OpenapiFetch;
  };
  const openapiFetch = createClient({ baseUrl, headers });
  const query = { query: "spanish verbs" };
  const rawUrl = `${baseUrl}/api/2/store?${new URLSearchParams(query)}`;
  const signal = () => AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
  const one = async (answer: Promise<Answer>) => (await answer).data?.total === 1;
  return {
    ours: () => one(client.GET("/api/2/store", { params: { query } })),
    floor: () => one(openapiFetch.GET("/api/2/store", { params: { query }, signal: signal() })),
    raw: async () => ((await (await fetch(rawUrl, { headers })).json()) as { total?: number }).total === 1,
  };
}

/** Every variant in interleaved rounds in this process, against the loopback server in a child. */
async function measureClientOverhead() {
  const server = await startLoopbackServer(createBenchKey());
  let failures = 0;
  try {
    const calls = await variantCalls(server.ready);
    const checked = (call: () => Promise<boolean>) => async () => {
      if (!(await call())) failures++;
    };
    const tasks = { ours: checked(calls.ours), floor: checked(calls.floor), raw: checked(calls.raw) };
    const { rounds: done, ...variants } = await rounds(tasks, LOAD);
    return { node: process.version, rounds: done, variants, failures };
  } finally {
    await server.close();
  }
}

/** The same measurement under the runtime matrix's Node 24, or why there is none. */
async function measureOnNode24(): Promise<OverheadMeasurement | string> {
  const node24 = RUNTIME_CASES.find((runtime) => runtime.id === "node24");
  if (node24 === undefined) return "the runtime matrix lists no Node 24";
  if (process.versions.node.startsWith("24.")) return "the host already runs Node 24 (measured above)";
  const reason = unavailable(node24);
  if (reason !== undefined) return reason;
  try {
    const options = { execPath: binaryPath(node24), startMs: 135_000 };
    const child = await startChild<OverheadMeasurement>("./client-overhead.ts", AS_CHILD, options);
    await child.close();
    return child.ready;
  } catch (error) {
    return `the run failed: ${(error as Error).message.slice(0, 400)}`;
  }
}

function rowsOf({ variants: v }: OverheadMeasurement, name: string): ResultRow[] {
  /** A row over per-round ratios; one without a target is a headline of its own. */
  const row = (
    metric: string,
    figure: "rates" | "cpu",
    ours: Variant,
    reference: Variant,
    target?: number,
  ) => {
    const format = figure === "rates" ? fmt.rate : fmt.ms;
    const series = { ours: v[ours][figure], reference: v[reference][figure], format };
    const judged = target === undefined ? undefined : { ratio: target, atLeast: figure === "rates" };
    return ratioRow(`${name}: ${metric}`, series, judged, target === undefined);
  };
  const latency = (k: Variant) => `${fmt.ms(median(v[k].samples))} / ${fmt.ms(p99(v[k].samples))}`;
  const [of, floor] = [
    "(median of per-round ratios)",
    "openapi-fetch + a per-request timeout signal, the floor",
  ];
  const cost = "(what openapi-fetch and a timeout signal cost)";
  return [
    row(`throughput vs ${floor} ${of}`, "rates", "ours", "floor", MIN_RATE),
    row(`client CPU per request vs the floor ${of}`, "cpu", "ours", "floor", MAX_CPU),
    // Report only on every runtime (issue 33): the floor itself sits below 0.9× of raw fetch on Node 24.
    row(`throughput vs raw \`fetch\` with the same header ${of}`, "rates", "ours", "raw"),
    row(`the floor's throughput vs raw \`fetch\` ${cost}`, "rates", "floor", "raw"),
    info(`${name}: latency median / p99 at concurrency ${LOAD.concurrency}, ours vs the floor`, {
      ours: latency("ours"),
      reference: latency("floor"),
    }),
  ];
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("client-overhead", async () => {
    const measurements = [await measureClientOverhead()];
    const node24 = await measureOnNode24();
    if (typeof node24 !== "string") measurements.push(node24);
    const named = measurements.map((m) => ({ m, name: `Node ${m.node.replace(/^v/, "")}` }));
    const missing = typeof node24 === "string";
    return {
      setup: [
        `Per runtime: ${loadSetup(`up to ${LOAD.rounds}`, LOAD, "requests", "variant")}`,
        `Targets on every runtime: throughput ≥ ${MIN_RATE}× and CPU per request ≤ ${MAX_CPU}× of the floor; the ratio to raw \`fetch\` is reported only`,
      ],
      rows: [
        ...named.flatMap(({ m, name }) => rowsOf(m, name)),
        ...(missing ? [info("Node 24: the same targets", { ours: "not measured" }, true)] : []),
      ],
      notes: [
        ...named.map(
          ({ m, name }) => `${name}: ${m.rounds} rounds; ${m.failures} request(s) failed a response check.`,
        ),
        ...(missing ? [`**Node 24 not measured:** ${node24}.`] : []),
      ],
    };
  });
}

/** What the parent hands the Node 24 child, which then runs this file as the measuring side. */
const AS_CHILD = { clientOverheadChild: true };
if (process.env.DRILL_BENCH_INIT === JSON.stringify(AS_CHILD)) childReady(await measureClientOverhead());
