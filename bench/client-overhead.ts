/**
 * Client overhead: requests per second and client CPU per request through `createDrillClient` with
 * service-account auth (token cached) against a bare keep-alive loopback server, next to the floor
 * of any client on openapi-fetch with a timeout and raw `fetch`, in interleaved
 * rounds; on the host's Node and, in a child process running this file, on Node 24.
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
  type Figures,
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
const LOAD = {
  ...SERVER_LOAD,
  rounds: 8,
  calls: 2000,
  timeMs: 15_000,
  maxMs: 75_000,
  warmup: { calls: 1000, timeMs: 5000 },
};
const TARGET_FLOOR_RATIO = 0.95;
const TARGET_FLOOR_CPU_RATIO = 1.1;

/** The variants (`rounds()` starts each round one variant later). */
type Variant = "ours" | "floor" | "raw";

/** What one runtime measured (plain data: the Node 24 child prints it on its ready line). */
interface OverheadMeasurement {
  readonly node: string;
  readonly rounds: number;
  readonly variants: Record<Variant, Figures>;
  readonly failures: number;
}

type Answer = { data?: { total?: number } };
type OpenapiFetch = (options: { baseUrl: string; headers: Record<string, string> }) => {
  GET(
    path: string,
    init: { params: { query: Record<string, string> }; signal?: AbortSignal },
  ): Promise<Answer>;
};

/** openapi-fetch is the client's dependency, not the root's: the very copy the client uses. */
async function loadOpenapiFetch(): Promise<OpenapiFetch> {
  const require = createRequire(new URL("../packages/client/package.json", import.meta.url));
  return ((await import(pathToFileURL(require.resolve("openapi-fetch")).href)) as { default: OpenapiFetch })
    .default;
}

/** One call per variant, each checking the answer's body. */
async function variantCalls(server: ServerReady): Promise<Record<Variant, () => Promise<boolean>>> {
  const { url: baseUrl, keyFile, clientId, clientSecret } = server;
  const auth = serviceAccountAuth({ key: await parseServiceAccountKey(keyFile), clientId, clientSecret });
  // The client gives the auth its base URL, so it exists before the first token.
  const client = createDrillClient({ baseUrl, auth });
  const headers = { authorization: `Bearer ${(await auth.getToken()).value}` };
  const openapiFetch = (await loadOpenapiFetch())({ baseUrl, headers });
  const query = { query: "spanish verbs" };
  const rawUrl = `${baseUrl}/api/2/store?${new URLSearchParams(query)}`;
  const signal = () => AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
  const one = async (answer: Promise<Answer>) => (await answer).data?.total === 1;
  return {
    ours: () => one(client.GET("/api/2/store", { params: { query } })),
    floor: () => one(openapiFetch.GET("/api/2/store", { params: { query }, signal: signal() })),
    raw: () =>
      one(fetch(rawUrl, { headers }).then(async (r) => ({ data: (await r.json()) as Answer["data"] }))),
  };
}

/** Every variant in interleaved rounds in this process, against the loopback server in a child. */
async function measureClientOverhead(): Promise<OverheadMeasurement> {
  const server = await startLoopbackServer(createBenchKey());
  let failures = 0;
  try {
    const calls = await variantCalls(server.ready);
    const checked = (k: Variant) => async () => {
      if (!(await calls[k]())) failures++;
    };
    const tasks = { ours: checked("ours"), floor: checked("floor"), raw: checked("raw") };
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

function rowsOf(m: OverheadMeasurement, name: string): ResultRow[] {
  const v = m.variants;
  /** A row over per-round ratios; one without a target is a headline of its own. */
  const row = (metric: string, figure: "rates" | "cpu", [ours, reference]: Variant[], target?: number) =>
    ratioRow(
      `${name}: ${metric}`,
      {
        ours: v[ours as Variant][figure],
        reference: v[reference as Variant][figure],
        format: figure === "rates" ? fmt.rate : fmt.ms,
      },
      target === undefined ? undefined : { ratio: target, atLeast: figure === "rates" },
      target === undefined,
    );
  const of = "(median of per-round ratios)";
  const latency = (k: Variant) => `${fmt.ms(median(v[k].samples))} / ${fmt.ms(p99(v[k].samples))}`;
  return [
    row(
      `throughput vs openapi-fetch + a per-request timeout signal, the floor ${of}`,
      "rates",
      ["ours", "floor"],
      TARGET_FLOOR_RATIO,
    ),
    row(`client CPU per request vs the floor ${of}`, "cpu", ["ours", "floor"], TARGET_FLOOR_CPU_RATIO),
    // Report only on every runtime (issue 33): the floor itself sits below 0.9× of raw fetch on Node 24.
    row(`throughput vs raw \`fetch\` with the same header ${of}`, "rates", ["ours", "raw"]),
    row("the floor's throughput vs raw `fetch` (what openapi-fetch and a timeout signal cost)", "rates", [
      "floor",
      "raw",
    ]),
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
    const missing =
      typeof node24 === "string" ? [info("Node 24: the same targets", { ours: "not measured" }, true)] : [];
    return {
      setup: [
        `Per runtime: ${loadSetup(`up to ${LOAD.rounds}`, LOAD, "requests", "variant")}`,
        `Targets on every runtime: throughput ≥ ${TARGET_FLOOR_RATIO}× and CPU per request ≤ ${TARGET_FLOOR_CPU_RATIO}× of the floor; the ratio to raw \`fetch\` is reported only`,
      ],
      rows: [...named.flatMap(({ m, name }) => rowsOf(m, name)), ...missing],
      notes: [
        ...named.map(
          ({ m, name }) => `${name}: ${m.rounds} rounds; ${m.failures} request(s) failed a response check.`,
        ),
        ...(typeof node24 === "string" ? [`**Node 24 not measured:** ${node24}.`] : []),
      ],
    };
  });
}

/** What the parent hands the Node 24 child, which then runs this file as the measuring side. */
const AS_CHILD = { clientOverheadChild: true };
if (process.env.DRILL_BENCH_INIT === JSON.stringify(AS_CHILD)) childReady(await measureClientOverhead());
