/**
 * Sandbox in process: store searches through the client on `createSandbox().fetch` next to the same
 * over loopback HTTP (both sandboxes in this process); the time `createSandbox()` takes; and the
 * sandbox's hand-written SHA-256 (one digest per request) next to `crypto.subtle.digest`.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, type DrillClient, unwrap } from "@drill-practice/client";
import { createSandbox, type SandboxControls, startSandbox } from "@drill-practice/sandbox";
import { sha256 } from "../packages/sandbox/src/oauth/sha256.ts";
import { DEFAULT_CATALOG, SEARCH_WARMUP, searchMix } from "./fixtures.ts";
import {
  type BenchmarkResult,
  fmt,
  info,
  judged,
  loadRounds,
  median,
  now,
  p99,
  pairedRatios,
  type ResultRow,
  timed,
  tinyRounds,
} from "./harness.ts";

const LOAD = {
  rounds: 6,
  total: 1000,
  concurrency: 16,
  roundMaxMs: 4000,
  maxMs: 120_000,
  warmup: SEARCH_WARMUP,
};
const CREATES = 20;
const SPEEDUP_TARGET = 3;
const CREATE_TARGET_MS = 100;
const QUERIES = searchMix(DEFAULT_CATALOG);

function clientFor(sandbox: SandboxControls, fetch: typeof globalThis.fetch): DrillClient {
  const keyFile = sandbox.credentials.keyFile();
  if (!keyFile) throw new Error("sandbox-in-process: the sandbox holds no private key");
  const { clientId, clientSecret } = sandbox.credentials;
  const auth = serviceAccountAuth({ key: JSON.stringify(keyFile), clientId, clientSecret, fetch });
  return createDrillClient({ baseUrl: sandbox.url, fetch, auth });
}

/** The first createSandbox() (what a process pays once), then `CREATES` more, each closed. */
async function createTimes(): Promise<{ first: number; later: number[] }> {
  const t0 = now();
  await (await createSandbox()).close();
  const first = now() - t0;
  const later: number[] = [];
  while (later.length < CREATES) {
    const t = now();
    const sandbox = await createSandbox();
    later.push(now() - t);
    await sandbox.close();
  }
  return { first, later };
}

/** The two doors in interleaved rounds; failures counted. */
async function doors() {
  const inProcess = await createSandbox();
  const http = await startSandbox();
  try {
    let failures = 0;
    const search = (client: DrillClient) => async (i: number) => {
      const { params } = QUERIES[i % QUERIES.length] as (typeof QUERIES)[number];
      const page = await unwrap(client.GET("/api/2/store", { params: { query: params as never } })).catch(
        () => undefined,
      );
      if (typeof page?.total !== "number") failures++;
    };
    const targets = {
      http: search(clientFor(http, globalThis.fetch)),
      inProcess: search(clientFor(inProcess, inProcess.fetch)),
    };
    return { ...(await loadRounds(targets, LOAD)), failures };
  } finally {
    await http.close();
    await inProcess.close();
  }
}

/** The bearer-token digest the sandbox makes per request, and the platform's, in interleaved rounds. */
function digests() {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const encoder = new TextEncoder();
  return tinyRounds(
    { ours: () => sha256(token), platform: () => crypto.subtle.digest("SHA-256", encoder.encode(token)) },
    { rounds: 5, timeMs: 200 },
  );
}

function digestRows(d: Awaited<ReturnType<typeof digests>>, perSearchMs: number): ResultRow[] {
  const [ours, platform] = [median(d.ours.medians), median(d.platform.medians)];
  return [
    info(
      "bearer-token digest: hand-written SHA-256 vs `crypto.subtle.digest`, median",
      { ours: fmt.ms(ours), reference: fmt.ms(platform), ratio: fmt.ratio(ours / platform) },
      true,
    ),
    info("what `crypto.subtle.digest` would add to an in-process search (share of its time)", {
      ours: fmt.signedMs(platform - ours),
      reference: `${fmt.ms(perSearchMs)} per search`,
      ratio: fmt.percent((platform - ours) / perSearchMs),
    }),
  ];
}

export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-in-process", async () => {
    const creates = await createTimes();
    const { rounds, figures, failures } = await doors();
    const { http, inProcess } = figures;
    const speedups = pairedRatios(inProcess.rates, http.rates);
    const speedup = median(speedups);
    const createMs = median(creates.later);
    return {
      title: "Sandbox in process",
      measured:
        "Store searches (`GET /api/2/store`, the mix of sandbox-search on the default data) through " +
        "`createDrillClient` with `serviceAccountAuth`, once on `createSandbox().fetch` and once over loopback HTTP " +
        "to `startSandbox` with the global `fetch`, both sandboxes in this process; the time `createSandbox()` " +
        "takes with the default data; and the digest every request's bearer token goes through " +
        "(`oauth/sha256.ts`, synchronous) next to the platform's `crypto.subtle.digest`.",
      setup: [
        `${rounds} interleaved rounds of ${LOAD.total} searches per door, at most ${LOAD.concurrency} in flight, after ${SEARCH_WARMUP.total} warm-up searches each`,
        `createSandbox(): one first call, then ${creates.later.length} in a row (each closed before the next)`,
        "Digests: tinybench, 5 interleaved rounds of 200 ms each, of a 43-character token",
      ],
      rows: [
        judged(
          "store searches through the client: in process vs over loopback HTTP (median of per-round ratios)",
          {
            ours: fmt.rate(median(inProcess.rates)),
            reference: fmt.rate(median(http.rates)),
            ratio: fmt.spread(speedups, fmt.ratio),
            target: `≥ ${SPEEDUP_TARGET}×`,
          },
          { met: speedup >= SPEEDUP_TARGET, miss: `${fmt.ratio(speedup)} instead of ${SPEEDUP_TARGET}×` },
        ),
        info(
          `store search latency p99 at concurrency ${LOAD.concurrency}: in process vs over loopback HTTP`,
          {
            ours: fmt.ms(p99(inProcess.latencies)),
            reference: fmt.ms(p99(http.latencies)),
            ratio: fmt.ratio(p99(inProcess.latencies) / p99(http.latencies)),
          },
        ),
        judged(
          `createSandbox() with the default data: median of ${creates.later.length} after the first`,
          {
            ours: fmt.ms(createMs),
            reference: `${fmt.ms(creates.first)} (the first)`,
            ratio: fmt.ratio(createMs / creates.first),
            target: `≤ ${CREATE_TARGET_MS} ms`,
          },
          { met: createMs <= CREATE_TARGET_MS, miss: `${fmt.ms(createMs - CREATE_TARGET_MS)} over` },
        ),
        ...digestRows(await digests(), 1000 / median(inProcess.rates)),
      ],
      details: [],
      notes: [
        `Per-round ratios ${speedups.map(fmt.ratio).join(", ")}; ${failures} search(es) failed. Both doors run the same ` +
          "pipeline and the same client with its auth middleware; the in-process door saves the sockets, HTTP parsing " +
          "and the copies between them. createSandbox() after the first: fastest " +
          `${fmt.ms(Math.min(...creates.later))}, slowest ${fmt.ms(Math.max(...creates.later))}; the first also parses ` +
          "the packaged description and default data and generates the RSA key pair, which later sandboxes reuse.",
        "Every request's bearer token is digested to be looked up (the sandbox keeps digests, not tokens). The " +
          "pipeline is asynchronous, so nothing requires a synchronous hash; the hand-written one stays while the " +
          "rows above show `crypto.subtle.digest` (a promise and a worker-thread hop per call) costing a visible " +
          "share of an in-process search.",
      ],
    };
  });
}
