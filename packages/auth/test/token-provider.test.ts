import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createTokenProvider,
  DEFAULT_MEMORY_CACHE_ENTRIES,
  DiscoveryError,
  DrillInvalidOptionError,
  MemoryTokenCache,
  type ServiceAccountKey,
  type TokenCache,
  TokenExchangeError,
  type TokenProviderOptions,
  TokenRequestAbortedError,
} from "../src/index.js";
import { key, providerFor as provider } from "./fixtures/token-provider.js";
import {
  CREDENTIALS,
  FakeAuthServer,
  type FetchInput,
  json,
  KEY_ID,
  rsaKeyPair,
  SERVICE_ACCOUNT_ID,
  settleWithFakeTimers,
} from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("assertion", () => {
  it("has exactly the documented header and claims, and verifies against the public key", async () => {
    const server = new FakeAuthServer();
    const now = Date.parse("2031-01-02T03:04:05.678Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    const token = await provider(server, { clock: { now: () => now } }).getToken();
    expect(token.value).toBe(server.issued[0]);
    const [request] = server.tokenRequests;
    const assertion = request?.form.get("assertion") ?? "";
    expect(decodeProtectedHeader(assertion)).toEqual({ alg: "RS256", typ: "JWT", kid: KEY_ID });
    expect(decodeJwt(assertion)).toEqual({
      iss: SERVICE_ACCOUNT_ID,
      sub: SERVICE_ACCOUNT_ID,
      aud: server.tokenEndpoint,
      exp: Math.floor(now / 1000) + 300,
    });
    const verified = await jwtVerify(assertion, await importSPKI(rsaKeyPair().spki, "RS256"), {
      algorithms: ["RS256"],
      issuer: SERVICE_ACCOUNT_ID,
      subject: SERVICE_ACCOUNT_ID,
      audience: server.tokenEndpoint,
      currentDate: new Date(now),
    });
    expect(verified.payload.exp).toBe(Math.floor(now / 1000) + 300);
    // A signature by another key does not verify.
    await expect(
      jwtVerify(assertion, await importSPKI(rsaKeyPair(2048, "other").spki, "RS256"), {
        currentDate: new Date(now),
      }),
    ).rejects.toThrow(/signature/);
  });

  it("puts a managed user's ID, email or third-party ID into sub and keeps iss", async () => {
    const server = new FakeAuthServer();
    const p = provider(server);
    for (const subject of ["user-42", "pat@example.com", "ext|9981"]) await p.getToken({ subject });
    expect(server.tokenRequests.map((r) => [r.claims.iss, r.claims.sub])).toEqual([
      [SERVICE_ACCOUNT_ID, "user-42"],
      [SERVICE_ACCOUNT_ID, "pat@example.com"],
      [SERVICE_ACCOUNT_ID, "ext|9981"],
    ]);
  });

  it("never puts exp more than 3600 s ahead, whatever the lifetime", async () => {
    const server = new FakeAuthServer({ sendDate: false });
    const now = 1_900_000_000_500;
    await provider(server, { assertionLifetimeSeconds: 3600, clock: { now: () => now } }).getToken();
    const exp = server.tokenRequests[0]?.claims.exp as number;
    expect(exp).toBe(1_900_000_000 + 3600);
    expect(exp * 1000 - now).toBeLessThanOrEqual(3600 * 1000);
  });

  it.each([0, 3601, 1.5, -1, Number.NaN, "300"])("rejects assertionLifetimeSeconds = %j", (value) => {
    const server = new FakeAuthServer();
    expect(() => provider(server, { assertionLifetimeSeconds: value as number })).toThrow(
      "Invalid option assertionLifetimeSeconds: must be a whole number of seconds from 1 to 3600",
    );
  });

  it("uses the server clock from the Date header for exp", async () => {
    // The server runs 2 minutes ahead; discovery reveals it before the first assertion.
    const server = new FakeAuthServer({ clockOffsetMs: 120_000 });
    const now = Date.parse("2031-01-02T03:04:05.000Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    await provider(server).getToken();
    expect(server.tokenRequests[0]?.claims.exp).toBe(Math.floor((now + 120_000) / 1000) + 300);
  });

  it("bounds the learned clock offset to 15 minutes", async () => {
    const server = new FakeAuthServer({ clockOffsetMs: 2 * 3_600_000, verify: false });
    const now = Date.parse("2031-01-02T03:04:05.000Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    await provider(server).getToken();
    const exp = decodeJwt(server.tokenRequests[0]?.form.get("assertion") ?? "").exp;
    expect(exp).toBe(Math.floor((now + 900_000) / 1000) + 300);
  });

  it("learns the offset from token responses when discovery is skipped", async () => {
    const server = new FakeAuthServer({ clockOffsetMs: -60_000, verify: false });
    const now = Date.parse("2031-01-02T03:04:05.000Z");
    vi.useFakeTimers({ toFake: ["Date"], now });
    const p = provider(server, { tokenEndpoint: server.tokenEndpoint });
    await p.getToken();
    await p.getToken({ forceRefresh: true });
    const exps = server.tokenRequests.map((r) => decodeJwt(r.form.get("assertion") ?? "").exp);
    expect(exps).toEqual([Math.floor(now / 1000) + 300, Math.floor((now - 60_000) / 1000) + 300]);
  });
});

describe("token endpoint", () => {
  it("is discovered once and used as aud", async () => {
    const server = new FakeAuthServer({ tokenEndpoint: "https://login.other-host.test/oauth2/token" });
    const p = provider(server);
    expect(await p.tokenEndpoint()).toBe("https://login.other-host.test/oauth2/token");
    await p.getToken();
    await p.getToken({ subject: "u1" });
    await p.getToken({ subject: "u2", forceRefresh: true });
    expect(server.discoveryCalls).toBe(1);
    expect(server.tokenRequests.map((r) => [r.url, r.claims.aud])).toEqual(
      Array(3).fill([server.tokenEndpoint, server.tokenEndpoint]),
    );
    expect(new Request(server.fetch.mock.calls[0]?.[0] as FetchInput).url).toBe(
      "https://drill.test/.well-known/oauth-authorization-server",
    );
  });

  it("is taken from tokenEndpoint without discovery, and used as aud", async () => {
    const server = new FakeAuthServer({ tokenEndpoint: "https://override.test/token" });
    const p = provider(server, { baseUrl: undefined, tokenEndpoint: "https://override.test/token" });
    await p.getToken();
    expect(server.discoveryCalls).toBe(0);
    expect(server.tokenRequests[0]?.claims.aud).toBe("https://override.test/token");
  });

  it("handles a base URL with a path and a trailing slash", async () => {
    const server = new FakeAuthServer({ baseUrl: "https://drill.test/prefix" });
    await provider(server, { baseUrl: "https://drill.test/prefix/" }).getToken();
    expect(server.discoveryCalls).toBe(1);
  });

  it.each([
    ["an HTTP error", () => json({}, { status: 404 }), /answered HTTP 404/],
    ["a non-JSON body", () => new Response("<html>"), /is not JSON/],
    ["a non-object", () => json(["x"]), /not a JSON object/],
    ["no token_endpoint", () => json({ issuer: "x" }), /has no "token_endpoint"/],
    ["a numeric token_endpoint", () => json({ token_endpoint: 5 }), /"token_endpoint" .* is not a string/],
    [
      "a relative token_endpoint",
      () => json({ token_endpoint: "/daas/oauth/token" }),
      /not an absolute http\(s\) URL/,
    ],
    [
      "a non-http token_endpoint",
      () => json({ token_endpoint: "ftp://x/token" }),
      /not an absolute http\(s\) URL/,
    ],
  ])("fails clearly on %s, and tries again next time", async (_name, metadata, pattern) => {
    const server = new FakeAuthServer();
    server.metadata = metadata;
    const p = provider(server);
    const error = await p.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect(error).toMatchObject({
      code: "ERR_DISCOVERY",
      url: "https://drill.test/.well-known/oauth-authorization-server",
    });
    expect((error as Error).message).toMatch(pattern);
    expect(server.tokenRequests).toHaveLength(0);
    server.metadata = undefined;
    await expect(p.getToken()).resolves.toBeDefined();
    expect(server.discoveryCalls).toBe(2);
  });

  it("fails clearly when the metadata document cannot be fetched", async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError("fetch failed");
    });
    const p = createTokenProvider({
      baseUrl: "https://drill.test",
      ...CREDENTIALS,
      key,
      fetch,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
    await expect(p.getToken()).rejects.toThrow(
      "token endpoint discovery at https://drill.test/.well-known/oauth-authorization-server failed: " +
        "could not fetch the metadata document: GET https://drill.test/.well-known/oauth-authorization-server " +
        "failed without a response after 2 attempts: fetch failed",
    );
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("is discovered again after the token endpoint answers 404", async () => {
    const server = new FakeAuthServer();
    server.respond = (_record, index) =>
      index === 0 ? json({ error: "not_found" }, { status: 404 }) : undefined;
    const p = provider(server);
    await expect(p.getToken()).rejects.toBeInstanceOf(TokenExchangeError);
    await p.getToken();
    expect(server.discoveryCalls).toBe(2);
  });
});

describe("cache", () => {
  it("keeps one token per subject", async () => {
    const server = new FakeAuthServer();
    const p = provider(server);
    const a1 = await p.getToken();
    const a2 = await p.getToken();
    const u1 = await p.getToken({ subject: "user-1" });
    const u2 = await p.getToken({ subject: "user-1" });
    const b = await p.getToken({ subject: "user-2" });
    expect(a2.value).toBe(a1.value);
    expect(u2.value).toBe(u1.value);
    expect(new Set([a1.value, u1.value, b.value]).size).toBe(3);
    expect(server.tokenRequests.map((r) => r.claims.sub)).toEqual([SERVICE_ACCOUNT_ID, "user-1", "user-2"]);
    expect([a1.subject, u1.subject, b.subject]).toEqual([SERVICE_ACCOUNT_ID, "user-1", "user-2"]);
  });

  it("uses the provider's default subject", async () => {
    const server = new FakeAuthServer();
    const token = await provider(server, { subject: "pat@example.com" }).getToken();
    expect(token.subject).toBe("pat@example.com");
    expect(server.tokenRequests[0]?.claims.sub).toBe("pat@example.com");
  });

  it("drops a subject's token on invalidate and exchanges on forceRefresh", async () => {
    const server = new FakeAuthServer();
    const p = provider(server);
    const first = await p.getToken({ subject: "user-1" });
    const other = await p.getToken();
    await p.invalidate("user-1");
    const second = await p.getToken({ subject: "user-1" });
    expect(second.value).not.toBe(first.value);
    expect((await p.getToken()).value).toBe(other.value);
    const forced = await p.getToken({ forceRefresh: true });
    expect(forced.value).not.toBe(other.value);
    expect((await p.getToken()).value).toBe(forced.value);
    expect(server.tokenRequests).toHaveLength(4);
  });

  it("refreshes eagerly refreshMarginSeconds before expiry, counted from the response's arrival", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "Date"],
      now: Date.parse("2031-01-01T00:00:00Z"),
    });
    const server = new FakeAuthServer({ expiresIn: 3599, verify: false });
    // The first answer takes 5 s to arrive; expiry counts from its arrival.
    const answer = server.fetch.getMockImplementation() as typeof globalThis.fetch;
    let sentAt: number | undefined;
    server.fetch.mockImplementation(async (input: FetchInput, init?: RequestInit) => {
      const response = await answer(input, init);
      if (sentAt === undefined && (input as Request).method === "POST") {
        sentAt = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
      return response;
    });
    const p = provider(server, { refreshMarginSeconds: 60 });
    const first = await settleWithFakeTimers(p.getToken());
    expect(first.receivedAt - (sentAt as number)).toBe(5000);
    expect(first.expiresAt).toBe(first.receivedAt + 3599_000);

    vi.setSystemTime(first.receivedAt + (3599 - 60) * 1000 - 1);
    expect((await p.getToken()).value).toBe(first.value);
    expect(server.tokenRequests).toHaveLength(1);

    vi.setSystemTime(first.receivedAt + (3599 - 60) * 1000);
    const second = await settleWithFakeTimers(p.getToken());
    expect(second.value).not.toBe(first.value);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("uses at most half the lifetime as margin for short-lived tokens", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-01-01T00:00:00Z") });
    const server = new FakeAuthServer({ expiresIn: 40, verify: false });
    const p = provider(server, { refreshMarginSeconds: 60 });
    const first = await p.getToken();
    vi.setSystemTime(first.receivedAt + 19_999);
    expect((await p.getToken()).value).toBe(first.value);
    vi.setSystemTime(first.receivedAt + 20_000);
    expect((await p.getToken()).value).not.toBe(first.value);
  });

  it("makes 100 concurrent callers share exactly one exchange", async () => {
    const server = new FakeAuthServer();
    const p = provider(server);
    const tokens = await Promise.all(Array.from({ length: 100 }, () => p.getToken()));
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.discoveryCalls).toBe(1);
    expect(new Set(tokens.map((t) => t.value))).toEqual(new Set([server.issued[0]]));
    // Concurrent forced refreshes also share one exchange.
    await Promise.all(Array.from({ length: 20 }, () => p.getToken({ forceRefresh: true })));
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("shares one exchange per subject, not across subjects", async () => {
    const server = new FakeAuthServer();
    const p = provider(server);
    await Promise.all(Array.from({ length: 30 }, (_, i) => p.getToken({ subject: `user-${i % 3}` })));
    expect(server.tokenRequests.map((r) => r.claims.sub).sort()).toEqual(["user-0", "user-1", "user-2"]);
  });

  it("does not cache failures: every concurrent caller sees the error, the next call tries again", async () => {
    const server = new FakeAuthServer();
    server.respond = (_record, index) =>
      index === 0
        ? json({ error: "invalid_client", error_description: "unknown client" }, { status: 401 })
        : undefined;
    const p = provider(server);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => p.getToken()));
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({
      code: "ERR_TOKEN_EXCHANGE",
      status: 401,
      oauthError: "invalid_client",
      oauthErrorDescription: "unknown client",
    });
    expect(server.tokenRequests).toHaveLength(1);
    const token = await p.getToken();
    expect(token.value).toBe(server.issued[0]);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("retries a 503 from the provider and counts the attempts", async () => {
    const server = new FakeAuthServer();
    server.respond = (_record, index) => (index < 2 ? json({}, { status: 503 }) : undefined);
    const token = await provider(server, { retry: { initialDelayMs: 1, maxDelayMs: 2 } }).getToken();
    expect(token.value).toBe(server.issued[0]);
    expect(server.tokenRequests).toHaveLength(3);
  });

  it("lets several providers share tokens through a common cache", async () => {
    const server = new FakeAuthServer();
    const stored = new Map<string, { value: string; ttl: number }>();
    const cache: TokenCache = {
      get: async (k) => stored.get(k)?.value,
      set: async (k, value, ttl) => {
        stored.set(k, { value, ttl });
      },
      delete: async (k) => {
        stored.delete(k);
      },
    };
    const a = provider(server, { cache });
    const b = provider(server, { cache });
    const fromA = await a.getToken({ subject: "pat@example.com" });
    const fromB = await b.getToken({ subject: "pat@example.com" });
    expect(fromB.value).toBe(fromA.value);
    expect(server.tokenRequests).toHaveLength(1);
    const [[cacheKey, entry]] = [...stored.entries()] as [[string, { value: string; ttl: number }]];
    expect(cacheKey).toMatch(/^drill-practice:token:[0-9a-f]{64}$/);
    expect(cacheKey).not.toContain("pat@example.com");
    expect(entry.ttl).toBeGreaterThan(3590);
    expect(entry.ttl).toBeLessThanOrEqual(3599);
    // Invalidation through one provider is seen by the other.
    await b.invalidate("pat@example.com");
    expect(stored.size).toBe(0);
    expect((await a.getToken({ subject: "pat@example.com" })).value).not.toBe(fromA.value);
  });

  it("keeps separate entries for different clients in one cache", async () => {
    const server = new FakeAuthServer();
    const cache = new MemoryTokenCache();
    await provider(server, { cache }).getToken();
    await provider(server, { cache, clientId: "another-client" }).getToken();
    expect(cache.size).toBe(2);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("ignores unreadable cache entries and carries on when the cache fails", async () => {
    const server = new FakeAuthServer();
    const errors: string[] = [];
    const broken: TokenCache = {
      get: () => {
        throw new Error("cache down");
      },
      set: async () => {
        throw new Error("cache down");
      },
      delete: () => undefined,
    };
    const p = provider(server, { cache: broken, onCacheError: (_e, op) => errors.push(op) });
    await p.getToken();
    expect(errors).toEqual(["get", "get", "set"]);
    const garbage: TokenCache = { get: () => "{not json", set: () => undefined, delete: () => undefined };
    await provider(server, { cache: garbage }).getToken();
    expect(server.tokenRequests).toHaveLength(2);
  });
});

describe("options", () => {
  const server = new FakeAuthServer();
  it.each<[string, Partial<TokenProviderOptions>, string]>([
    ["clientId", { clientId: "" }, "Invalid option clientId: must be a non-empty string"],
    ["clientSecret", { clientSecret: undefined as unknown as string }, "Invalid option clientSecret"],
    ["key", { key: {} as ServiceAccountKey }, "Invalid option key: must be a ServiceAccountKey"],
    ["baseUrl", { baseUrl: "drill.test" }, "Invalid option baseUrl: must be an absolute http(s) URL"],
    ["baseUrl with credentials", { baseUrl: "https://u:p@drill.test" }, "Invalid option baseUrl"],
    ["tokenEndpoint", { tokenEndpoint: "/token" }, "Invalid option tokenEndpoint"],
    [
      "no URL at all",
      { baseUrl: undefined },
      "Invalid option baseUrl: is required unless tokenEndpoint is given",
    ],
    ["subject", { subject: "" }, "Invalid option subject: must be a non-empty string"],
    ["refreshMarginSeconds", { refreshMarginSeconds: -1 }, "Invalid option refreshMarginSeconds"],
    ["cache", { cache: { get: () => undefined } as unknown as TokenCache }, "Invalid option cache"],
    ["retry", { retry: { maxAttempts: 0 } }, "Invalid option retry.maxAttempts"],
    ["clock", { clock: {} as never }, "Invalid option clock"],
  ])("rejects a bad %s", (_name, override, message) => {
    const make = () => provider(server, override);
    expect(make).toThrow(DrillInvalidOptionError);
    expect(make).toThrow(message);
  });

  it("rejects an empty subject in getToken", async () => {
    await expect(provider(server).getToken({ subject: "" })).rejects.toThrow(
      "Invalid option subject: must be a non-empty string",
    );
  });
});

describe("abort and retry waits", () => {
  /** A server that answers the first `failures` token requests with 503. */
  function flaky(failures: number) {
    const server = new FakeAuthServer();
    server.respond = (_record, index) => (index < failures ? json({}, { status: 503 }) : undefined);
    return server;
  }

  it("stops waiting when the signal fires, during a retry wait, and caches nothing", async () => {
    const server = flaky(1);
    const sleeping = vi.spyOn(globalThis, "setTimeout");
    const p = provider(server, { retry: { initialDelayMs: 4000, maxDelayMs: 4000, random: () => 1 } });
    const controller = new AbortController();
    const started = Date.now();
    const pending = p.getToken({ signal: controller.signal });
    await vi.waitFor(() => expect(server.tokenRequests).toHaveLength(1));
    // The 4 s wait before the retry keeps the process alive while a caller awaits it
    // (an unref'd timer let `node` exit with the promise pending: issue #11).
    const wait = sleeping.mock.calls.findIndex(([, ms]) => ms === 4000);
    expect(wait).toBeGreaterThanOrEqual(0);
    const timer = sleeping.mock.results[wait]?.value as NodeJS.Timeout | undefined;
    expect(timer?.hasRef()).toBe(true);
    sleeping.mockRestore();

    controller.abort(new Error("shutting down"));
    const error = await pending.catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(TokenRequestAbortedError);
    expect(error).toMatchObject({ name: "AbortError", code: "ERR_ABORTED" });
    expect((error as Error).message).toBe("the wait for an access token was aborted by the caller's signal");
    expect(((error as Error).cause as Error).message).toBe("shutting down");
    // The abandoned exchange did not go on, and nothing was cached: the next call exchanges.
    server.respond = undefined;
    const token = await p.getToken();
    expect(token.value).toBe(server.issued[0]);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("rejects at once for an aborted signal, and with a clear error for a non-signal", async () => {
    const server = new FakeAuthServer();
    const p = provider(server);
    await expect(p.getToken({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "ERR_ABORTED" });
    await expect(p.getToken({ signal: {} as AbortSignal })).rejects.toThrow("Invalid option signal");
    expect(server.tokenRequests).toHaveLength(0);
  });

  it("keeps a shared exchange going for the callers that still wait", async () => {
    const server = flaky(1);
    const p = provider(server, { retry: { initialDelayMs: 50, maxDelayMs: 50, random: () => 1 } });
    const controller = new AbortController();
    const leaving = p.getToken({ signal: controller.signal });
    const staying = p.getToken();
    await vi.waitFor(() => expect(server.tokenRequests).toHaveLength(1));
    controller.abort();
    await expect(leaving).rejects.toMatchObject({ name: "AbortError" });
    expect((await staying).value).toBe(server.issued[0]);
    expect(server.tokenRequests).toHaveLength(2);
    // And that token is cached.
    expect((await p.getToken()).value).toBe(server.issued[0]);
    expect(server.tokenRequests).toHaveLength(2);
  });
});

describe("MemoryTokenCache bound", () => {
  it("keeps at most maxEntries entries, dropping the least recently used first", () => {
    const cache = new MemoryTokenCache({ maxEntries: 3 });
    for (const key of ["a", "b", "c"]) cache.set(key, `value-${key}`, 3600);
    expect(cache.get("a")).toBe("value-a"); // "a" is now the most recently used
    cache.set("d", "value-d", 3600);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect(["a", "c", "d"].map((key) => cache.get(key))).toEqual(["value-a", "value-c", "value-d"]);
  });

  it("defaults to DEFAULT_MEMORY_CACHE_ENTRIES and rejects a bad bound", () => {
    const cache = new MemoryTokenCache();
    const count = DEFAULT_MEMORY_CACHE_ENTRIES + 50;
    for (let i = 0; i < count; i++) cache.set(`subject-${i}`, "token", 3600);
    expect(cache.size).toBe(DEFAULT_MEMORY_CACHE_ENTRIES);
    expect(cache.get("subject-0")).toBeUndefined();
    expect(cache.get(`subject-${count - 1}`)).toBe("token");
    for (const bad of [0, 1.5, -1, "10"]) {
      expect(() => new MemoryTokenCache({ maxEntries: bad as number })).toThrow("Invalid option maxEntries");
    }
  });
});

describe("MemoryTokenCache clock", () => {
  it("expires entries by the clock it is given", () => {
    let now = Date.parse("2031-01-01T00:00:00Z");
    const cache = new MemoryTokenCache({ clock: { now: () => now } });
    cache.set("k", "v", 10);
    now += 9_999;
    expect(cache.get("k")).toBe("v");
    now += 1;
    expect(cache.get("k")).toBeUndefined();
    expect(() => new MemoryTokenCache({ clock: {} as never })).toThrow("Invalid option clock");
  });

  it("is the provider's default cache, on the provider's clock rather than Date.now()", async () => {
    // The provider's clock stands still while the system clock runs two hours ahead.
    const frozen = Date.parse("2031-01-01T00:00:00Z");
    vi.useFakeTimers({ toFake: ["Date"], now: frozen });
    const server = new FakeAuthServer({ verify: false, expiresIn: 3599 });
    const p = provider(server, { clock: { now: () => frozen } });
    const first = await p.getToken();
    vi.setSystemTime(frozen + 2 * 3600_000);
    // By the provider's clock the token is fresh, so the cache must still hold it.
    expect((await p.getToken()).value).toBe(first.value);
    expect(server.tokenRequests).toHaveLength(1);
  });
});
