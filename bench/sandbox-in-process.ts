/**
 * The sandbox in process: store searches through the SDK's client on `createSandbox().fetch` against the
 * same client over loopback HTTP to `startSandbox` (both in this process, as a test suite would run
 * them), in interleaved rounds; and what `createSandbox()` costs a `beforeEach`.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, type DrillClient, unwrap } from "@drill-practice/client";
import { createSandbox, type SandboxControls, startSandbox } from "@drill-practice/sandbox";
import type { BenchmarkResult, ResultRow } from "./report.ts";
import { DEFAULT_CATALOG, SEARCH_WARMUP, searchMix } from "./sandbox-queries.ts";
import {
  formatMs,
  formatPercent,
  formatRate,
  formatRatio,
  median,
  now,
  p99,
  pairedRatios,
  runConcurrent,
  spread,
  withSpread,
} from "./stats.ts";

const ROUNDS = 6;
const REQUESTS_PER_ROUND = 1000;
const CONCURRENCY = 16;
const ROUND_MAX_MS = 4000;
const TOTAL_MAX_MS = 120_000;
const CREATES = 20;
const CREATE_MAX_MS = 30_000;
const SPEEDUP_TARGET = 3;
const CREATE_TARGET_MS = 100;

const QUERIES = searchMix(DEFAULT_CATALOG);

interface Door {
  readonly label: string;
  readonly client: DrillClient;
  readonly rates: number[];
  readonly latencies: number[];
  failures: number;
}

function clientFor(sandbox: SandboxControls, fetch: typeof globalThis.fetch): DrillClient {
  const keyFile = sandbox.credentials.keyFile();
  if (!keyFile) throw new Error("sandbox-in-process: the sandbox holds no private key");
  return createDrillClient({
    baseUrl: sandbox.url,
    fetch,
    auth: serviceAccountAuth({
      key: JSON.stringify(keyFile),
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      fetch,
    }),
  });
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  // The first createSandbox pays for what a process does once (parsing the description and the default
  // data, generating the RSA key); a beforeEach pays the later ones.
  const firstStart = now();
  const inProcess = await createSandbox();
  const firstCreateMs = now() - firstStart;
  const creates: number[] = [];
  const createsStart = now();
  while (creates.length < CREATES && now() - createsStart < CREATE_MAX_MS) {
    const t0 = now();
    const sandbox = await createSandbox();
    creates.push(now() - t0);
    await sandbox.close();
  }

  const http = await startSandbox();
  try {
    const doors: Door[] = [
      {
        label: "client over loopback HTTP (startSandbox)",
        client: clientFor(http, globalThis.fetch),
        rates: [],
        latencies: [],
        failures: 0,
      },
      {
        label: "client in process (createSandbox().fetch)",
        client: clientFor(inProcess, inProcess.fetch),
        rates: [],
        latencies: [],
        failures: 0,
      },
    ];
    const call = async (door: Door, index: number) => {
      const { params } = QUERIES[index % QUERIES.length] as (typeof QUERIES)[number];
      try {
        const page = await unwrap(door.client.GET("/api/2/store", { params: { query: params as never } }));
        if (typeof page.total !== "number") door.failures++;
      } catch {
        door.failures++;
      }
    };
    for (const door of doors) {
      await runConcurrent({ ...SEARCH_WARMUP, concurrency: CONCURRENCY }, (i) => call(door, i));
      door.failures = 0;
    }
    const loopStart = now();
    let rounds = 0;
    while (rounds < ROUNDS && now() - loopStart < TOTAL_MAX_MS) {
      for (const door of doors) {
        const result = await runConcurrent(
          { total: REQUESTS_PER_ROUND, concurrency: CONCURRENCY, maxMs: ROUND_MAX_MS },
          (i) => call(door, i),
        );
        door.rates.push(result.perSecond);
        door.latencies.push(...result.latencies);
      }
      rounds++;
    }
    const [overHttp, inProc] = doors as [Door, Door];
    // Each round's in-process rate over the same round's HTTP rate: the drift of a shared machine
    // between rounds cancels out, as in the client-overhead benchmark.
    const speedups = pairedRatios(inProc.rates, overHttp.rates);
    const speedup = median(speedups);
    const createMs = median(creates);
    const rows: ResultRow[] = [
      {
        metric:
          "store searches through the client: in process vs over loopback HTTP (median of per-round ratios)",
        ours: formatRate(median(inProc.rates), "req/s"),
        reference: formatRate(median(overHttp.rates), "req/s"),
        ratio: withSpread(speedups, formatRatio),
        target: `≥ ${SPEEDUP_TARGET}×`,
        verdict: speedup >= SPEEDUP_TARGET ? "met" : "missed",
        ...(speedup >= SPEEDUP_TARGET
          ? {}
          : { miss: `${formatRatio(speedup)} instead of ${SPEEDUP_TARGET}×` }),
        headline: true,
      },
      {
        metric: `store search latency p99 at concurrency ${CONCURRENCY}: in process vs over loopback HTTP`,
        ours: formatMs(p99(inProc.latencies)),
        reference: formatMs(p99(overHttp.latencies)),
        ratio: formatRatio(p99(inProc.latencies) / p99(overHttp.latencies)),
        target: "—",
        verdict: "info",
      },
      {
        metric: `createSandbox() with the default data: median of ${creates.length} after the first`,
        ours: formatMs(createMs),
        reference: `${formatMs(firstCreateMs)} (the first)`,
        ratio: formatRatio(createMs / firstCreateMs),
        target: `≤ ${CREATE_TARGET_MS} ms`,
        verdict: createMs <= CREATE_TARGET_MS ? "met" : "missed",
        ...(createMs <= CREATE_TARGET_MS ? {} : { miss: `${formatMs(createMs - CREATE_TARGET_MS)} over` }),
        headline: true,
      },
    ];
    const failures = doors.reduce((n, door) => n + door.failures, 0);
    const notes = [
      `Rounds: HTTP spread ${formatPercent(spread(overHttp.rates))}, in process ${formatPercent(spread(inProc.rates))}; ` +
        `per-round ratios ${speedups.map(formatRatio).join(", ")}. ` +
        "Both doors run the same pipeline (routing, token check, validation, search) and the same client " +
        "with its auth middleware; what the in-process door saves is the sockets, HTTP parsing and the copies " +
        "between them, on both ends, since client and server share this process.",
      `createSandbox() after the first: fastest ${formatMs(Math.min(...creates))}, slowest ${formatMs(Math.max(...creates))}. ` +
        "The first also parses the packaged description and default data and generates the RSA key pair, " +
        "which later sandboxes of the process reuse (under fresh key IDs); each one still builds its own state, " +
        "search index, credentials and validators' per-operation tables.",
    ];
    if (failures > 0) notes.push(`**Warning:** ${failures} search(es) failed.`);
    return {
      name: "sandbox-in-process",
      title: "Sandbox in process",
      measured:
        "Store searches (`GET /api/2/store`, the mix of sandbox-search on the default data) through " +
        "`createDrillClient` with `serviceAccountAuth`, once on `createSandbox().fetch` and once over loopback HTTP " +
        "to `startSandbox` with the global `fetch`, both sandboxes in this process; and the time `createSandbox()` " +
        "takes to resolve with the default data.",
      setup: [
        `${rounds} interleaved rounds of ${REQUESTS_PER_ROUND} searches per door, at most ${CONCURRENCY} in flight, after ${SEARCH_WARMUP.total} warm-up searches each (at most ${SEARCH_WARMUP.maxMs / 1000} s)`,
        `createSandbox(): one first call, then ${creates.length} in a row (each closed before the next)`,
      ],
      rows,
      details: [],
      notes,
      durationMs: now() - started,
    };
  } finally {
    await http.close();
    await inProcess.close();
  }
}
