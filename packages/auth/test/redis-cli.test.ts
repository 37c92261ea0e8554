/**
 * `drill-token --cache redis://…`: concurrent shell invocations share one exchange.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CountingTokenEndpoint,
  startCountingTokenEndpoint,
} from "./fixtures/counting-token-endpoint.js";
import { CLIENT_ID, CLIENT_SECRET, keyFileObject } from "./helpers.js";
import { type RedisServer, redisAvailable, startRedisServer } from "./redis-server.js";
import { drillToken } from "./run-drill-token.js";

/** The one line the CLI prints when it falls back from Redis (README, "When Redis fails"). */
const FALLBACK_WARNING =
  /^drill-token: warning: Redis token cache unavailable \(.+\); this process uses its own cache and token exchanges until Redis answers again$/;

const hasRedis = redisAvailable();

describe.runIf(hasRedis)("drill-token --cache (real redis-server)", { timeout: 150_000 }, () => {
  let redis: RedisServer;
  let endpoint: CountingTokenEndpoint;
  const dir = scratchDirForAll("drill-token-redis-");
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedisServer();
    // A slow endpoint, so that the processes overlap while the first exchange runs.
    endpoint = await startCountingTokenEndpoint({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      delayMs: 300,
    });
    const keyFile = join(dir(), "sa.json");
    await writeFile(keyFile, JSON.stringify(keyFileObject()));
    env = { DRILL_CLIENT_ID: CLIENT_ID, DRILL_CLIENT_SECRET: CLIENT_SECRET, DRILL_KEY_FILE: keyFile };
  });

  afterAll(async () => {
    await endpoint?.close();
    await redis?.close();
  });

  it("20 concurrent processes with a cold cache: one exchange, the same token printed by all", async () => {
    // The tests run in random order under CI and share the endpoint: count only what this one issues.
    const before = endpoint.issued.length;
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        // Half name the cache with the flag, half with the environment variable.
        i % 2 === 0
          ? drillToken(["--token-endpoint", endpoint.url, "--cache", redis.url], env)
          : drillToken(["--token-endpoint", endpoint.url], { ...env, DRILL_TOKEN_CACHE: redis.url }),
      ),
    );
    for (const run of runs) {
      expect(run.code).toBe(0);
      // What matters is below: one exchange, one token. A process starved of CPU may still
      // see a late Redis call (its lock release, after the token was shared) miss the bound:
      // the README's documented fallback warning is the only output accepted, never a stack
      // trace or an error. A warning before the token was shared would show as a second exchange.
      for (const line of run.stderr.split("\n").filter((l) => l !== "")) {
        expect(line).toMatch(FALLBACK_WARNING);
      }
    }
    const issued = endpoint.issued.slice(before);
    expect(issued).toHaveLength(1);
    expect(new Set(runs.map((run) => run.stdout))).toEqual(new Set([`${issued[0]}\n`]));
  });

  it("Redis down: the token is still printed, with one warning that names no secret", async () => {
    const before = endpoint.issued.length;
    const url = `redis://user:hunter2-password@127.0.0.1:${await closedLoopbackPort()}`;
    const run = await drillToken(
      ["--token-endpoint", endpoint.url, "--cache", url, "--subject", "down-user"],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${endpoint.issued[before]}\n`);
    expect(run.stderr.split("\n").filter((line) => line !== "")).toEqual([
      expect.stringMatching(FALLBACK_WARNING),
    ]);
    expect(run.stderr).not.toContain("hunter2-password");
    expect(run.stderr).not.toContain(CLIENT_SECRET);
  });

  it("rejects a --cache value that is not a Redis URL, without repeating it", async () => {
    const run = await drillToken(["--token-endpoint", endpoint.url, "--cache", "http://secret-host/"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--cache (DRILL_TOKEN_CACHE) must be a redis:// or rediss:// URL");
    expect(run.stderr).not.toContain("secret-host");
  });
});
