import { createDrillClient } from "@drill-practice/client";
import createClient from "openapi-fetch";
import { describe, expect, it, vi } from "vitest";
import { authMiddleware, TokenExchangeError, type TokenProvider } from "../src/index.js";
import { key, providerFor } from "./fixtures/token-provider.js";
import { FakeAuthServer, type FetchInput, json, requestFetch, type TestPaths } from "./helpers.js";

interface ApiCall {
  readonly authorization: string | null;
  readonly method: string;
  readonly url: string;
  readonly body: string;
}

/**
 * The API side: accepts only tokens the fake authorization server issued and that
 * were not revoked since.
 */
function fakeApi(server: FakeAuthServer) {
  const revoked = new Set<string>();
  const calls: ApiCall[] = [];
  const fetch = requestFetch(async (request) => {
    const body = await request.text();
    const authorization = request.headers.get("authorization");
    calls.push({ authorization, method: request.method, url: request.url, body });
    const token = authorization?.replace(/^Bearer /, "") ?? "";
    if (!server.issued.includes(token) || revoked.has(token)) {
      return json({ ID: "unauthorized" }, { status: 401 });
    }
    if (request.method === "PUT") return json({ echoed: body });
    return json({ version: "2.1.0" });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls, revoked, mock: fetch };
}

function setup(options: { subject?: string } = {}) {
  const server = new FakeAuthServer();
  const api = fakeApi(server);
  const provider = providerFor(server);
  const middleware = authMiddleware(provider, options);
  const client = createClient<TestPaths>({ baseUrl: server.baseUrl, fetch: api.fetch });
  client.use(middleware);
  return { server, api, provider, middleware, client };
}

describe("authMiddleware", () => {
  it("sets Authorization: Bearer <token> and reuses the cached token", async () => {
    const { server, api, client } = setup();
    const first = await client.GET("/api/2.1/version");
    const second = await client.GET("/api/2.1/version");
    expect(first.data).toEqual({ version: "2.1.0" });
    expect(second.data).toEqual({ version: "2.1.0" });
    expect(api.calls.map((c) => c.authorization)).toEqual([
      `Bearer ${server.issued[0]}`,
      `Bearer ${server.issued[0]}`,
    ]);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("requests tokens for the configured subject", async () => {
    const { server, client } = setup({ subject: "pat@example.com" });
    await client.GET("/api/2.1/version");
    expect(server.tokenRequests[0]?.claims.sub).toBe("pat@example.com");
  });

  it("on 401 invalidates the token and re-sends the request once, body included, with a fresh token", async () => {
    const { server, api, client } = setup();
    await client.GET("/api/2.1/version");
    api.revoked.add(server.issued[0] as string);

    const result = await client.PUT("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: "d-17" } },
      body: { note: "keep" },
    });
    expect(result.response.status).toBe(200);
    expect(result.data).toEqual({ echoed: JSON.stringify({ note: "keep" }) });
    const puts = api.calls.filter((c) => c.method === "PUT");
    expect(puts).toHaveLength(2);
    expect(puts.map((c) => c.authorization)).toEqual([
      `Bearer ${server.issued[0]}`,
      `Bearer ${server.issued[1]}`,
    ]);
    expect(puts[1]?.body).toBe(puts[0]?.body);
    expect(puts[1]?.url).toBe("https://drill.test/api/2.1/repertoire/d-17");
    expect(server.tokenRequests).toHaveLength(2);

    // The fresh token is cached for the next request.
    await client.GET("/api/2.1/version");
    expect(api.calls.at(-1)?.authorization).toBe(`Bearer ${server.issued[1]}`);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("re-sends a body through the client's own fetch without copying the request first", async () => {
    const { server, api, provider } = setup();
    const client = createDrillClient({ baseUrl: server.baseUrl, fetch: api.fetch, retry: false });
    client.use(authMiddleware(provider));
    await client.GET("/api/2.1/version");
    api.revoked.add(server.issued[0] as string);
    const cloned: string[] = [];
    const original = Request.prototype.clone;
    const clone = vi.spyOn(Request.prototype, "clone").mockImplementation(function (this: Request) {
      cloned.push(new URL(this.url).pathname);
      return original.call(this);
    });
    const result = await client.PUT("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: "d-9" } },
      body: { note: "again" } as never,
    });
    // The client's transport sends one copy per attempt; the middleware adds none.
    expect(cloned.filter((path) => path === "/api/2.1/repertoire/d-9")).toHaveLength(2);
    clone.mockRestore();
    expect(result.response.status).toBe(200);
    const puts = api.calls.filter((c) => c.method === "PUT");
    // Bodies go out as form fields (the service's observed convention), and the re-send repeats them.
    const sent = new URLSearchParams({ note: "again" }).toString();
    expect(puts.map((c) => c.body)).toEqual([sent, sent]);
    expect(puts[1]?.authorization).toBe(`Bearer ${server.issued[1]}`);
  });

  it("returns the second 401 to the caller instead of looping", async () => {
    const { server, api, client } = setup();
    api.mock.mockImplementation(async () => json({ ID: "unauthorized" }, { status: 401 }));
    const result = await client.GET("/api/2.1/version");
    expect(result.response.status).toBe(401);
    expect(result.error).toEqual({ ID: "unauthorized" });
    expect(api.mock).toHaveBeenCalledTimes(2);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("re-sends through the client's own fetch (options.fetch)", async () => {
    const { server, api, provider } = setup();
    const wrapped = vi.fn((input: Request) => api.fetch(input));
    const client = createClient<TestPaths>({
      baseUrl: server.baseUrl,
      fetch: wrapped as unknown as typeof globalThis.fetch,
    });
    client.use(authMiddleware(provider));
    await client.GET("/api/2.1/version");
    api.revoked.add(server.issued[0] as string);
    await client.GET("/api/2.1/version");
    expect(wrapped).toHaveBeenCalledTimes(3);
    expect(api.calls.at(-1)?.authorization).toBe(`Bearer ${server.issued[1]}`);
  });

  it("shares one exchange between concurrent 401s", async () => {
    const { server, api, client } = setup();
    await client.GET("/api/2.1/version");
    api.revoked.add(server.issued[0] as string);
    const results = await Promise.all(Array.from({ length: 10 }, () => client.GET("/api/2.1/version")));
    expect(results.every((r) => r.response.status === 200)).toBe(true);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("exchanges once for 20 requests whose 401s arrive one after another", async () => {
    const { server, api, client } = setup();
    await client.GET("/api/2.1/version");
    const rejected = server.issued[0] as string;
    api.revoked.add(rejected);
    // The API answers the rejected token's requests 15 ms apart, so every 401 after the
    // first arrives once the replacement has been issued and cached.
    let rejections = 0;
    const answer = api.mock.getMockImplementation();
    api.mock.mockImplementation(async (input: FetchInput, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.headers.get("authorization") === `Bearer ${rejected}`) {
        const delay = 15 * rejections++;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      return (answer as typeof api.fetch)(request);
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.GET("/api/2.1/version")));
    expect(rejections).toBe(20);
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    expect(server.tokenRequests).toHaveLength(2);
    const fresh = server.issued[1] as string;
    const resent = api.calls.filter((c) => c.authorization !== `Bearer ${rejected}`).slice(-20);
    expect(resent.map((c) => c.authorization)).toEqual(Array(20).fill(`Bearer ${fresh}`));
    // The late 401s did not drop the fresh token from the cache.
    await client.GET("/api/2.1/version");
    expect(api.calls.at(-1)?.authorization).toBe(`Bearer ${fresh}`);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it("drops the token again when the replacement is rejected too, but only once", async () => {
    const { server, api, client } = setup();
    await client.GET("/api/2.1/version");
    api.revoked.add(server.issued[0] as string);
    expect((await client.GET("/api/2.1/version")).response.status).toBe(200);
    api.revoked.add(server.issued[1] as string);
    const results = await Promise.all(Array.from({ length: 5 }, () => client.GET("/api/2.1/version")));
    expect(results.map((r) => r.response.status)).toEqual(Array(5).fill(200));
    expect(server.tokenRequests).toHaveLength(3);
  });

  it("cleans up when the request fails on the network", async () => {
    const { api, client } = setup();
    api.mock.mockImplementation(async () => {
      throw new TypeError("fetch failed");
    });
    await expect(client.GET("/api/2.1/version")).rejects.toThrow("fetch failed");
  });

  it("lets token errors reach the caller", async () => {
    const { server, client } = setup();
    server.respond = () => json({ error: "unauthorized_client" }, { status: 400 });
    const error = await client.GET("/api/2.1/version").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenExchangeError);
    expect(error).toMatchObject({ oauthError: "unauthorized_client" });
  });

  it("validates its arguments", () => {
    expect(() => authMiddleware({} as TokenProvider)).toThrow("Invalid option provider");
    const provider: TokenProvider = { getToken: vi.fn(), invalidate: vi.fn() };
    expect(() => authMiddleware(provider, { subject: "" })).toThrow("Invalid option subject");
  });
});

describe("authMiddleware under a burst of requests for several subjects", () => {
  // Was a row of the token-provider benchmark; a count, not a speed, so it is checked here.
  it("makes one exchange per subject for 1,000 concurrent requests each, and none once cached", async () => {
    const { server, api, provider } = setup();
    const subjects = [undefined, "user-ana@example.com", "user-bram"];
    const clients = subjects.map((subject) => {
      const client = createClient<TestPaths>({ baseUrl: server.baseUrl, fetch: api.fetch });
      client.use(authMiddleware(provider, subject === undefined ? {} : { subject }));
      return client;
    });
    const burst = () =>
      Promise.all(
        clients.flatMap((client) => Array.from({ length: 1000 }, () => client.GET("/api/2.1/version"))),
      );
    const exchangesBySubject = () => {
      const counts: Record<string, number> = {};
      for (const request of server.tokenRequests) {
        const subject = String(request.claims.sub);
        counts[subject] = (counts[subject] ?? 0) + 1;
      }
      return counts;
    };

    const first = await burst();
    expect(first.filter((result) => result.response.status !== 200)).toHaveLength(0);
    expect(exchangesBySubject()).toEqual({
      [key.serviceAccountId]: 1,
      "user-ana@example.com": 1,
      "user-bram": 1,
    });
    const second = await burst();
    expect(second.filter((result) => result.response.status !== 200)).toHaveLength(0);
    expect(server.tokenRequests).toHaveLength(3);
  });
});
