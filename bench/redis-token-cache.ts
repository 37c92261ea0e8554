/**
 * Redis token cache: single flight across processes (8 processes × 250 concurrent requests,
 * cold, against a token endpoint that holds each exchange 50 ms), next to the same processes
 * with only their in-memory caches; cached lookup through Redis next to the in-memory cache;
 * and the requests that fail while Redis is killed and restarted mid-burst.
 */
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { createRedisTokenCache } from "@drill-practice/auth/redis";
import type { WorkerConfig, WorkerResult } from "../packages/auth/test/fixtures/redis-worker.ts";
import { runWorkers, spawnWorker } from "../packages/auth/test/fixtures/spawn-workers.ts";
import { findRedisServer, startRedisServer } from "../packages/auth/test/redis-server.ts";
import { createBenchKey, LOOPBACK_CLIENT, type LoopbackStats, startLoopbackServer } from "./fixtures.ts";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import { formatMs, formatRatio, median, now, p99, timeEach } from "./stats.ts";

const PROCESSES = 8;
const SUBJECTS_PER_PROCESS = 2;
/** Concurrent requests per subject in each process: 2 × 125 = 250 per process. */
const CONCURRENCY = 125;
const EXCHANGE_DELAY_MS = 50;
const LOOKUPS = { maxCount: 3000, maxMs: 3000, minCount: 200 } as const;
const KILL_PROCESSES = 4;
const KILL_RUN_MS = 6000;

function subjects(phase: string): string[] {
  return Array.from({ length: SUBJECTS_PER_PROCESS }, (_, i) =>
    i === 0 ? `${phase}-svc` : `${phase}-user-${i}@example.com`,
  );
}

function firstTokenTimes(results: readonly WorkerResult[]): number[] {
  return results.map((result) => result.firstTokenMs);
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const title = "Redis token cache: one exchange across processes";
  const measured =
    "Exchanges per subject and time to the first token when 8 cold processes start at once and share " +
    "`@drill-practice/auth/redis`, next to the same processes with only their own in-memory caches; " +
    "a cached `getToken` through Redis next to one from the in-memory cache; requests failed while Redis " +
    "is killed and restarted.";
  if (findRedisServer() === undefined) {
    return {
      name: "redis-token-cache",
      title,
      measured,
      setup: [],
      rows: [],
      details: [],
      notes: ["Not measured: redis-server is not installed (`apt-get install -y redis-server`)."],
      durationMs: now() - started,
    };
  }
  const key = createBenchKey();
  const server = await startLoopbackServer(key, { exchangeDelayMs: EXCHANGE_DELAY_MS });
  const redis = await startRedisServer();
  try {
    const tokenEndpoint = `${server.ready.url}/daas/oauth/token`;
    const base: WorkerConfig = {
      tokenEndpoint,
      ...LOOPBACK_CLIENT,
      keyFile: JSON.parse(key.keyFileJson) as Record<string, unknown>,
      subjects: [],
      concurrency: CONCURRENCY,
    };
    const stats = () => server.request<LoopbackStats>({ type: "stats" });

    // Reference: the same burst, each process with only its own in-memory cache.
    await server.request({ type: "reset" });
    const referenceSubjects = subjects("memory");
    const reference = await runWorkers(PROCESSES, { ...base, subjects: referenceSubjects });
    const referenceStats = await stats();

    await server.request({ type: "reset" });
    const sharedSubjects = subjects("redis");
    const shared = await runWorkers(PROCESSES, { ...base, subjects: sharedSubjects, redisUrl: redis.url });
    const sharedStats = await stats();

    // Cached lookups in this process: through Redis (GET + unseal) and from memory.
    const parsedKey = await parseServiceAccountKey(key.keyFileJson);
    const cache = await createRedisTokenCache({
      url: redis.url,
      clientSecret: LOOPBACK_CLIENT.clientSecret,
      keyId: parsedKey.keyId,
    });
    const viaRedis = createTokenProvider({ tokenEndpoint, ...LOOPBACK_CLIENT, key: parsedKey, cache });
    const inMemory = createTokenProvider({ tokenEndpoint, ...LOOPBACK_CLIENT, key: parsedKey });
    await Promise.all([viaRedis.getToken(), inMemory.getToken()]);
    await timeEach({ maxCount: 200, maxMs: 1000 }, () => viaRedis.getToken()); // warm-up
    await timeEach({ maxCount: 200, maxMs: 1000 }, () => inMemory.getToken());
    const redisLookups = await timeEach(LOOKUPS, () => viaRedis.getToken());
    const memoryLookups = await timeEach(LOOKUPS, () => inMemory.getToken());
    await cache.close();

    // Redis killed (SIGKILL) mid-burst and restarted empty, while processes keep asking, with
    // a never-seen subject every round so that exchanges (and the lock) are needed throughout.
    const killConfig: WorkerConfig = {
      ...base,
      redisUrl: redis.url,
      subjects: subjects("kill"),
      concurrency: 20,
      durationMs: KILL_RUN_MS,
      newSubjectsPerRound: 1,
      timeoutMs: 300,
      retryAfterMs: 300,
    };
    const killWorkers = Array.from({ length: KILL_PROCESSES }, () => spawnWorker(killConfig));
    await Promise.all(killWorkers.map((worker) => worker.ready));
    for (const worker of killWorkers) worker.go();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await redis.stop("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await redis.start();
    const killResults = await Promise.all(killWorkers.map((worker) => worker.result));
    const killRequests = killResults.reduce((n, r) => n + r.requests, 0);
    const killFailures = killResults.reduce((n, r) => n + r.failures, 0);
    const killMaxMs = Math.max(...killResults.map((r) => r.maxRequestMs));

    const rows: ResultRow[] = [];
    for (const [i, subject] of sharedSubjects.entries()) {
      const count = sharedStats.exchanges[subject] ?? 0;
      const referenceCount = referenceStats.exchanges[referenceSubjects[i] as string] ?? 0;
      rows.push({
        metric: `Exchanges for subject ${i + 1} of ${SUBJECTS_PER_PROCESS}, ${PROCESSES} processes × ${CONCURRENCY} concurrent requests`,
        ours: String(count),
        reference: `${referenceCount} (in-memory caches only)`,
        ratio: formatRatio(count / referenceCount),
        target: "exactly 1",
        verdict: count === 1 ? "met" : "missed",
        ...(count === 1 ? {} : { miss: `${count} exchanges` }),
        headline: true,
      });
    }
    const sharedFirst = firstTokenTimes(shared);
    const referenceFirst = firstTokenTimes(reference);
    rows.push(
      {
        metric: "Time to the first token in a process, median of 8 (cold, includes connecting to Redis)",
        ours: formatMs(median(sharedFirst)),
        reference: `${formatMs(median(referenceFirst))} (in-memory caches only)`,
        ratio: formatRatio(median(sharedFirst) / median(referenceFirst)),
        target: "—",
        verdict: "info",
      },
      {
        metric: "Time to the first token in a process, slowest of 8",
        ours: formatMs(Math.max(...sharedFirst)),
        reference: `${formatMs(Math.max(...referenceFirst))} (in-memory caches only)`,
        ratio: formatRatio(Math.max(...sharedFirst) / Math.max(...referenceFirst)),
        target: "—",
        verdict: "info",
      },
      {
        metric: "Cached `getToken` through Redis, median",
        ours: formatMs(median(redisLookups)),
        reference: `${formatMs(median(memoryLookups))} (in-memory cache)`,
        ratio: formatRatio(median(redisLookups) / median(memoryLookups)),
        target: "—",
        verdict: "info",
        headline: true,
      },
      {
        metric: "Cached `getToken` through Redis, p99",
        ours: formatMs(p99(redisLookups)),
        reference: `${formatMs(p99(memoryLookups))} (in-memory cache)`,
        ratio: formatRatio(p99(redisLookups) / p99(memoryLookups)),
        target: "—",
        verdict: "info",
      },
      {
        metric: `Failed requests while Redis is killed and restarted (${killRequests.toLocaleString("en-US")} requests, ${KILL_PROCESSES} processes)`,
        ours: String(killFailures),
        reference: "—",
        ratio: "—",
        target: "0",
        verdict: killFailures === 0 ? "met" : "missed",
        ...(killFailures === 0 ? {} : { miss: `${killFailures} failed` }),
        headline: true,
      },
      {
        metric: "Slowest request during the Redis kill run",
        ours: formatMs(killMaxMs),
        reference: "—",
        ratio: "—",
        target: "—",
        verdict: "info",
      },
    );
    const details: DetailTable[] = [
      {
        title: "Per process, cold burst through Redis",
        headers: ["process", "requests", "failed", "first token", "distinct tokens"],
        rows: shared.map((result, i) => [
          String(i + 1),
          String(result.requests),
          String(result.failures),
          formatMs(result.firstTokenMs),
          String(new Set(Object.values(result.tokens).flat()).size),
        ]),
      },
    ];
    return {
      name: "redis-token-cache",
      title,
      measured,
      setup: [
        `${PROCESSES} processes (node + tsx), started together after each has loaded; ${SUBJECTS_PER_PROCESS} subjects × ${CONCURRENCY} concurrent \`getToken\` calls each`,
        `loopback token endpoint in a child process holding each exchange ${EXCHANGE_DELAY_MS} ms; Debian redis-server on loopback, no persistence`,
        "store defaults (lock TTL 5 s, poll 250 ms, call timeout 1 s); kill run: timeout and retry-after 300 ms, Redis SIGKILLed at 1.5 s and restarted 1.5 s later",
        `cached lookups: up to ${LOOKUPS.maxCount} sequential calls each, after a warm-up`,
      ],
      rows,
      details,
      notes: [
        "Time to the first token includes, for the Redis run, connecting to Redis and waiting for the one process that exchanges. In the reference every process signs an assertion and exchanges it; in the Redis run one does and the others wait for its release message, which on a machine with fewer cores than processes can be the quicker of the two.",
        "A cached lookup through Redis is a loopback round trip plus AES-GCM decryption per call; that is the price of seeing another process's refresh or invalidation at once.",
      ],
      durationMs: now() - started,
    };
  } finally {
    await redis.close();
    await server.close();
  }
}
