/**
 * The Redis token store against a real redis-server: sealed values, single flight
 * across spawned processes, take-over after a dead lock holder, and no failed request
 * while Redis is down.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisTokenCache, type RedisClientLike, type TokenCacheWarning } from "../src/redis/index.js";
import {
  type CountingTokenEndpoint,
  startCountingTokenEndpoint,
} from "./fixtures/counting-token-endpoint.js";
import type { WorkerConfig } from "./fixtures/redis-worker.js";
import { runWorkers, spawnWorker } from "./fixtures/spawn-workers.js";
import { key, providerAtEndpoint } from "./fixtures/token-provider.js";
import { CLIENT_ID, CLIENT_SECRET, keyFileObject } from "./helpers.js";
import { type RedisServer, redisAvailable, startRedisServer } from "./redis-server.js";

const hasRedis = redisAvailable();

describe.runIf(hasRedis)("Redis token cache (real redis-server)", { timeout: 120_000 }, () => {
  let redis: RedisServer;
  let endpoint: CountingTokenEndpoint;
  let admin: ReturnType<typeof createClient>;

  beforeAll(async () => {
    redis = await startRedisServer();
    endpoint = await startCountingTokenEndpoint({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    admin = createClient({ url: redis.url });
    admin.on("error", () => {});
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.close().catch(() => {});
    await endpoint?.close();
    await redis?.close();
  });

  const workerConfig = (overrides: Partial<WorkerConfig>): WorkerConfig => ({
    redisUrl: redis.url,
    tokenEndpoint: endpoint.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    keyFile: keyFileObject(),
    subjects: [],
    concurrency: 1,
    ...overrides,
  });

  /** Every key and value in Redis, as text. */
  async function dumpRedis(): Promise<string[]> {
    const texts: string[] = [];
    for await (const keys of admin.scanIterator({ COUNT: 100 })) {
      for (const name of keys) {
        texts.push(name);
        const type = await admin.type(name);
        if (type === "string") texts.push((await admin.get(name)) ?? "");
      }
    }
    return texts;
  }

  async function storeAndProvider(
    prefix: string,
    warnings: TokenCacheWarning[] = [],
    secret = CLIENT_SECRET,
  ) {
    const cache = await createRedisTokenCache({
      url: redis.url,
      clientSecret: secret,
      keyId: key.keyId,
      prefix,
      onWarning: (warning) => warnings.push(warning),
    });
    const provider = providerAtEndpoint(endpoint.url, cache);
    return { cache, provider };
  }

  it("stores nothing readable: no token, client secret or subject in any key or value", async () => {
    const subject = "pat.nguyen@example.com";
    const { cache, provider } = await storeAndProvider("t-secret:");
    const token = await provider.getToken({ subject });
    await cache.close();
    const texts = await dumpRedis();
    const ours = texts.filter((text) => text.startsWith("t-secret:"));
    expect(ours.length).toBeGreaterThan(0);
    const all = texts.join("\n");
    for (const secret of [token.value, CLIENT_SECRET, subject, encodeURIComponent(subject), "example.com"]) {
      expect(all).not.toContain(secret);
    }
    // Base64 spellings too: a value that merely encoded the token would still leak it.
    expect(all).not.toContain(Buffer.from(token.value).toString("base64").slice(0, 12));
  });

  it("shares a token between two stores with the same secret and key, and a second process reuses it", async () => {
    const before = endpoint.issued.length;
    const first = await storeAndProvider("t-share:");
    const second = await storeAndProvider("t-share:");
    const a = await first.provider.getToken({ subject: "share-1" });
    const b = await second.provider.getToken({ subject: "share-1" });
    expect(b.value).toBe(a.value);
    expect(endpoint.issued.length - before).toBe(1);
    await Promise.all([first.cache.close(), second.cache.close()]);
  });

  it("ignores and replaces a tampered value, and warns about it", async () => {
    const prefix = "t-tamper:";
    const warnings: TokenCacheWarning[] = [];
    const first = await storeAndProvider(prefix);
    const original = await first.provider.getToken({ subject: "tamper-1" });
    await first.cache.close();
    const [name] = (await dumpRedis()).filter((text) => text.startsWith(`${prefix}t:`));
    expect(name).toBeDefined();
    const sealed = (await admin.get(name as string)) as string;
    // Flip one character of the ciphertext: GCM must refuse it.
    const last = sealed.at(-2) === "A" ? "B" : "A";
    await admin.set(name as string, `${sealed.slice(0, -2)}${last}${sealed.slice(-1)}`, { PX: 60_000 });

    const before = endpoint.issued.length;
    const second = await storeAndProvider(prefix, warnings);
    const replaced = await second.provider.getToken({ subject: "tamper-1" });
    expect(replaced.value).not.toBe(original.value);
    expect(endpoint.issued.length - before).toBe(1);
    expect(warnings.map((w) => w.code)).toContain("ERR_TOKEN_CACHE_TAMPERED");
    // Replaced: a third store reads the new token without an exchange.
    const third = await storeAndProvider(prefix);
    expect((await third.provider.getToken({ subject: "tamper-1" })).value).toBe(replaced.value);
    expect(endpoint.issued.length - before).toBe(1);
    await Promise.all([second.cache.close(), third.cache.close()]);
  });

  it("does not use a value sealed under another client secret (a foreign value)", async () => {
    const prefix = "t-foreign:";
    const other = await storeAndProvider(prefix, [], "another-client-secret");
    // A value sealed by the other store, copied under a name this store reads, must not open.
    await other.provider.getToken({ subject: "foreign-1" });
    const [otherName] = (await dumpRedis()).filter((text) => text.startsWith(`${prefix}t:`));
    const foreignValue = (await admin.get(otherName as string)) as string;
    const mine = await storeAndProvider(prefix);
    const before = endpoint.issued.length;
    const token = await mine.provider.getToken({ subject: "foreign-1" });
    expect(endpoint.issued.length - before).toBe(1);
    const names = (await dumpRedis()).filter((text) => text.startsWith(`${prefix}t:`) && text !== otherName);
    expect(names).toHaveLength(1);
    await admin.set(names[0] as string, foreignValue, { PX: 60_000 });
    const warnings: TokenCacheWarning[] = [];
    const fresh = await storeAndProvider(prefix, warnings);
    const again = await fresh.provider.getToken({ subject: "foreign-1" });
    expect(again.value).not.toBe(token.value);
    expect(warnings.map((w) => w.code)).toContain("ERR_TOKEN_CACHE_TAMPERED");
    await Promise.all([other.cache.close(), mine.cache.close(), fresh.cache.close()]);
  });

  it("accepts a node-redis client of the caller's and leaves it open", async () => {
    const client = createClient({ url: redis.url });
    client.on("error", () => {});
    await client.connect();
    const typed: RedisClientLike = client;
    const cache = await createRedisTokenCache({
      client: typed,
      clientSecret: CLIENT_SECRET,
      keyId: key.keyId,
    });
    const provider = providerAtEndpoint(endpoint.url, cache);
    const token = await provider.getToken({ subject: "own-client" });
    expect(token.value).toMatch(/^at-/);
    await cache.close();
    expect(client.isReady).toBe(true);
    await client.close();
  });

  it("8 spawned processes × 3 subjects × 50 concurrent requests, cold: exactly one exchange per subject", async () => {
    const subjects = ["burst-sa", "burst-ana@example.com", "burst-bram"];
    const results = await runWorkers(8, workerConfig({ subjects, concurrency: 50 }));
    for (const result of results) {
      expect(result.failureMessages).toEqual([]);
      expect(result.requests).toBe(subjects.length * 50);
    }
    for (const subject of subjects) {
      expect(endpoint.exchanges.get(subject)).toBe(1);
      const seen = new Set(results.flatMap((result) => result.tokens[subject] ?? []));
      expect(seen.size).toBe(1);
    }
  });

  it("a lock holder killed mid-exchange: another process takes over within lockTtlMs + pollIntervalMs", async () => {
    const lockTtlMs = 1000;
    const pollIntervalMs = 100;
    const config = workerConfig({
      subjects: ["orphaned-lock"],
      lockTtlMs,
      pollIntervalMs,
      // Far beyond the bound: the take-over must come from the lock expiring, not from giving up.
      maxWaitMs: 30_000,
    });
    endpoint.setDelay(60_000);
    const holder = spawnWorker(config);
    const waiter = spawnWorker(config);
    await Promise.all([holder.ready, waiter.ready]);
    const arrived = endpoint.nextRequest();
    holder.go();
    expect(await arrived).toBe("orphaned-lock");
    endpoint.setDelay(0);
    // The holder has the lock and waits for its exchange; the waiter starts now.
    waiter.go();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const takeOver = endpoint.nextRequest().then(() => performance.now());
    const killedAt = performance.now();
    holder.child.kill("SIGKILL");
    const result = await waiter.result;
    const tookOver = (await takeOver) - killedAt;
    expect(result.failureMessages).toEqual([]);
    expect(endpoint.exchanges.get("orphaned-lock")).toBe(2);
    // The waiter did wait for the lock: the holder renewed it every lockTtlMs/3 while alive,
    // so it outlived the holder by at least two thirds of the TTL.
    expect(tookOver).toBeGreaterThan((lockTtlMs * 2) / 3 - 50);
    // Bound plus slack for a busy machine (process scheduling, one Redis round trip).
    expect(tookOver).toBeLessThan(lockTtlMs + pollIntervalMs + 1000);
  });

  it("Redis stopped mid-burst and restarted: no request fails or hangs, each process warns once", async () => {
    const config = workerConfig({
      subjects: ["outage-a", "outage-b"],
      concurrency: 10,
      durationMs: 6000,
      newSubjectsPerRound: 1,
      timeoutMs: 300,
      retryAfterMs: 300,
      maxWaitMs: 2000,
    });
    const workers = Array.from({ length: 4 }, () => spawnWorker(config));
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await redis.start();
    const results = await Promise.all(workers.map((worker) => worker.result));
    await admin.connect().catch(() => {});
    for (const result of results) {
      expect(result.failureMessages).toEqual([]);
      expect(result.requests).toBeGreaterThan(30);
      // Bounded: at worst the wait for another process's exchange (maxWaitMs), a few Redis
      // call timeouts and an exchange of its own, with slack for a loaded 2-core machine.
      expect(result.maxRequestMs).toBeLessThan(2000 + 4 * 300 + 4000);
      const unavailable = result.warnings.filter((w) => w.startsWith("ERR_TOKEN_CACHE_UNAVAILABLE"));
      expect(unavailable.length).toBeGreaterThanOrEqual(1);
      expect(unavailable.length).toBeLessThanOrEqual(2);
      for (const warning of result.warnings) expect(warning).not.toContain(CLIENT_SECRET);
    }
    // Sharing resumed: after the restart the workers stored tokens in Redis again.
    const stored = (await dumpRedis()).filter((text) => text.startsWith("drill-practice:tokens:t:"));
    expect(stored.length).toBeGreaterThan(0);
  });
});
