/**
 * The token provider's cache reads, peekToken, shared exchanges (flights), callers
 * leaving with a signal, coordination through the store, and its bounded memory, as a
 * caller sees them through an injected token endpoint.
 */
import { getEventListeners } from "node:events";
import { decodeJwt } from "jose";
import { describe, expect, it, vi } from "vitest";
import {
  AccessToken,
  MemoryTokenCache,
  type TokenCache,
  TokenExchangeError,
  type TokenProviderOptions,
  TokenRequestAbortedError,
} from "../src/index.js";
import { serializeToken } from "../src/token-cache.js";
import { providerFor } from "./fixtures/token-provider.js";
import { FakeAuthServer, type FetchInput, json, SERVICE_ACCOUNT_ID } from "./helpers.js";

/** A provider with the token endpoint given (no discovery) and no retries, unless `options` say otherwise. */
function provider(server: FakeAuthServer, options: Partial<TokenProviderOptions> = {}) {
  return providerFor(server, {
    baseUrl: undefined,
    tokenEndpoint: server.tokenEndpoint,
    retry: false,
    ...options,
  });
}

function tokenResponse(value: string, expiresIn = 3599): Response {
  return json({ access_token: value, token_type: "bearer", expires_in: expiresIn });
}

/** Holds every token request until released; request i is then answered with token `tok-i`. */
function holdTokenRequests(server: FakeAuthServer): Array<() => void> {
  const release: Array<() => void> = [];
  server.respond = (_record, index) =>
    new Promise<Response>((resolve) => {
      release[index] = () => resolve(tokenResponse(`tok-${index}`));
    });
  return release;
}

/** Waits until the fake endpoint has received `count` token requests. */
async function requests(server: FakeAuthServer, count: number): Promise<void> {
  await vi.waitFor(() => expect(server.tokenRequests).toHaveLength(count));
}

/** The signal of each request the injected fetch was given. */
function requestSignals(server: FakeAuthServer): AbortSignal[] {
  return server.fetch.mock.calls.map(([input, init]) =>
    input instanceof Request ? input.signal : (init?.signal as AbortSignal),
  );
}

/** A plain call, then a forced refresh, each with its own token request held open. */
async function plainThenForcedInFlight(plainSignal?: AbortSignal) {
  const server = new FakeAuthServer({ verify: false });
  const release = holdTokenRequests(server);
  const p = provider(server);
  const plain = p.getToken(plainSignal ? { signal: plainSignal } : {});
  await requests(server, 1);
  const forced = p.getToken({ forceRefresh: true });
  await requests(server, 2);
  return { server, release, p, plain, forced };
}

/** Asks again with forceRefresh and expects that call to share the forced exchange in flight. */
async function expectForcedAgainJoins({
  server,
  release,
  p,
  forced,
}: Awaited<ReturnType<typeof plainThenForcedInFlight>>) {
  const again = p.getToken({ forceRefresh: true });
  release[1]?.();
  expect((await again).value).toBe("tok-1");
  expect((await forced).value).toBe("tok-1");
  expect(server.tokenRequests).toHaveLength(2);
}

/** Two callers, each with a signal of its own, sharing one token request held open. */
async function twoCallersOnOneHeldExchange() {
  const server = new FakeAuthServer({ verify: false });
  const release = holdTokenRequests(server);
  const p = provider(server);
  const a = new AbortController();
  const b = new AbortController();
  const first = p.getToken({ signal: a.signal });
  const second = p.getToken({ signal: b.signal });
  await requests(server, 1);
  return { server, release, p, a, b, first, second };
}

/** A store over a Map that counts its reads. */
function countingStore(asynchronous = false) {
  const entries = new Map<string, string>();
  const store = {
    entries,
    gets: 0,
    get(k: string) {
      store.gets++;
      const value = entries.get(k);
      return asynchronous ? Promise.resolve(value) : value;
    },
    set(k: string, value: string) {
      entries.set(k, value);
    },
    delete(k: string) {
      entries.delete(k);
    },
  };
  return store;
}

function storedToken(value: string, subject: string, receivedAt: number): string {
  return serializeToken(
    new AccessToken({
      response: { access_token: value, token_type: "bearer", expires_in: 3599 } as never,
      subject,
      receivedAt,
    }),
  );
}

describe("peekToken", () => {
  it("hands out the held token of the default subject and of a named one, and nothing for others", async () => {
    const server = new FakeAuthServer({ verify: false });
    const p = provider(server);
    expect(p.peekToken()).toBeUndefined();
    const own = await p.getToken();
    const user = await p.getToken({ subject: "user-1" });
    expect(p.peekToken()?.value).toBe(own.value);
    expect(p.peekToken(SERVICE_ACCOUNT_ID)?.value).toBe(own.value);
    expect(p.peekToken("user-1")?.value).toBe(user.value);
    expect(p.peekToken("user-2")).toBeUndefined();
  });

  it("gives nothing once the token is due for refresh", async () => {
    let now = Date.parse("2031-01-01T00:00:00Z");
    const server = new FakeAuthServer({ verify: false, sendDate: false });
    const p = provider(server, { clock: { now: () => now }, refreshMarginSeconds: 60 });
    const token = await p.getToken();
    now = token.receivedAt + (3599 - 60) * 1000 - 1;
    expect(p.peekToken()?.value).toBe(token.value);
    now += 1;
    expect(p.peekToken()).toBeUndefined();
  });

  it("does not hand out a token another provider dropped or replaced in the shared store", async () => {
    const server = new FakeAuthServer({ verify: false });
    const cache = new MemoryTokenCache();
    const a = provider(server, { cache });
    const b = provider(server, { cache });
    await a.getToken();
    await b.invalidate();
    expect(a.peekToken()).toBeUndefined();
    const fromB = await b.getToken();
    expect(a.peekToken()).toBeUndefined();
    expect((await a.getToken()).value).toBe(fromB.value);
    expect(a.peekToken()?.value).toBe(fromB.value);
  });

  it("gives nothing, and does not throw, when the store fails", async () => {
    const server = new FakeAuthServer({ verify: false });
    const failing: TokenCache = {
      get: () => {
        throw new Error("store down");
      },
      set: () => undefined,
      delete: () => undefined,
    };
    const p = provider(server, { cache: failing });
    await p.getToken();
    expect(p.peekToken()).toBeUndefined();
  });

  it("gives nothing for an asynchronous store, and stops reading it after the first try", async () => {
    const server = new FakeAuthServer({ verify: false });
    const store = countingStore(true);
    const p = provider(server, { cache: store });
    const token = await p.getToken();
    const reads = store.gets;
    expect(p.peekToken()).toBeUndefined();
    expect(p.peekToken()).toBeUndefined();
    expect(p.peekToken()).toBeUndefined();
    expect(store.gets).toBe(reads + 1);
    // getToken reads it as before.
    expect((await p.getToken()).value).toBe(token.value);
  });

  it("remembers 10 000 subjects, then forgets the least recently used; getToken still serves it from the store", async () => {
    const server = new FakeAuthServer({ verify: false });
    const now = Date.parse("2031-01-01T00:00:00Z");
    const entries = new Map<string, string>();
    let dropped = "";
    const cache: TokenCache = {
      get: (k) => entries.get(k),
      set: (k, v) => {
        entries.set(k, v);
      },
      delete: (k) => {
        dropped = k;
        entries.delete(k);
      },
    };
    const p = provider(server, { cache, clock: { now: () => now } });
    const subject = (i: number) => `user-${i}`;
    const fill = async (i: number) => {
      // invalidate names the subject's cache key; the store then holds a token for it.
      await p.invalidate(subject(i));
      entries.set(dropped, storedToken(`v-${i}`, subject(i), now));
      expect((await p.getToken({ subject: subject(i) })).value).toBe(`v-${i}`);
    };
    for (let i = 0; i < 10_000; i++) await fill(i);
    // Looking at subject 0 makes it recent: subject 1 is now the one used least recently.
    expect(p.peekToken(subject(0))?.value).toBe("v-0");
    expect(p.peekToken(subject(9_999))?.value).toBe("v-9999");
    await fill(10_000);
    expect(p.peekToken(subject(1))).toBeUndefined();
    expect(p.peekToken(subject(0))?.value).toBe("v-0");
    expect(p.peekToken(subject(2))?.value).toBe("v-2");
    expect(p.peekToken(subject(10_000))?.value).toBe("v-10000");
    expect((await p.getToken({ subject: subject(1) })).value).toBe("v-1");
    expect(p.peekToken(subject(1))?.value).toBe("v-1");
    expect(server.tokenRequests).toHaveLength(0);
  }, 60_000);
});

describe("reading the store", () => {
  it("answers a cached call with one store read and no exchange", async () => {
    const server = new FakeAuthServer({ verify: false });
    const store = countingStore();
    const p = provider(server, { cache: store });
    const token = await p.getToken();
    const reads = store.gets;
    expect((await p.getToken()).value).toBe(token.value);
    expect(store.gets).toBe(reads + 1);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("refuses at once with an aborted signal, even when a token is cached", async () => {
    const server = new FakeAuthServer({ verify: false });
    const p = provider(server);
    await p.getToken();
    const reason = new Error("shutting down");
    const error = await p.getToken({ signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestAbortedError);
    expect((error as Error).cause).toBe(reason);
  });

  it("stops before any exchange when the signal fires while the store is read", async () => {
    const server = new FakeAuthServer({ verify: false });
    const controller = new AbortController();
    const cache: TokenCache = {
      get: async () => {
        controller.abort();
        return undefined;
      },
      set: () => undefined,
      delete: () => undefined,
    };
    const p = provider(server, { cache });
    await expect(p.getToken({ signal: controller.signal })).rejects.toBeInstanceOf(TokenRequestAbortedError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.fetch).not.toHaveBeenCalled();
  });

  it("never hands out a stored token issued for another subject", async () => {
    const server = new FakeAuthServer();
    // A store that answers every key with user-1's token (say, keys cut short by a proxy).
    const wrong = storedToken("user-1-token", "user-1", Date.now());
    const cache: TokenCache = { get: () => wrong, set: () => undefined, delete: () => undefined };
    const token = await provider(server, { cache }).getToken({ subject: "user-2" });
    expect(token.subject).toBe("user-2");
    expect(token.value).toBe(server.issued[0]);
    expect(server.tokenRequests[0]?.claims.sub).toBe("user-2");
  });

  it("takes a token another provider stored meanwhile instead of exchanging", async () => {
    const server = new FakeAuthServer({ verify: false });
    const shared = new MemoryTokenCache();
    const other = provider(server, { cache: shared });
    let reads = 0;
    let fromOther: AccessToken | undefined;
    const cache: TokenCache = {
      get: async (k) => {
        const value = shared.get(k);
        // While this provider's first read is on its way, the other one exchanges.
        if (++reads === 1) fromOther = await other.getToken();
        return value;
      },
      set: (k, v, ttl) => shared.set(k, v, ttl),
      delete: (k) => shared.delete(k),
    };
    const token = await provider(server, { cache }).getToken();
    expect(token.value).toBe(fromOther?.value);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("carries on without onCacheError when the store fails", async () => {
    const server = new FakeAuthServer({ verify: false });
    const broken: TokenCache = {
      get: () => {
        throw new Error("store down");
      },
      set: async () => {
        throw new Error("store down");
      },
      delete: () => {
        throw new Error("store down");
      },
    };
    const p = provider(server, { cache: broken });
    expect((await p.getToken()).value).toBe(server.issued[0]);
    await expect(p.invalidate()).resolves.toBeUndefined();
  });

  it("reports a failing delete to onCacheError as a delete", async () => {
    const server = new FakeAuthServer({ verify: false });
    const failure = new Error("store down");
    const seen: unknown[][] = [];
    const cache: TokenCache = {
      get: () => undefined,
      set: () => undefined,
      delete: () => {
        throw failure;
      },
    };
    await provider(server, { cache, onCacheError: (...args) => seen.push(args) }).invalidate("user-1");
    expect(seen).toEqual([[failure, "delete"]]);
  });
});

describe("cache keys", () => {
  it("differ between services, whether found by discovery or given as token endpoint", async () => {
    const cache = new MemoryTokenCache();
    const one = new FakeAuthServer({ verify: false, baseUrl: "https://one.drill.test" });
    const two = new FakeAuthServer({ verify: false, baseUrl: "https://two.drill.test" });
    const byBase = (server: FakeAuthServer) =>
      provider(server, { cache, baseUrl: server.baseUrl, tokenEndpoint: undefined });
    expect((await byBase(one).getToken()).value).toBe(one.issued[0]);
    expect((await byBase(two).getToken()).value).toBe(two.issued[0]);
    expect(cache.size).toBe(2);
    // Same base URL, different token endpoints: separate entries as well.
    const three = new FakeAuthServer({
      verify: false,
      baseUrl: one.baseUrl,
      tokenEndpoint: "https://auth.three.test/token",
    });
    expect((await provider(three, { cache, baseUrl: one.baseUrl }).getToken()).value).toBe(three.issued[0]);
    const four = new FakeAuthServer({
      verify: false,
      baseUrl: one.baseUrl,
      tokenEndpoint: "https://auth.four.test/token",
    });
    expect((await provider(four, { cache, baseUrl: one.baseUrl }).getToken()).value).toBe(four.issued[0]);
    expect(cache.size).toBe(4);
  });
});

describe("discovery after a failed token request", () => {
  it.each([
    [410, 2],
    [404, 2],
    [401, 1],
    [400, 1],
  ])("after HTTP %i the metadata is fetched %i time(s) in all", async (status, discoveries) => {
    const server = new FakeAuthServer({ verify: false });
    server.respond = (_record, index) => (index === 0 ? json({ error: "x" }, { status }) : undefined);
    const p = provider(server, { baseUrl: server.baseUrl, tokenEndpoint: undefined });
    await expect(p.getToken()).rejects.toMatchObject({ status });
    await expect(p.getToken()).resolves.toBeInstanceOf(AccessToken);
    expect(server.discoveryCalls).toBe(discoveries);
  });

  it("a failed discovery that was already replaced does not drop its successor", async () => {
    // Two exchanges answered 404 in turn each restart discovery; the first restart fails late,
    // after the second has begun. The metadata should be fetched once per restart, no more.
    const server = new FakeAuthServer({ verify: false });
    const held = new Map<number, (ok: boolean) => void>();
    const metadata = json({ issuer: server.baseUrl, token_endpoint: server.tokenEndpoint });
    server.metadata = () => {
      const call = server.discoveryCalls;
      if (call === 1) return metadata.clone();
      return new Promise<Response>((resolve) => {
        held.set(call, (ok) => resolve(ok ? metadata.clone() : json({ error: "down" }, { status: 500 })));
      });
    };
    // Held by subject: the two first requests may arrive in either order.
    const answers = new Map<string, (response: Response) => void>();
    server.respond = (record) => {
      const { sub } = decodeJwt(record.form.get("assertion") ?? "");
      return sub === "a" || sub === "b"
        ? new Promise<Response>((resolve) => answers.set(sub, resolve))
        : undefined;
    };
    const p = provider(server, { baseUrl: server.baseUrl, tokenEndpoint: undefined });
    const a = p.getToken({ subject: "a" });
    const b = p.getToken({ subject: "b" });
    await requests(server, 2);
    answers.get("a")?.(json({ error: "moved" }, { status: 404 }));
    await expect(a).rejects.toMatchObject({ status: 404 });
    const c = p.getToken({ subject: "c" }); // discovery 2, which will fail
    await vi.waitFor(() => expect(held.has(2)).toBe(true));
    answers.get("b")?.(json({ error: "moved" }, { status: 404 }));
    await expect(b).rejects.toMatchObject({ status: 404 });
    const d = p.getToken({ subject: "d" }); // discovery 3, which will succeed
    await vi.waitFor(() => expect(held.has(3)).toBe(true));
    held.get(2)?.(false);
    await expect(c).rejects.toBeDefined();
    held.get(3)?.(true);
    await d;
    await p.getToken({ subject: "e" });
    expect(server.discoveryCalls).toBe(3);
  });

  it("does not re-discover after a network failure", async () => {
    const server = new FakeAuthServer({ verify: false });
    const answer = server.fetch.getMockImplementation() as typeof fetch;
    let failed = false;
    server.fetch.mockImplementation(async (input: FetchInput, init?: RequestInit) => {
      if (!failed && new Request(input, init).method === "POST") {
        failed = true;
        throw new TypeError("fetch failed");
      }
      return answer(input, init);
    });
    const p = provider(server, { baseUrl: server.baseUrl, tokenEndpoint: undefined });
    await expect(p.getToken()).rejects.toBeInstanceOf(TokenExchangeError);
    await p.getToken();
    expect(server.discoveryCalls).toBe(1);
  });
});

describe("shared exchanges", () => {
  it("a token whose last caller left as its answer arrived is not stored", async () => {
    const server = new FakeAuthServer({ verify: false });
    const cache = new MemoryTokenCache();
    const set = vi.spyOn(cache, "set");
    const caller = new AbortController();
    // The caller gives up while the answer's body is being read; a fetch that ignores the
    // abort still hands the whole answer over.
    server.respond = () => {
      const body = new TextEncoder().encode(
        JSON.stringify({ access_token: "tok-late", token_type: "bearer", expires_in: 3599 }),
      );
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(body);
          controller.close();
          caller.abort(new Error("gave up"));
        },
      });
      return new Response(stream, { headers: { "content-type": "application/json" } });
    };
    const p = provider(server, { cache });
    await expect(p.getToken({ signal: caller.signal })).rejects.toBeInstanceOf(TokenRequestAbortedError);
    expect(set).not.toHaveBeenCalled();
    expect(await p.peekToken()).toBeUndefined();
  });

  it("a forced refresh does not join a plain call's exchange, which may answer from the store", async () => {
    const { release, plain, forced } = await plainThenForcedInFlight();
    release[0]?.();
    release[1]?.();
    expect((await plain).value).toBe("tok-0");
    expect((await forced).value).toBe("tok-1");
  });

  it("a forced refresh joins a forced exchange still running after an older one ended", async () => {
    const flight = await plainThenForcedInFlight();
    flight.release[0]?.();
    expect((await flight.plain).value).toBe("tok-0");
    await expectForcedAgainJoins(flight);
  });

  it("a forced refresh still joins the forced exchange after the plain call's caller left", async () => {
    const leaving = new AbortController();
    const flight = await plainThenForcedInFlight(leaving.signal);
    leaving.abort();
    await expect(flight.plain).rejects.toBeInstanceOf(TokenRequestAbortedError);
    await expectForcedAgainJoins(flight);
  });

  it("aborts the exchange only when every waiting caller left, stores nothing, and starts afresh", async () => {
    const { server, release, p, a, b, first, second } = await twoCallersOnOneHeldExchange();
    const [sent] = requestSignals(server);
    a.abort();
    await expect(first).rejects.toBeInstanceOf(TokenRequestAbortedError);
    expect(sent?.aborted).toBe(false);
    b.abort();
    await expect(second).rejects.toBeInstanceOf(TokenRequestAbortedError);
    expect(sent?.aborted).toBe(true);
    // The next caller does not join the abandoned exchange.
    const next = p.getToken();
    await requests(server, 2);
    release[0]?.();
    release[1]?.();
    expect((await next).value).toBe("tok-1");
    expect((await p.getToken()).value).toBe("tok-1");
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("counts a caller once even if its signal fires twice", async () => {
    const { release, a, first, second } = await twoCallersOnOneHeldExchange();
    a.abort();
    a.signal.dispatchEvent(new Event("abort"));
    await expect(first).rejects.toBeInstanceOf(TokenRequestAbortedError);
    release[0]?.();
    expect((await second).value).toBe("tok-0");
  });

  it("leaves no listener on a long-lived signal, whether the exchange succeeds or fails", async () => {
    const server = new FakeAuthServer({ verify: false });
    server.respond = (_record, index) =>
      index === 1 ? json({ error: "invalid_grant" }, { status: 400 }) : undefined;
    const p = provider(server);
    const { signal } = new AbortController();
    expect((await p.getToken({ signal })).value).toBe(server.issued[0]);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    await expect(p.getToken({ signal, forceRefresh: true })).rejects.toBeInstanceOf(TokenExchangeError);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("sends nothing for callers who left during discovery; a later caller gets an exchange of its own", async () => {
    const server = new FakeAuthServer({ verify: false });
    let answerMetadata: () => void = () => undefined;
    server.metadata = () =>
      new Promise<Response>((resolve) => {
        answerMetadata = () =>
          resolve(json({ issuer: server.baseUrl, token_endpoint: server.tokenEndpoint }));
      });
    const p = provider(server, { baseUrl: server.baseUrl, tokenEndpoint: undefined });
    const controller = new AbortController();
    const leaving = p.getToken({ signal: controller.signal });
    await vi.waitFor(() => expect(server.discoveryCalls).toBe(1));
    controller.abort();
    await expect(leaving).rejects.toBeInstanceOf(TokenRequestAbortedError);
    // Arrives while the abandoned exchange still waits for discovery: it does not join it.
    const later = p.getToken();
    answerMetadata();
    expect((await later).value).toBe(server.issued[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.discoveryCalls).toBe(1);
  });
});

describe("a store that coordinates processes", () => {
  function coordinatingStore(beforeLookup: () => Promise<unknown> = async () => undefined) {
    const shared = new MemoryTokenCache();
    const calls: { key: string; signal: AbortSignal | undefined }[] = [];
    const cache: TokenCache = {
      get: (k) => shared.get(k),
      set: (k, v, ttl) => shared.set(k, v, ttl),
      delete: (k) => shared.delete(k),
      async coordinate(k, work) {
        calls.push({ key: k, signal: work.signal });
        await beforeLookup();
        return (await work.lookup()) ?? work.refresh();
      },
    };
    return { shared, calls, cache };
  }

  it("lets it run the exchange under the token's cache key", async () => {
    const server = new FakeAuthServer({ verify: false });
    const { calls, cache } = coordinatingStore();
    const keys: string[] = [];
    const p = provider(server, {
      cache: {
        ...cache,
        set: (k, v, ttl) => {
          keys.push(k);
          return cache.set(k, v, ttl);
        },
      },
    });
    const token = await p.getToken();
    expect(token.value).toBe(server.issued[0]);
    expect(calls.map((c) => c.key)).toEqual(keys);
    expect(calls[0]?.signal).toBeInstanceOf(AbortSignal);
    // A forced refresh exchanges without asking the store.
    await p.getToken({ forceRefresh: true });
    expect(calls).toHaveLength(1);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("takes the token another process stored while this one waited", async () => {
    const server = new FakeAuthServer({ verify: false });
    let other: ReturnType<typeof provider> | undefined;
    let fromOther: AccessToken | undefined;
    const { shared, cache } = coordinatingStore(async () => {
      fromOther = await other?.getToken();
    });
    other = provider(server, { cache: shared });
    const token = await provider(server, { cache }).getToken();
    expect(token.value).toBe(fromOther?.value);
    expect(server.tokenRequests).toHaveLength(1);
  });
});
