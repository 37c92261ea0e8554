import type { Middleware } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import {
  createDrillClient,
  type DrillClientAuth,
  DrillInvalidOptionError,
  USER_AGENT,
} from "../src/index.js";
import { BASE_URL, DRILLABLE, json, QUESTION, recordingFetch } from "./helpers.js";

function url(request: Request | undefined): URL {
  if (!request) throw new Error("no request was sent");
  return new URL(request.url);
}

describe("createDrillClient: requests of both versions", () => {
  it("gets a 2.0 question for one drill by path", async () => {
    const recorder = recordingFetch(() => json(QUESTION));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data, error } = await client.GET("/api/2/question/{drill_id}", {
      params: { path: { drill_id: "drill-es-verbs" } },
    });
    expect(error).toBeUndefined();
    expect(data?.question?.tell?.terms?.map((term) => term.value)).toEqual(["to eat", "to drink"]);
    expect(recorder.requests[0]?.method).toBe("GET");
    expect(recorder.requests[0]?.url).toBe(`${BASE_URL}/api/2/question/drill-es-verbs`);
  });

  it("gets a 2.0 question for several drills as repeated drill keys", async () => {
    const recorder = recordingFetch(() => json(QUESTION));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data } = await client.GET("/api/2/question", {
      params: { query: { drill: ["drill-a", "drill-b", "drill c"] } },
    });
    expect(data?.question?.reference).toBe("ref-1");
    expect(url(recorder.requests[0]).pathname).toBe("/api/2/question");
    expect(url(recorder.requests[0]).search).toBe("?drill=drill-a&drill=drill-b&drill=drill%20c");
    expect(url(recorder.requests[0]).searchParams.getAll("drill")).toEqual(["drill-a", "drill-b", "drill c"]);
  });

  it("gets a 2.1 question for one drill and for several", async () => {
    const recorder = recordingFetch(() => json(QUESTION));
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: false,
      version: "2.1",
    });
    const one = await client.GET("/api/2.1/question/{drill}", { params: { path: { drill: "drill-a" } } });
    expect(one.data).toEqual(QUESTION);
    await client.GET("/api/2.1/question/{drill}", {
      params: { path: { drill: "drill-a" }, query: { drill: ["drill-b", "drill-c"] } },
    });
    expect(url(recorder.requests[0]).pathname).toBe("/api/2.1/question/drill-a");
    expect(url(recorder.requests[0]).search).toBe("");
    expect(url(recorder.requests[1]).pathname).toBe("/api/2.1/question/drill-a");
    expect(url(recorder.requests[1]).search).toBe("?drill=drill-b&drill=drill-c");
  });

  it.each([
    ["/api/2/store", "2.0"],
    ["/api/2.1/store", "2.1"],
  ] as const)("searches %s (API %s) with every parameter", async (path, _version) => {
    const recorder = recordingFetch(() => json({ total: 1, drills: [DRILLABLE] }));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data } = await client.GET(path, {
      params: {
        query: {
          query: "spanish AND verbs",
          searchField: ["NAME", "DESCRIPTION", "SUBJECT", "TAGS", "CONTENTS"],
          catalog: "catalog/1 + more",
          resultStart: "10",
          resultSize: "5",
        },
      },
    });
    expect(data).toEqual({ total: 1, drills: [DRILLABLE] });
    const sent = url(recorder.requests[0]);
    expect(sent.pathname).toBe(path);
    expect(sent.searchParams.get("query")).toBe("spanish AND verbs");
    expect(sent.searchParams.getAll("searchField")).toEqual([
      "NAME",
      "DESCRIPTION",
      "SUBJECT",
      "TAGS",
      "CONTENTS",
    ]);
    expect(sent.searchParams.get("catalog")).toBe("catalog/1 + more");
    expect(sent.searchParams.get("resultStart")).toBe("10");
    expect(sent.searchParams.get("resultSize")).toBe("5");
    expect(sent.search).toContain("searchField=NAME&searchField=DESCRIPTION&searchField=SUBJECT");
    // Reserved characters travel percent-encoded, "+" included (it would read as a space otherwise).
    expect(sent.search).toContain("catalog=catalog%2F1%20%2B%20more");
  });

  it("sends the PUT and DELETE operations of 2.1 to their paths", async () => {
    const recorder = recordingFetch(() => new Response(null, { status: 204 }));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const added = await client.PUT("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: "d 1" } },
    });
    const removed = await client.DELETE("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: "d 1" } },
    });
    expect(added.response.status).toBe(204);
    expect(removed.response.status).toBe(204);
    expect(recorder.requests.map((request) => `${request.method} ${url(request).pathname}`)).toEqual([
      "PUT /api/2.1/repertoire/d%201",
      "DELETE /api/2.1/repertoire/d%201",
    ]);
  });

  it("exchanges a token with a form body when the form content type is given", async () => {
    const recorder = recordingFetch(() =>
      json({ access_token: "t", token_type: "bearer", expires_in: 3599, scope: "ROLE_USER", jti: "j" }),
    );
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data } = await client.POST("/daas/oauth/token", {
      body: {
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        client_id: "client",
        client_secret: "secret",
        assertion: "a.b.c",
      },
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(data?.expires_in).toBe(3599);
    const form = new URLSearchParams(recorder.bodies[0]);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(form.get("assertion")).toBe("a.b.c");
  });

  it("keeps a path prefix of the base URL and ignores its trailing slashes", async () => {
    const recorder = recordingFetch(() => json({}));
    const client = createDrillClient({
      baseUrl: `${BASE_URL}/service//`,
      fetch: recorder.fetch,
      retry: false,
    });
    await client.GET("/api/2.1/version");
    expect(recorder.requests[0]?.url).toBe(`${BASE_URL}/service/api/2.1/version`);
  });
});

describe("createDrillClient: path parameter encoding", () => {
  const cases: [label: string, value: string, segment: string][] = [
    ["an ID with a slash", "folder/drill", "folder%2Fdrill"],
    ["an ID with spaces", "my drill", "my%20drill"],
    ["an ID with a plus", "c++", "c%2B%2B"],
    ["a unicode ID", "übung-日本", "%C3%BCbung-%E6%97%A5%E6%9C%AC"],
    ["an ID with ? and #", "a?b#c", "a%3Fb%23c"],
    ["an ID with a percent sign", "100%", "100%25"],
    ["an ID containing dots", "a..b", "a..b"],
  ];
  it.each(cases)("encodes %s as one segment", async (_label, value, segment) => {
    const recorder = recordingFetch(() => json(QUESTION));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: value } } });
    expect(url(recorder.requests[0]).pathname).toBe(`/api/2/question/${segment}`);
    expect(decodeURIComponent(segment)).toBe(value);
  });

  it("encodes an email address and a user ID as separate segments", async () => {
    const recorder = recordingFetch(() => json({}));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    await client.GET("/api/2.1/user/{user}/email-address/{email}", {
      params: { path: { user: "u/1", email: "first.last+tag@example.org" } },
    });
    expect(url(recorder.requests[0]).pathname).toBe(
      "/api/2.1/user/u%2F1/email-address/first.last%2Btag%40example.org",
    );
  });

  it.each(["", ".", ".."])("refuses %j as a path segment before sending", async (value) => {
    const recorder = recordingFetch(() => json(QUESTION));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    await expect(
      client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: value } } }),
    ).rejects.toMatchObject({ code: "ERR_INVALID_PARAMETER", parameter: "drill_id" });
    expect(recorder.requests).toHaveLength(0);
  });
});

describe("createDrillClient: headers, User-Agent and middleware", () => {
  it("sends drill-practice-sdk/<version> as User-Agent in Node", async () => {
    const recorder = recordingFetch(() => json({}));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    await client.GET("/api/2/version");
    expect(recorder.requests[0]?.headers.get("user-agent")).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^drill-practice-sdk\/\d+\.\d+\.\d+/);
  });

  it("lets the caller's own User-Agent and headers through", async () => {
    const recorder = recordingFetch(() => json({}));
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: false,
      headers: { "User-Agent": "my-app/2", "Accept-Language": "es" },
    });
    await client.GET("/api/2/version");
    expect(recorder.requests[0]?.headers.get("user-agent")).toBe("my-app/2");
    expect(recorder.requests[0]?.headers.get("accept-language")).toBe("es");
  });

  it("sends no User-Agent of its own outside Node", async () => {
    const recorder = recordingFetch(() => json({}));
    const versions = Object.getOwnPropertyDescriptor(process, "versions");
    // Node loads its fetch implementation on first use, and that load reads
    // versions.node: load it first, then let only the creation see a runtime
    // without versions.node (the client decides there).
    void new Request(BASE_URL);
    Object.defineProperty(process, "versions", { value: { ...process.versions, node: undefined } });
    let client: ReturnType<typeof createDrillClient>;
    try {
      client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    } finally {
      if (versions) Object.defineProperty(process, "versions", versions);
    }
    await client.GET("/api/2/version");
    expect(recorder.requests[0]?.headers.get("user-agent")).toBeNull();
  });

  it("runs the caller's middleware first and the auth middleware last", async () => {
    const recorder = recordingFetch(() => json({}));
    const order: string[] = [];
    const first: Middleware = {
      onRequest({ request }) {
        order.push("first");
        request.headers.set("x-trace", "1");
        return request;
      },
    };
    const second: Middleware = {
      onRequest() {
        order.push("second");
        return undefined;
      },
    };
    const auth: DrillClientAuth = {
      middleware: {
        onRequest({ request }) {
          order.push(`auth sees x-trace=${request.headers.get("x-trace")}`);
          request.headers.set("Authorization", "Bearer token-1");
          return request;
        },
      },
    };
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: false,
      middleware: [first, second],
      auth,
    });
    await client.GET("/api/2/version");
    expect(order).toEqual(["first", "second", "auth sees x-trace=1"]);
    expect(recorder.requests[0]?.headers.get("authorization")).toBe("Bearer token-1");
  });

  it("calls an auth middleware factory once with the base URL and the wrapped fetch", async () => {
    const recorder = recordingFetch(
      () => json({ token_endpoint: `${BASE_URL}/daas/oauth/token` }),
      () => json({}),
    );
    const contexts: { baseUrl: string; fetch: typeof fetch }[] = [];
    const auth: DrillClientAuth = {
      middleware: (context) => {
        contexts.push(context);
        return {
          async onRequest({ request }) {
            // The provider reaches the service through the client's fetch (User-Agent, timeout).
            const discovery = await context.fetch(
              `${context.baseUrl}/.well-known/oauth-authorization-server`,
            );
            const document = (await discovery.json()) as { token_endpoint: string };
            request.headers.set("x-token-endpoint", document.token_endpoint);
            return request;
          },
        };
      },
    };
    const client = createDrillClient({ baseUrl: `${BASE_URL}/`, fetch: recorder.fetch, retry: false, auth });
    await client.GET("/api/2/version");
    await client.GET("/api/2/version");
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.baseUrl).toBe(BASE_URL);
    expect(recorder.requests.map((request) => url(request).pathname)).toEqual([
      "/.well-known/oauth-authorization-server",
      "/api/2/version",
      "/.well-known/oauth-authorization-server",
      "/api/2/version",
    ]);
    expect(recorder.requests[0]?.headers.get("user-agent")).toBe(USER_AGENT);
    expect(recorder.requests[1]?.headers.get("x-token-endpoint")).toBe(`${BASE_URL}/daas/oauth/token`);
  });

  it("gives the auth provider a fetch without the client's retries (the provider retries on its own)", async () => {
    const recorder = recordingFetch(
      () => new Response("busy", { status: 503 }),
      () => json({}),
    );
    let discoveryStatus: number | undefined;
    const auth: DrillClientAuth = {
      middleware: (context) => ({
        async onRequest({ request }) {
          discoveryStatus ??= (
            await context.fetch(`${context.baseUrl}/.well-known/oauth-authorization-server`)
          ).status;
          return request;
        },
      }),
    };
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      auth,
      retry: { maxAttempts: 3 },
    });
    await client.GET("/api/2/version");
    expect(discoveryStatus).toBe(503);
    expect(recorder.requests.map((request) => url(request).pathname)).toEqual([
      "/.well-known/oauth-authorization-server",
      "/api/2/version",
    ]);
  });

  it("uses globalThis.fetch when no fetch is given", async () => {
    const recorder = recordingFetch(() => json({ version: "x" }));
    const original = globalThis.fetch;
    globalThis.fetch = ((input: Parameters<typeof fetch>[0]) =>
      recorder.fetch(input as Request)) as typeof fetch;
    try {
      const client = createDrillClient({ baseUrl: BASE_URL, retry: false });
      const { data } = await client.GET("/api/2/version");
      expect(data).toEqual({ version: "x" });
    } finally {
      globalThis.fetch = original;
    }
    expect(recorder.requests).toHaveLength(1);
  });
});

describe("createDrillClient: option validation", () => {
  const invalid: [label: string, options: unknown, option: string, message: RegExp][] = [
    ["no options", undefined, "options", /expected an object/],
    ["no baseUrl", {}, "baseUrl", /required/],
    ["an empty baseUrl", { baseUrl: " " }, "baseUrl", /required/],
    ["a relative baseUrl", { baseUrl: "/api" }, "baseUrl", /not an absolute URL/],
    [
      "a baseUrl without scheme",
      { baseUrl: "drill.example:8080" },
      "baseUrl",
      /http: or https:.*scheme missing/,
    ],
    ["an ftp baseUrl", { baseUrl: "ftp://drill.example" }, "baseUrl", /not "ftp:"$/],
    [
      "a baseUrl with credentials",
      { baseUrl: "https://user:pw@drill.example" },
      "baseUrl",
      /user name or password/,
    ],
    [
      "a baseUrl with a query",
      { baseUrl: "https://drill.example/?a=1" },
      "baseUrl",
      /query string or fragment/,
    ],
    [
      "a baseUrl with a fragment",
      { baseUrl: "https://drill.example/#x" },
      "baseUrl",
      /query string or fragment/,
    ],
    ["a zero timeout", { baseUrl: BASE_URL, timeoutMs: 0 }, "timeoutMs", /above 0/],
    [
      "an infinite timeout",
      { baseUrl: BASE_URL, timeoutMs: Number.POSITIVE_INFINITY },
      "timeoutMs",
      /above 0/,
    ],
    ["an unknown version", { baseUrl: BASE_URL, version: "3" }, "version", /"2.1" or "2.0"/],
    ["a non-function fetch", { baseUrl: BASE_URL, fetch: "fetch" }, "fetch", /function/],
    ["middleware that is not an array", { baseUrl: BASE_URL, middleware: {} }, "middleware", /array/],
    ["middleware without hooks", { baseUrl: BASE_URL, middleware: [{}] }, "middleware[0]", /onRequest/],
    ["auth without middleware", { baseUrl: BASE_URL, auth: {} }, "auth", /middleware property/],
    [
      "auth whose factory returns nothing",
      { baseUrl: BASE_URL, auth: { middleware: () => 1 } },
      "auth.middleware",
      /middleware object/,
    ],
    [
      "a non-boolean throwOnError",
      { baseUrl: BASE_URL, throwOnError: "yes" },
      "throwOnError",
      /true or false/,
    ],
    ["zero retry attempts", { baseUrl: BASE_URL, retry: { maxAttempts: 0 } }, "retry.maxAttempts", /1 to 10/],
    [
      "retry of POST",
      { baseUrl: BASE_URL, retry: { methods: ["GET", "POST"] } },
      "retry.methods",
      /"POST" cannot be retried/,
    ],
    [
      "a retry status below 400",
      { baseUrl: BASE_URL, retry: { retryOn: [302] } },
      "retry.retryOn",
      /400–599/,
    ],
    [
      "a negative base delay",
      { baseUrl: BASE_URL, retry: { initialDelayMs: -1 } },
      "retry.initialDelayMs",
      /milliseconds/,
    ],
    [
      "a max delay below the base",
      { baseUrl: BASE_URL, retry: { initialDelayMs: 100, maxDelayMs: 50 } },
      "retry.maxDelayMs",
      /initialDelayMs/,
    ],
    ["a non-function sleep", { baseUrl: BASE_URL, retry: { sleep: 5 } }, "retry.sleep", /function/],
  ];
  it.each(invalid)("rejects %s naming the option", (_label, options, option, message) => {
    let caught: unknown;
    try {
      createDrillClient(options as Parameters<typeof createDrillClient>[0]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DrillInvalidOptionError);
    expect(caught).toMatchObject({ code: "ERR_INVALID_OPTION", option });
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toContain(option);
  });

  it("does not repeat a password from the base URL in its error", () => {
    expect(() => createDrillClient({ baseUrl: "https://user:hunter2@drill.example" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("hunter2") }),
    );
  });

  it("accepts http and https base URLs, with or without a path", () => {
    for (const baseUrl of ["http://127.0.0.1:8080", "https://drill.example/v/", "HTTPS://DRILL.EXAMPLE"]) {
      expect(() => createDrillClient({ baseUrl })).not.toThrow();
    }
  });
});
