/**
 * The Redis token store in one process: options, sealing, what it shows of itself, and
 * what happens when Redis is absent, frozen or restarted (real redis-server).
 */
import { inspect } from "node:util";
import { DrillInvalidOptionError } from "@drill-practice/client/internal";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisTokenCache, type TokenCacheWarning } from "../src/redis/index.js";
import { deriveStoreKeys, seal, unseal } from "../src/redis/seal.js";
import {
  type CountingTokenEndpoint,
  startCountingTokenEndpoint,
} from "./fixtures/counting-token-endpoint.js";
import { key, providerAtEndpoint } from "./fixtures/token-provider.js";
import { CLIENT_ID, CLIENT_SECRET } from "./helpers.js";
import { type RedisServer, redisAvailable, startRedisServer } from "./redis-server.js";

describe("sealing", () => {
  it("opens only what it sealed, under the same secret, key ID and context", async () => {
    const keys = await deriveStoreKeys(CLIENT_SECRET, "key-1");
    const sealed = await seal(keys.seal, "the token", "name-a");
    expect(sealed).not.toContain("the token");
    expect(await unseal(keys.seal, sealed, "name-a")).toBe("the token");
    // Another name, secret or key ID: nothing.
    expect(await unseal(keys.seal, sealed, "name-b")).toBeUndefined();
    expect(
      await unseal((await deriveStoreKeys("other secret", "key-1")).seal, sealed, "name-a"),
    ).toBeUndefined();
    expect(
      await unseal((await deriveStoreKeys(CLIENT_SECRET, "key-2")).seal, sealed, "name-a"),
    ).toBeUndefined();
    // Any changed character, and anything not sealed at all: nothing.
    for (let i = 3; i < sealed.length; i += 7) {
      const changed = `${sealed.slice(0, i)}${sealed[i] === "A" ? "B" : "A"}${sealed.slice(i + 1)}`;
      expect(await unseal(keys.seal, changed, "name-a")).toBeUndefined();
    }
    for (const garbage of [null, 42, "", "v1", "v1..", "v2.AAAA.BBBB", '{"v":"x","e":1}']) {
      expect(await unseal(keys.seal, garbage, "name-a")).toBeUndefined();
    }
  });

  it("seals the same text differently each time (random IV)", async () => {
    const keys = await deriveStoreKeys(CLIENT_SECRET, "key-1");
    expect(await seal(keys.seal, "same", "n")).not.toBe(await seal(keys.seal, "same", "n"));
  });
});

describe("createRedisTokenCache options", () => {
  const valid = { url: "redis://127.0.0.1:1", clientSecret: CLIENT_SECRET, keyId: "k" };
  it.each([
    [{ ...valid, clientSecret: "" }, "clientSecret"],
    [{ ...valid, keyId: undefined as unknown as string }, "keyId"],
    [{ ...valid, url: "http://127.0.0.1:6379" }, "url"],
    [{ clientSecret: CLIENT_SECRET, keyId: "k" }, "url"],
    [{ ...valid, client: {} as never }, "url"],
    [{ ...valid, timeoutMs: 0 }, "timeoutMs"],
    [{ ...valid, lockTtlMs: Number.NaN }, "lockTtlMs"],
    [{ ...valid, maxWaitMs: -1 }, "maxWaitMs"],
    [{ ...valid, onWarning: "log" as never }, "onWarning"],
  ])("rejects %o naming %s", async (options, option) => {
    const error = await createRedisTokenCache(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DrillInvalidOptionError);
    expect((error as DrillInvalidOptionError).option).toBe(option);
    expect((error as Error).message).not.toContain(CLIENT_SECRET);
  });

  it("shows no secret and no Redis password in inspect, JSON or String", async () => {
    const cache = await createRedisTokenCache({ ...valid, url: "redis://user:pa55word-xyz@127.0.0.1:1" });
    for (const text of [
      inspect(cache, { depth: 5, showHidden: true }),
      JSON.stringify(cache),
      String(cache),
    ]) {
      expect(text).not.toContain(CLIENT_SECRET);
      expect(text).not.toContain("pa55word-xyz");
    }
    await cache.close();
  });
});

const hasRedis = redisAvailable();

describe.runIf(hasRedis)("Redis unavailable (real redis-server)", { timeout: 60_000 }, () => {
  let redis: RedisServer;
  let endpoint: CountingTokenEndpoint;

  beforeAll(async () => {
    redis = await startRedisServer();
    endpoint = await startCountingTokenEndpoint({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  });

  afterAll(async () => {
    await endpoint?.close();
    await redis?.close();
  });

  async function setup(url: string, options: { timeoutMs?: number; retryAfterMs?: number } = {}) {
    const warnings: TokenCacheWarning[] = [];
    const cache = await createRedisTokenCache({
      url,
      clientSecret: CLIENT_SECRET,
      keyId: key.keyId,
      onWarning: (warning) => warnings.push(warning),
      ...options,
    });
    const provider = providerAtEndpoint(endpoint.url, cache);
    return { cache, provider, warnings };
  }

  it("down from the start: tokens still come, one exchange per subject, one warning without secrets", async () => {
    const url = `redis://user:pw-${"z".repeat(8)}@127.0.0.1:${await closedLoopbackPort()}`;
    const { cache, provider, warnings } = await setup(url);
    const before = endpoint.issued.length;
    const started = performance.now();
    const tokens = await Promise.all(
      Array.from({ length: 20 }, () => provider.getToken({ subject: "down-1" })),
    );
    expect(new Set(tokens.map((t) => t.value)).size).toBe(1);
    expect((await provider.getToken({ subject: "down-1" })).value).toBe(tokens[0]?.value);
    expect(endpoint.issued.length - before).toBe(1);
    // A refused connection costs no timeout.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(warnings.map((w) => w.code)).toEqual(["ERR_TOKEN_CACHE_UNAVAILABLE"]);
    expect(warnings[0]?.message).not.toContain(`pw-${"z".repeat(8)}`);
    expect(cache.degraded).toBe(true);
    await cache.close();
  });

  it("frozen (answers nothing): every call is bounded by timeoutMs and requests still succeed", async () => {
    const { cache, provider, warnings } = await setup(redis.url, { timeoutMs: 300, retryAfterMs: 60_000 });
    const cached = await provider.getToken({ subject: "frozen-1" });
    redis.pause();
    try {
      const started = performance.now();
      // The cached one (from the copy in memory) and a never-seen subject (own exchange).
      const [again, other] = await Promise.all([
        provider.getToken({ subject: "frozen-1" }),
        provider.getToken({ subject: "frozen-2" }),
      ]);
      const elapsed = performance.now() - started;
      expect(again.value).toBe(cached.value);
      expect(other.subject).toBe("frozen-2");
      // One timeout (300 ms) plus an exchange on loopback, with slack for a busy machine.
      expect(elapsed).toBeLessThan(300 + 700);
      expect(warnings.map((w) => w.code)).toEqual(["ERR_TOKEN_CACHE_UNAVAILABLE"]);
      expect(warnings[0]?.message).toContain("300 ms");
      // Within retryAfterMs Redis is not asked again: no further wait at all.
      const quick = performance.now();
      await provider.getToken({ subject: "frozen-2" });
      expect(performance.now() - quick).toBeLessThan(100);
    } finally {
      redis.resume();
      await cache.close();
    }
  });

  it("slow (1.5 s to answer, as a starved process sees it): the default timeoutMs still shares, without a warning", async () => {
    const a = await setup(redis.url);
    const b = await setup(redis.url);
    // Both connected and ready, so that only the command below meets the slow Redis.
    await a.provider.getToken({ subject: "slow-0" });
    await b.provider.getToken({ subject: "slow-0" });
    const before = endpoint.issued.length;
    redis.pause();
    const resume = setTimeout(() => redis.resume(), 1500);
    try {
      const first = await a.provider.getToken({ subject: "slow-1" });
      const second = await b.provider.getToken({ subject: "slow-1" });
      expect(second.value).toBe(first.value);
      expect(endpoint.issued.length - before).toBe(1);
      expect([...a.warnings, ...b.warnings]).toEqual([]);
    } finally {
      clearTimeout(resume);
      redis.resume();
      await Promise.all([a.cache.close(), b.cache.close()]);
    }
  });

  it("restarted: sharing resumes once Redis answers again", async () => {
    const a = await setup(redis.url, { retryAfterMs: 100 });
    await a.provider.getToken({ subject: "resume-0" });
    await redis.stop();
    // During the outage: own exchange, kept in memory.
    const during = await a.provider.getToken({ subject: "resume-1" });
    expect(a.cache.degraded).toBe(true);
    await redis.start();
    // node-redis reconnects by the store's backoff (at most about 1 s); then the store shares again.
    const deadline = Date.now() + 10_000;
    let stored = false;
    while (!stored && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await a.provider.getToken({ subject: "resume-2", forceRefresh: true });
      stored = !a.cache.degraded;
    }
    expect(stored).toBe(true);
    const resumed = await a.provider.getToken({ subject: "resume-2" });
    const b = await setup(redis.url);
    const before = endpoint.issued.length;
    expect((await b.provider.getToken({ subject: "resume-2" })).value).toBe(resumed.value);
    expect(endpoint.issued.length).toBe(before);
    expect(during.value).toMatch(/^at-/);
    expect(a.warnings.filter((w) => w.code === "ERR_TOKEN_CACHE_UNAVAILABLE")).toHaveLength(1);
    await Promise.all([a.cache.close(), b.cache.close()]);
  });
});
