/**
 * Redis token cache: cold first tokens in 8 processes and cached lookups through
 * `@drill-practice/auth/redis`, next to in-memory caches (bench/README.md says which behaviour is a test).
 */
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { createRedisTokenCache } from "@drill-practice/auth/redis";
import type { WorkerConfig } from "../packages/auth/test/fixtures/redis-worker.ts";
import { runWorkers } from "../packages/auth/test/fixtures/spawn-workers.ts";
import { findRedisServer, startRedisServer } from "../packages/auth/test/redis-server.ts";
import { type BenchKey, createBenchKey, LOOPBACK_CLIENT, startLoopbackServer } from "./fixtures.ts";
import { type BenchmarkResult, compared, fmt, info, median, p99, rounds, timed } from "./harness.ts";

const PROCESSES = 8;
const CONCURRENCY = 125;
const EXCHANGE_DELAY_MS = 50;

/** Cached lookups in this process: through Redis (a GET and an unseal per call) and from memory. */
async function lookups(key: BenchKey, tokenEndpoint: string, redisUrl: string) {
  const parsedKey = await parseServiceAccountKey(key.keyFileJson);
  const { clientSecret } = LOOPBACK_CLIENT;
  const cache = await createRedisTokenCache({ url: redisUrl, clientSecret, keyId: parsedKey.keyId });
  try {
    const viaRedis = createTokenProvider({ tokenEndpoint, ...LOOPBACK_CLIENT, key: parsedKey, cache });
    const inMemory = createTokenProvider({ tokenEndpoint, ...LOOPBACK_CLIENT, key: parsedKey });
    await Promise.all([viaRedis.getToken(), inMemory.getToken()]);
    const tasks = { redis: () => viaRedis.getToken(), memory: () => inMemory.getToken() };
    return await rounds(tasks, { rounds: 3, timeMs: 500, calls: 10 });
  } finally {
    await cache.close();
  }
}

/** Time to the first token in each of the processes, without and with the shared cache. */
async function firstTokens(key: BenchKey, tokenEndpoint: string, redisUrl: string) {
  const keyFile = JSON.parse(key.keyFileJson) as Record<string, unknown>;
  const base = { tokenEndpoint, ...LOOPBACK_CLIENT, keyFile, concurrency: CONCURRENCY };
  const firstTokenMs = async (config: WorkerConfig) =>
    (await runWorkers(PROCESSES, config)).map((worker) => worker.firstTokenMs);
  const reference = await firstTokenMs({ ...base, subjects: ["memory-svc", "memory-user-1@example.com"] });
  const ours = await firstTokenMs({ ...base, subjects: ["redis-svc", "redis-user-1@example.com"], redisUrl });
  return { ours, reference };
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("redis-token-cache", async () => {
    if (findRedisServer() === undefined)
      return {
        rows: [],
        notes: ["Not measured: redis-server is not installed (`apt-get install -y redis-server`)."],
      };
    const key = createBenchKey();
    const server = await startLoopbackServer(key, EXCHANGE_DELAY_MS);
    const redis = await startRedisServer();
    try {
      const tokenEndpoint = `${server.ready.url}/daas/oauth/token`;
      const { ours, reference } = await firstTokens(key, tokenEndpoint, redis.url);
      const cached = await lookups(key, tokenEndpoint, redis.url);
      const first = (stat: (values: number[]) => number) =>
        compared(stat(ours), stat(reference), fmt.ms, "in-memory caches only");
      const lookup = (stat: (values: number[]) => number, figure: "medians" | "samples") =>
        compared(stat(cached.redis[figure]), stat(cached.memory[figure]), fmt.ms, "in-memory cache");
      return {
        setup: [
          `${PROCESSES} processes (node + tsx), started together after each has loaded; 2 subjects × ${CONCURRENCY} concurrent \`getToken\` calls each`,
          `loopback token endpoint in a child process holding each exchange ${EXCHANGE_DELAY_MS} ms; Debian redis-server on loopback, no persistence`,
          "cached lookups: tinybench, 3 interleaved rounds of 500 ms each after a warm-up round",
        ],
        rows: [
          info(
            `Time to the first token in a process, median of ${PROCESSES} (cold, includes connecting to Redis)`,
            first(median),
          ),
          info(
            `Time to the first token in a process, slowest of ${PROCESSES}`,
            first((v) => Math.max(...v)),
          ),
          info("Cached `getToken` through Redis, median", lookup(median, "medians"), true),
          info("Cached `getToken` through Redis, p99", lookup(p99, "samples")),
        ],
      };
    } finally {
      await redis.close();
      await server.close();
    }
  });
}
