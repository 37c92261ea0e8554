/**
 * Over-the-wire tests: the built client (`@drill-practice/client`) against the sandbox on 127.0.0.1.
 * They live with the sandbox, which depends on the client, so that the client needs no sandbox. Tokens
 * come from a real JWT bearer exchange, with an RS256 assertion signed with jose (../helpers.ts) and
 * sent through the client itself, not through @drill-practice/auth.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createDrillClient,
  DrillApiError,
  type DrillClientAuth,
  DrillTimeoutError,
  type RetryOptions,
  unwrap,
} from "@drill-practice/client";
import { paginateStore, paginateStorePages } from "@drill-practice/client/pagination";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/index.js";
import { signAssertion } from "../support/helpers.js";

const SPANISH_SETS = 23;
const ENCODED_ID = "sets/ünïcode +1 @home";

function items(prefix: string) {
  return ["one", "two", "three", "four"].map((word) => ({ ask: `${prefix} ${word}`, tell: word }));
}

const DATA = {
  formatVersion: 1,
  organizations: [{ id: "org-1", name: "Test school", serviceAccountId: "svc-1" }],
  users: [
    { id: "svc-1", name: "Integration", organizationId: "org-1" },
    { id: "user-ana", name: "Ana", emails: ["ana@school.example"], organizationId: "org-1" },
  ],
  drills: [
    ...Array.from({ length: SPANISH_SETS }, (_, index) => ({
      id: `es-${String(index + 1).padStart(2, "0")}`,
      name: `Spanish set ${index + 1}`,
      subject: "Spanish",
      description: `Vocabulary set number ${index + 1}.`,
      tags: ["spanish", index % 2 === 0 ? "verbs" : "nouns"],
      askName: "Spanish",
      tellName: "English",
      items: items(`es${index + 1}`),
    })),
    {
      id: ENCODED_ID,
      name: "Encoded identifier",
      subject: "Testing",
      askName: "Left",
      tellName: "Right",
      items: items("enc"),
    },
    ...["a", "b", "c"].map((letter) => ({
      id: `cat-${letter}`,
      name: `Catalog drill ${letter}`,
      subject: "Private",
      inStore: false,
      askName: "Q",
      tellName: "A",
      items: items(`cat${letter}`),
    })),
  ],
  catalogs: [
    {
      id: "catalog-1",
      name: "Private catalog",
      drillableIds: ["cat-a", "cat-b", "cat-c"],
      userIds: ["svc-1"],
    },
  ],
};

let sandbox: Sandbox;
const dataDir = scratchDirForAll("drill-client-sandbox-");

/** Discovers the token endpoint and exchanges a freshly signed assertion for an access token. */
async function accessToken(baseUrl: string, fetchImpl: typeof fetch, subject = "svc-1"): Promise<string> {
  const anonymous = createDrillClient({ baseUrl, fetch: fetchImpl, throwOnError: true });
  const { token_endpoint: tokenEndpoint } = await anonymous.GET("/.well-known/oauth-authorization-server");
  const assertion = await signAssertion(sandbox, { claims: { sub: subject, aud: tokenEndpoint } });
  const token = await anonymous.POST("/daas/oauth/token", {
    body: {
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      client_id: sandbox.credentials.clientId,
      client_secret: sandbox.credentials.clientSecret,
      assertion,
    },
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  if (!token.access_token) throw new Error("the token response has no access_token");
  return token.access_token;
}

/** Auth that fetches one token through the client's own fetch and sends it as a bearer token. */
function bearerAuth(subject?: string): DrillClientAuth {
  return {
    middleware: ({ baseUrl, fetch: clientFetch }) => {
      let token: Promise<string> | undefined;
      return {
        async onRequest({ request }) {
          token ??= accessToken(baseUrl, clientFetch, subject);
          request.headers.set("Authorization", `Bearer ${await token}`);
          return request;
        },
      };
    },
  };
}

/** A fetch that counts the requests per path. */
function countingFetch() {
  const paths: string[] = [];
  return {
    paths,
    fetch: (request: Request) => {
      paths.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  };
}

beforeAll(async () => {
  // The sandbox's documented data file format (packages/sandbox/data/FORMAT.md).
  const dataFile = join(dataDir(), "data.json");
  await writeFile(dataFile, JSON.stringify(DATA));
  sandbox = await startSandbox({ dataFile, seed: 7, validateResponses: true, onResponseViolation: () => {} });
}, 60_000);

afterAll(async () => {
  const violations = sandbox?.responseViolations ?? [];
  await sandbox?.close();
  // The sandbox checked every answer against the spec; none may have deviated.
  expect(violations).toEqual([]);
});

function client() {
  return createDrillClient({ baseUrl: sandbox.url, auth: bearerAuth(), retry: false });
}

describe("over the wire: token exchange", () => {
  it("discovers the token endpoint and exchanges an assertion for a bearer token", async () => {
    const anonymous = createDrillClient({ baseUrl: sandbox.url, retry: false });
    const { data } = await anonymous.GET("/.well-known/oauth-authorization-server");
    expect(data?.token_endpoint).toBe(sandbox.tokenEndpoint);
    const token = await accessToken(sandbox.url, fetch);
    expect(token.length).toBeGreaterThan(10);
  });

  it("answers 401 without a token, decoded as DrillApiError", async () => {
    const anonymous = createDrillClient({ baseUrl: sandbox.url, retry: false, throwOnError: true });
    const error = await anonymous.GET("/api/2.1/version").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrillApiError);
    expect(error).toMatchObject({
      status: 401,
      errorId: "not_authenticated",
      operation: { method: "GET", path: "/api/2.1/version" },
    });
  });
});

describe("over the wire: both versions", () => {
  it("gets a 2.0 question for one drill by path and for several by query", async () => {
    const c = client();
    const one = await unwrap(
      c.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: "es-01" } } }),
    );
    expect(one.question?.ask?.term?.value).toMatch(/^es1 /);
    expect(one.question?.tell?.terms?.length).toBeGreaterThan(1);
    expect(Array.isArray(one.notifications)).toBe(true);

    const several = await unwrap(
      c.GET("/api/2/question", { params: { query: { drill: ["es-02", "es-03"] } } }),
    );
    expect(several.question?.ask?.term?.value).toMatch(/^es[23] /);
  });

  it("gets a 2.1 question for one drill and for several", async () => {
    const c = createDrillClient({ baseUrl: sandbox.url, auth: bearerAuth(), retry: false, version: "2.1" });
    const one = await unwrap(c.GET("/api/2.1/question/{drill}", { params: { path: { drill: "es-04" } } }));
    expect(one).toMatchObject({ question: { ask: { term: { value: expect.stringMatching(/^es4 /) } } } });
    const several = await unwrap(
      c.GET("/api/2.1/question/{drill}", {
        params: { path: { drill: "es-05" }, query: { drill: ["es-06"] } },
      }),
    );
    expect(several).toMatchObject({
      question: { ask: { term: { value: expect.stringMatching(/^es[56] /) } } },
    });
  });

  it("sends an ID with slash, spaces, plus, @ and unicode as one path segment", async () => {
    const c = client();
    const question = await unwrap(
      c.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: ENCODED_ID } } }),
    );
    expect(question.question?.ask?.term?.value).toMatch(/^enc /);
    const added = await c.PUT("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: ENCODED_ID } },
    });
    // The observed answer of adding: a message (2XX with a body, not 204).
    expect(added.response.status).toBe(200);
    expect(added.data?.description).toEqual(expect.any(String));
    const repertoire = await unwrap(c.GET("/api/2/repertoire"));
    expect(JSON.stringify(repertoire)).toContain(JSON.stringify(ENCODED_ID));
    const removed = await c.DELETE("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: ENCODED_ID } },
    });
    expect(removed.response.status).toBe(200);
  });

  it.each(["/api/2/store", "/api/2.1/store"] as const)("searches %s with every parameter", async (path) => {
    const c = client();
    const page = await unwrap(
      c.GET(path, {
        params: {
          query: {
            query: "spanish AND verbs",
            searchField: ["NAME", "TAGS"],
            resultStart: "2",
            resultSize: "3",
          },
        },
      }),
    );
    // Sets 1, 3, 5, … are tagged verbs: 12 of the 23.
    expect(page).toMatchObject({ total: 12 });
    expect((page as { drills: unknown[] }).drills).toHaveLength(3);

    const catalog = await unwrap(
      c.GET(path, {
        params: {
          query: { catalog: "catalog-1", searchField: ["NAME"], resultStart: "0", resultSize: "10" },
        },
      }),
    );
    expect(catalog).toMatchObject({ total: 3 });
    expect((catalog as { drills: { id: string }[] }).drills.map((drill) => drill.id).sort()).toEqual([
      "cat-a",
      "cat-b",
      "cat-c",
    ]);
  });

  it("decodes the store's query_missing error in both modes", async () => {
    const c = client();
    const { error, response } = await c.GET("/api/2/store", { params: { query: {} } });
    expect(response.ok).toBe(false);
    expect(error).toMatchObject({ ID: "query_missing" });

    const throwing = createDrillClient({
      baseUrl: sandbox.url,
      auth: bearerAuth(),
      retry: false,
      throwOnError: true,
    });
    const thrown = await throwing
      .GET("/api/2.1/store", { params: { query: {} } })
      .catch((caught: unknown) => caught);
    expect(thrown).toBeInstanceOf(DrillApiError);
    expect(thrown).toMatchObject({
      code: "ERR_API",
      errorId: "query_missing",
      status: response.status,
      operation: { method: "GET", path: "/api/2.1/store" },
    });
  });
});

describe("over the wire: pagination", () => {
  it.each([
    ["2.0", 5],
    ["2.1", 4],
  ] as const)("pages through %s search results (23 entries, pages of %i)", async (version, pageSize) => {
    const counter = countingFetch();
    const c = createDrillClient({
      baseUrl: sandbox.url,
      auth: bearerAuth(),
      retry: false,
      fetch: counter.fetch,
    });
    const all = await unwrap(c.GET("/api/2/store", { params: { query: { query: "spanish" } } }));
    expect(all.total).toBe(SPANISH_SETS);

    const ids: string[] = [];
    if (version === "2.0") {
      for await (const drill of paginateStore(c, { query: "spanish" }, { pageSize })) ids.push(drill.id);
    } else {
      for await (const entry of paginateStore(c, { query: "spanish" }, { pageSize, version })) {
        ids.push((entry as { id: string }).id);
      }
    }
    expect(ids).toEqual(all.drills.map((drill) => drill.id));
    const storeCalls = counter.paths.filter((line) => line.endsWith("/store"));
    // One full search plus ceil(23 / pageSize) pages.
    expect(storeCalls).toHaveLength(1 + Math.ceil(SPANISH_SETS / pageSize));
  });

  it("reports the pages of a catalog listing", async () => {
    const pages = [];
    for await (const page of paginateStorePages(client(), { catalog: "catalog-1" }, { pageSize: 2 }))
      pages.push(page);
    expect(pages.map((page) => [page.total, page.start, page.drills.length])).toEqual([
      [3, 0, 2],
      [3, 2, 1],
    ]);
  });
});

describe("over the wire: retries and timeouts", () => {
  /** A client whose requests are counted per path and whose retry waits are recorded instead of slept. */
  function recordingClient(retry: Omit<RetryOptions, "sleep"> = {}) {
    const counter = countingFetch();
    const delays: number[] = [];
    const c = createDrillClient({
      baseUrl: sandbox.url,
      auth: bearerAuth(),
      fetch: counter.fetch,
      retry: {
        ...retry,
        sleep: async (ms) => {
          delays.push(ms);
        },
      },
    });
    return { c, paths: counter.paths, delays };
  }

  it("retries a GET through injected 503s, honouring Retry-After", async () => {
    const { c, paths, delays } = recordingClient();
    await c.GET("/api/2.1/version"); // token first, so only the store calls count below
    sandbox.injectFault({ operationId: "searchStore_v2_0", status: 503, times: 2, retryAfter: 1 });
    const page = await unwrap(c.GET("/api/2/store", { params: { query: { query: "spanish" } } }));
    expect(page.total).toBe(SPANISH_SETS);
    expect(paths.filter((line) => line === "GET /api/2/store")).toHaveLength(3);
    expect(delays).toEqual([1_000, 1_000]);
  });

  it("gives up after the configured attempts and returns the 429", async () => {
    const { c, paths } = recordingClient({ maxAttempts: 2 });
    await c.GET("/api/2.1/version");
    sandbox.injectFault({ operationId: "getVersion_v2_0", status: 429, times: 5 });
    const { response } = await c.GET("/api/2/version");
    expect(response.status).toBe(429);
    expect(paths.filter((line) => line === "GET /api/2/version")).toHaveLength(2);
    sandbox.clearFaults();
  });

  it("does not retry the token exchange POST", async () => {
    sandbox.injectFault({ operationId: "exchangeToken", status: 503, times: 1 });
    const { c, paths, delays } = recordingClient();
    const error = await c.GET("/api/2.1/version").catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "ERR_API",
      status: 503,
      operation: { method: "POST", path: "/daas/oauth/token" },
    });
    expect(paths.filter((line) => line === "POST /daas/oauth/token")).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("times out a slow answer", async () => {
    const c = createDrillClient({ baseUrl: sandbox.url, auth: bearerAuth(), retry: false, timeoutMs: 250 });
    await c.GET("/api/2.1/version");
    sandbox.injectFault({ operationId: "getVersion_v2_1", delayMs: 1_500, times: 1 });
    const started = performance.now();
    const error = await c.GET("/api/2.1/version").catch((caught: unknown) => caught);
    const elapsed = performance.now() - started;
    // A DrillTimeoutError (not the 200 that arrives after 1.5 s) shows the timeout cut the
    // answer off; the upper bound is loose so a loaded CI machine does not fail it.
    expect(error).toBeInstanceOf(DrillTimeoutError);
    expect((error as DrillTimeoutError).timeoutMs).toBe(250);
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(elapsed).toBeLessThan(10_000);
  });
});
