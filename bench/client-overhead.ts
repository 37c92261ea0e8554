/**
 * Client overhead: requests per second and client CPU per request through `createDrillClient` with
 * service-account auth (token cached) against a bare keep-alive loopback server, next to raw `fetch`
 * with the same header and openapi-fetch alone to the same server, in interleaved rounds.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parseServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient } from "@drill-practice/client";
import { DEFAULT_TIMEOUT_MS } from "@drill-practice/client/internal";
import { createBenchKey, LOOPBACK_CLIENT, startLoopbackServer } from "./fixtures.ts";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import {
  formatMs,
  formatPercent,
  formatRate,
  formatRatio,
  formatSignedMs,
  isNoisy,
  median,
  NOISE_LIMIT,
  now,
  p99,
  pairedRatios,
  runConcurrent,
  spread,
  withSpread,
} from "./stats.ts";

const REQUESTS_PER_ROUND = 2000;
const CONCURRENCY = 16;
const ROUNDS = 8;
const WARMUP_REQUESTS = 1000;
const ROUND_MAX_MS = 15_000;
const TOTAL_MAX_MS = 120_000;
const TARGET_RATIO = 0.95;
/** Client CPU per request, ours against raw fetch: at most this ratio. */
const TARGET_CPU_RATIO = 1.1;

/** The slice of openapi-fetch's API the diagnostic variant uses. */
type OpenapiFetchFactory = (options: { baseUrl: string; headers: Record<string, string> }) => {
  GET(
    path: string,
    init: { params: { query: Record<string, string> } },
  ): Promise<{ data?: { total?: number } }>;
};

/** openapi-fetch is a dependency of the client, not of the root; load the very copy the client uses. */
async function loadOpenapiFetch(): Promise<OpenapiFetchFactory> {
  const require = createRequire(new URL("../packages/client/package.json", import.meta.url));
  const module = (await import(pathToFileURL(require.resolve("openapi-fetch")).href)) as {
    default: OpenapiFetchFactory;
  };
  return module.default;
}

interface Variant {
  readonly label: string;
  readonly call: () => Promise<void>;
  readonly rates: number[];
  readonly latencies: number[];
  /** Client-process CPU per request in each round, ms. */
  readonly cpuPerRequest: number[];
  failures: number;
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const key = createBenchKey();
  const server = await startLoopbackServer(key);
  try {
    const baseUrl = server.ready.url;
    const parsedKey = await parseServiceAccountKey(key.keyFileJson);
    const auth = serviceAccountAuth({ key: parsedKey, ...LOOPBACK_CLIENT });
    const client = createDrillClient({ baseUrl, auth });
    const token = (await auth.getToken()).value;
    const bearer = `Bearer ${token}`;
    // Diagnostic variants, to tell openapi-fetch's cost, the client's own and the auth middleware's apart.
    const openapiFetch = (await loadOpenapiFetch())({ baseUrl, headers: { authorization: bearer } });
    const clientStaticHeader = createDrillClient({ baseUrl, headers: { authorization: bearer } });
    const clientBare = createDrillClient({
      baseUrl,
      headers: { authorization: bearer },
      retry: false,
      timeoutMs: false,
    });
    const query = { query: "spanish verbs" };
    const rawUrl = `${baseUrl}/api/2/store?${new URLSearchParams(query)}`;

    const make = (label: string, call: () => Promise<boolean>): Variant => {
      const variant: Variant = {
        label,
        rates: [],
        latencies: [],
        cpuPerRequest: [],
        failures: 0,
        call: async () => {
          if (!(await call())) variant.failures++;
        },
      };
      return variant;
    };
    const ours = make("createDrillClient + auth middleware", async () => {
      const { data } = await client.GET("/api/2/store", { params: { query } });
      return data?.total === 1;
    });
    const raw = make("raw fetch", async () => {
      const response = await fetch(rawUrl, { headers: { authorization: bearer } });
      const data = (await response.json()) as { total?: number };
      return response.ok && data.total === 1;
    });
    const staticHeader = make("createDrillClient, static header, no auth", async () => {
      const { data } = await clientStaticHeader.GET("/api/2/store", { params: { query } });
      return data?.total === 1;
    });
    const bare = make("createDrillClient, static header, retry and timeout off", async () => {
      const { data } = await clientBare.GET("/api/2/store", { params: { query } });
      return data?.total === 1;
    });
    // The floor for any client that enforces a timeout the platform's way: raw fetch with nothing but the
    // timeout signal (the client's default) added. On Node 20's undici a signal alone costs a share.
    const rawTimeout = make("raw fetch with a timeout signal (30 s), nothing else", async () => {
      const response = await fetch(rawUrl, {
        headers: { authorization: bearer },
        signal: AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
      });
      const data = (await response.json()) as { total?: number };
      return response.ok && data.total === 1;
    });
    const plain = make("openapi-fetch alone, static header", async () => {
      const { data } = await openapiFetch.GET("/api/2/store", { params: { query } });
      return data?.total === 1;
    });
    const variants = [ours, raw, staticHeader, bare, plain, rawTimeout];

    for (const variant of variants) {
      await runConcurrent(
        { total: WARMUP_REQUESTS, concurrency: CONCURRENCY, maxMs: ROUND_MAX_MS },
        variant.call,
      );
      variant.failures = 0;
    }
    const loopStart = now();
    let rounds = 0;
    while (rounds < ROUNDS && now() - loopStart < TOTAL_MAX_MS) {
      for (const variant of variants) {
        const result = await runConcurrent(
          { total: REQUESTS_PER_ROUND, concurrency: CONCURRENCY, maxMs: ROUND_MAX_MS },
          variant.call,
        );
        variant.rates.push(result.perSecond);
        variant.latencies.push(...result.latencies);
        variant.cpuPerRequest.push(result.cpuMs / result.completed);
      }
      rounds++;
    }
    const stats = await server.request<{
      type: string;
      exchanges: Record<string, number>;
      unauthorized: number;
    }>({
      type: "stats",
    });

    const rawRate = median(raw.rates);
    const throughputRatios = pairedRatios(ours.rates, raw.rates);
    const ratio = median(throughputRatios);
    const met = ratio >= TARGET_RATIO;
    const cpuRatios = pairedRatios(ours.cpuPerRequest, raw.cpuPerRequest);
    const cpuRatio = median(cpuRatios);
    const noiseNote = (...series: number[][]) =>
      `spread ${series.map((samples) => formatPercent(spread(samples)).replace("+", "")).join(" / ")} > ${NOISE_LIMIT * 100} %`;
    const throughputNoisy = isNoisy(throughputRatios, ours.rates, raw.rates);
    const cpuNoisy = isNoisy(cpuRatios, ours.cpuPerRequest, raw.cpuPerRequest);
    const rows: ResultRow[] = [
      {
        metric: "Throughput vs raw `fetch` with the same header (median of per-round ratios)",
        ours: withSpread(ours.rates, (value) => formatRate(value, "req/s")),
        reference: withSpread(raw.rates, (value) => formatRate(value, "req/s")),
        ratio: withSpread(throughputRatios, formatRatio),
        target: `ratio ≥ ${TARGET_RATIO}`,
        ...(throughputNoisy
          ? { verdict: "noisy", miss: noiseNote(throughputRatios, ours.rates, raw.rates) }
          : met
            ? { verdict: "met" }
            : { verdict: "missed", miss: `${formatPercent(ratio / TARGET_RATIO - 1)} vs target` }),
      },
      {
        metric: "Client CPU per request vs raw `fetch` (median of per-round ratios)",
        ours: withSpread(ours.cpuPerRequest, formatMs),
        reference: withSpread(raw.cpuPerRequest, formatMs),
        ratio: withSpread(cpuRatios, formatRatio),
        target: `ratio ≤ ${TARGET_CPU_RATIO}`,
        ...(cpuNoisy
          ? { verdict: "noisy", miss: noiseNote(cpuRatios, ours.cpuPerRequest, raw.cpuPerRequest) }
          : cpuRatio <= TARGET_CPU_RATIO
            ? { verdict: "met" }
            : { verdict: "missed", miss: `${formatPercent(cpuRatio / TARGET_CPU_RATIO - 1)} over target` }),
      },
      {
        metric: "Client CPU per request vs openapi-fetch alone (median of per-round ratios)",
        ours: withSpread(ours.cpuPerRequest, formatMs),
        reference: withSpread(plain.cpuPerRequest, formatMs),
        ratio: withSpread(pairedRatios(ours.cpuPerRequest, plain.cpuPerRequest), formatRatio),
        target: "—",
        verdict: "info",
        headline: true,
      },
      {
        metric: "openapi-fetch alone: CPU per request vs raw `fetch` (what the client builds on)",
        ours: withSpread(plain.cpuPerRequest, formatMs),
        reference: withSpread(raw.cpuPerRequest, formatMs),
        ratio: withSpread(pairedRatios(plain.cpuPerRequest, raw.cpuPerRequest), formatRatio),
        target: "—",
        verdict: "info",
      },
      {
        metric:
          "Raw `fetch` with only the default timeout's signal: throughput vs raw `fetch` (the ceiling for a client with a timeout)",
        ours: withSpread(rawTimeout.rates, (value) => formatRate(value, "req/s")),
        reference: withSpread(raw.rates, (value) => formatRate(value, "req/s")),
        ratio: withSpread(pairedRatios(rawTimeout.rates, raw.rates), formatRatio),
        target: "—",
        verdict: "info",
        headline: true,
      },
      {
        metric: `Latency median at concurrency ${CONCURRENCY}`,
        ours: formatMs(median(ours.latencies)),
        reference: formatMs(median(raw.latencies)),
        ratio: formatRatio(median(ours.latencies) / median(raw.latencies)),
        target: "—",
        verdict: "info",
      },
      {
        metric: `Latency p99 at concurrency ${CONCURRENCY}`,
        ours: formatMs(p99(ours.latencies)),
        reference: formatMs(p99(raw.latencies)),
        ratio: formatRatio(p99(ours.latencies) / p99(raw.latencies)),
        target: "—",
        verdict: "info",
      },
    ];
    const details: DetailTable[] = [
      {
        title: "All variants (the last four only attribute the overhead; they have no target)",
        headers: [
          "Variant",
          "Median req/s",
          "vs raw fetch",
          "Spread of rounds",
          "CPU per request",
          "CPU spread",
          "Median latency",
          "p99",
          "Failed",
        ],
        rows: variants.map((variant) => [
          variant.label,
          formatRate(median(variant.rates), "req/s"),
          formatRatio(median(variant.rates) / rawRate),
          formatPercent(spread(variant.rates)),
          formatMs(median(variant.cpuPerRequest)),
          formatPercent(spread(variant.cpuPerRequest)),
          formatMs(median(variant.latencies)),
          formatMs(p99(variant.latencies)),
          String(variant.failures),
        ]),
      },
      {
        title: "Requests per second in each round",
        headers: ["Round", ...variants.map((variant) => variant.label)],
        rows: Array.from({ length: rounds }, (_, i) => [
          String(i + 1),
          ...variants.map((variant) => formatRate(variant.rates[i] ?? Number.NaN, "")),
        ]),
      },
      {
        title: "Ours against raw fetch in each round (the ratios the medians above are taken over)",
        headers: ["Round", "Throughput ratio", "CPU per request ratio"],
        rows: Array.from({ length: rounds }, (_, i) => [
          String(i + 1),
          formatRatio(throughputRatios[i] ?? Number.NaN),
          formatRatio(cpuRatios[i] ?? Number.NaN),
        ]),
      },
    ];
    const exchangeCount = Object.values(stats.exchanges).reduce((sum, n) => sum + n, 0);
    const cpu = (variant: Variant) => median(variant.cpuPerRequest);
    const notes = [
      `The server ran in its own process and issued ${exchangeCount} token exchange(s) during the run ` +
        `(warm-up included), so every measured request of ours used the cached token; ` +
        `${stats.unauthorized} request(s) were refused and ${variants.reduce((n, v) => n + v.failures, 0)} ` +
        "failed a response check.",
    ];
    if (throughputNoisy || cpuNoisy) {
      notes.push(
        `**Noisy run:** the rounds spread more than ${NOISE_LIMIT * 100} % (max − min over median), so this run ` +
          "claims neither a met nor a missed target for the affected rows; other work on the machine " +
          "(see the load average) is the usual cause. Rerun on a quiet machine.",
      );
    }
    if (!met || cpuRatio > TARGET_CPU_RATIO) {
      // What each diagnostic step adds; described by what differs between the variants, not by how the
      // layers happen to be implemented today.
      const layers = [
        {
          name: "openapi-fetch itself",
          delta: cpu(plain) - cpu(raw),
          what: "building a `Request`, serializing the query, running middleware hooks, parsing the body",
        },
        {
          name: "the client's own layer",
          delta: cpu(bare) - cpu(plain),
          what: "its fetch wrapper, path encoding and the middleware that records the operation, with retry and timeout off",
        },
        {
          name: "the default timeout and retry",
          delta: cpu(staticHeader) - cpu(bare),
          what: "the per-request timeout signal joined with the caller's, and the retry bookkeeping of a first attempt",
        },
        {
          name: "the auth middleware",
          delta: cpu(ours) - cpu(staticHeader),
          what:
            "the cached token lookup (timed on its own in the token-provider benchmark), its middleware hooks and " +
            "what it keeps for a re-send after a 401",
        },
      ];
      const largest = [...layers].sort((a, b) => b.delta - a.delta)[0] ?? layers[0];
      notes.push(
        `**${throughputNoisy ? "Below target in this noisy run" : met ? "CPU above target" : "Missed"}:** ours reached ${formatRatio(ratio)} of raw fetch's throughput, ${formatPercent(ratio / TARGET_RATIO - 1)} ` +
          `against the ${TARGET_RATIO} target. The client process is the bottleneck (the server has its own core), so ` +
          `the gap is client CPU per request: ${formatMs(cpu(ours))} for ours against ${formatMs(cpu(raw))} for raw ` +
          "fetch. The diagnostic variants split it up layer by layer: " +
          layers.map((layer) => `${layer.name} ${formatSignedMs(layer.delta)} (${layer.what})`).join("; ") +
          ". Layer differences of a few tens of microseconds are within run-to-run noise on a shared 2-core machine. " +
          `Raw fetch given nothing but the default timeout's \`AbortSignal\` reached ${formatRatio(median(pairedRatios(rawTimeout.rates, raw.rates)))} ` +
          "of raw fetch in the same rounds: a client that enforces a timeout with the platform's signal cannot go " +
          "above that on this Node version, whatever its own layers cost. " +
          `The largest layer in this run is ${largest?.name}. ` +
          "Against a loopback server that answers in microseconds this CPU is the whole difference; against a real " +
          "service across a network, where a request takes milliseconds, the same overhead is a small share.",
      );
    }
    return {
      name: "client-overhead",
      title: "Client overhead",
      measured:
        "Requests per second and client-process CPU per request of `GET /api/2/store` through `createDrillClient` " +
        "with `serviceAccountAuth` (default timeout and retry settings, token cached after the first exchange), next " +
        "to raw `fetch` with the same bearer token and to openapi-fetch alone with that header, to the same server. " +
        "All parse the JSON body. Ratios are taken per round (each round runs every variant back to back) and the " +
        `median of those is reported with its spread; a spread over ${NOISE_LIMIT * 100} % marks the figure noisy. ` +
        "The server is a bare `node:http` server on 127.0.0.1 in a separate process, keep-alive on, answering a fixed 150-byte JSON body.",
      setup: [
        `${rounds} interleaved rounds (ours, raw, then the four diagnostic variants), ${REQUESTS_PER_ROUND} requests per round and variant, at most ${CONCURRENCY} in flight`,
        `${WARMUP_REQUESTS} warm-up requests per variant first; medians over rounds`,
        "All use Node's global `fetch` (undici) with its default keep-alive agent",
      ],
      rows,
      details,
      notes,
      durationMs: now() - started,
    };
  } finally {
    await server.close();
  }
}
