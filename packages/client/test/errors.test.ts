import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { REDACTED } from "../src/core/index.js";
import {
  createDrillClient,
  DRILL_ERROR_CODES,
  DrillApiError,
  DrillError,
  type DrillErrorCode,
  DrillInvalidOptionError,
  DrillInvalidParameterError,
  DrillNetworkError,
  DrillTimeoutError,
  DrillUnexpectedResponseError,
  unwrap,
} from "../src/index.js";
import { BASE_URL, DRILLABLE, json, QUESTION, recordingFetch } from "./helpers.js";

const SECRET = "Bearer sk-very-secret-token-123";

/**
 * Error codes are a public contract: users switch on `error.code`, so each class's code is
 * fixed here on purpose (a rename is a breaking change and must fail this test), and every
 * one must be documented in DRILL_ERROR_CODES as thrown by the client.
 */
function expectDocumentedClientCode(error: DrillError, code: DrillErrorCode) {
  expect(error.code).toBe(code);
  expect(DRILL_ERROR_CODES[code].packages).toContain("client");
  expect(DRILL_ERROR_CODES[code].meaning.trim()).not.toBe("");
}

function clientAnswering(response: () => Response) {
  const recorder = recordingFetch(response);
  return createDrillClient({
    baseUrl: BASE_URL,
    fetch: recorder.fetch,
    retry: false,
    headers: { Authorization: SECRET },
  });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("DrillApiError decoding", () => {
  it("carries status, ID, operation and body of a JSON error", async () => {
    const status = 400;
    const body = { ID: "query_missing", message: "no query" };
    const operation = { method: "GET", path: "/api/2/store" } as const;
    const client = clientAnswering(() => json(body, { status }));
    const error = await caught(unwrap(client.GET(operation.path, { params: { query: {} } })));
    expect(error).toBeInstanceOf(DrillApiError);
    expect(error).toBeInstanceOf(DrillError);
    const apiError = error as DrillApiError;
    expectDocumentedClientCode(apiError, "ERR_API");
    expect(apiError.status).toBe(status);
    expect(apiError.errorId).toBe(body.ID);
    expect(apiError.operation).toEqual(operation);
    expect(apiError.body).toEqual(body);
    expect(apiError.response.status).toBe(status);
    // The operation, the status, the ID and the server's explanation (its `message`) all reach the message.
    expect(apiError.message).toBe(
      `${operation.method} ${operation.path} failed with HTTP ${status} (ID "${body.ID}"): ${body.message}`,
    );
    expect(apiError.description).toBe(body.message);
    expect(apiError.name).toBe(DrillApiError.name);
  });

  it("names the path template, not the filled-in path", async () => {
    const client = clientAnswering(() => json({ ID: "error" }, { status: 500 }));
    const error = (await caught(
      unwrap(client.GET("/api/2.1/question/{drill}", { params: { path: { drill: "private-drill-id" } } })),
    )) as DrillApiError;
    expect(error.operation).toEqual({ method: "GET", path: "/api/2.1/question/{drill}" });
    expect(error.message).not.toContain("private-drill-id");
  });

  it("keeps a non-JSON error body as text", async () => {
    const page = "<html>Bad gateway</html>";
    const status = 502;
    const client = clientAnswering(
      () => new Response(page, { status, headers: { "content-type": "text/html" } }),
    );
    const error = (await caught(unwrap(client.GET("/api/2/version")))) as DrillApiError;
    expect(error.status).toBe(status);
    expect(error.errorId).toBeUndefined();
    expect(error.body).toBe(page);
    // Without an ID or an explanation the message is just the operation and the status (no HTML in it).
    expect(error.message).toBe(`GET /api/2/version failed with HTTP ${status}`);
  });

  it.each([
    ["Content-Length: 0", () => new Response(null, { status: 404, headers: { "content-length": "0" } })],
    ["no Content-Length", () => new Response("", { status: 404 })],
    [
      "a stream that ends at once",
      () => new Response(new ReadableStream({ start: (c) => c.close() }), { status: 404 }),
    ],
  ])("reports an empty error body (%s) as undefined", async (_label, response) => {
    const client = clientAnswering(response);
    const error = (await caught(unwrap(client.GET("/api/2/version")))) as DrillApiError;
    expect(error.status).toBe(404);
    expect(error.body).toBeUndefined();
    expect(error.errorId).toBeUndefined();
  });

  it.each([
    ["an ID that is not a string", { ID: 42 }],
    ["an array body", [{ ID: "error" }]],
    ["a JSON string body", "error"],
  ])("finds no error ID in %s", async (_label, body) => {
    const client = clientAnswering(() => json(body, { status: 400 }));
    const error = (await caught(unwrap(client.GET("/api/2/version")))) as DrillApiError;
    expect(error.errorId).toBeUndefined();
    expect(error.body).toEqual(body);
  });

  it("keeps the Authorization value out of message, inspect output and JSON", async () => {
    const client = clientAnswering(() => json({ ID: "error" }, { status: 401 }));
    const error = (await caught(unwrap(client.GET("/api/2/version")))) as DrillApiError;
    const renderings = [
      error.message,
      String(error),
      inspect(error, { depth: 10, showHidden: false }),
      JSON.stringify(error),
    ];
    for (const text of renderings) expect(text).not.toContain("sk-very-secret");
    // Nor does the client itself show its headers.
    const throwing = createDrillClient({
      baseUrl: BASE_URL,
      headers: { Authorization: SECRET },
      throwOnError: true,
    });
    for (const subject of [client, throwing]) {
      expect(inspect(subject, { depth: 10, showHidden: true })).not.toContain("sk-very-secret");
      expect(JSON.stringify(subject) ?? "").not.toContain("sk-very-secret");
    }
    // The response stays reachable but out of enumeration.
    expect(Object.keys(error)).not.toContain("response");
  });
});

describe("no secrets in transport errors", () => {
  it.each([
    ["a network error", () => Promise.reject(new TypeError("fetch failed")), { timeoutMs: false as const }],
    ["a timeout", () => new Promise<Response>(() => {}), { timeoutMs: 20 }],
  ])("keeps the Authorization value out of %s", async (_label, fetchImpl, options) => {
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: fetchImpl,
      retry: false,
      ...options,
      middleware: [
        {
          onRequest({ request }) {
            request.headers.set("Authorization", SECRET);
            return request;
          },
        },
      ],
    });
    const error = await caught(client.GET("/api/2/store", { params: { query: { query: "q" } } }));
    expect(error).toBeInstanceOf(DrillError);
    for (const text of [String(error), inspect(error, { depth: 10 }), JSON.stringify(error)]) {
      expect(text).not.toContain("sk-very-secret");
    }
  });
});

describe("unwrap and the throwing client", () => {
  it("unwrap returns the success body", async () => {
    const client = clientAnswering(() => json({ total: 1, drills: [DRILLABLE] }));
    const data = await unwrap(client.GET("/api/2/store", { params: { query: { query: "verbs" } } }));
    expect(data.total).toBe(1);
    expect(data.drills[0]?.name).toBe("Spanish verbs");
  });

  it("unwrap of a result from outside the client names what the response tells, and no more", async () => {
    // A response made by hand has no URL; one from a fetch has one. Neither carries the method.
    const bare = new Response(null, { status: 503 });
    const fromHand = (await caught(unwrap({ error: undefined, response: bare }))) as DrillApiError;
    expect(fromHand).toBeInstanceOf(DrillApiError);
    expect(fromHand.operation).toEqual({ method: "(unknown method)", path: "(unknown path)" });

    const fetched = new Response(null, { status: 503 });
    const url = `${BASE_URL}/api/2/version?secret=1`;
    Object.defineProperty(fetched, "url", { value: url });
    const fromFetch = (await caught(unwrap({ error: undefined, response: fetched }))) as DrillApiError;
    expect(fromFetch.operation).toEqual({ method: "(unknown method)", path: new URL(url).pathname });
    expect(fromFetch.message).not.toContain("secret");
  });

  it("unwrap returns undefined for 204 No Content", async () => {
    const client = clientAnswering(() => new Response(null, { status: 204 }));
    await expect(
      unwrap(client.PUT("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: "d" } } })),
    ).resolves.toBeUndefined();
  });

  it("a throwOnError client returns data and throws DrillApiError", async () => {
    const recorder = recordingFetch(
      () => json(QUESTION),
      () => json({ ID: "query_missing" }, { status: 400 }),
    );
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: false,
      throwOnError: true,
    });
    const question = await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: "d" } } });
    expect(question.question?.ask?.term?.value).toBe("comer");
    const error = await caught(client.GET("/api/2/store", { params: { query: {} } }));
    expect(error).toBeInstanceOf(DrillApiError);
    expect(error).toMatchObject({
      status: 400,
      errorId: "query_missing",
      operation: { method: "GET", path: "/api/2/store" },
    });
  });

  it("a throwing client shares middleware with its raw side", async () => {
    const recorder = recordingFetch(() => json({ ID: "nope" }, { status: 403 }));
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: false,
      throwOnError: true,
    });
    client.use({
      onRequest({ request }) {
        request.headers.set("x-added", "yes");
        return request;
      },
    });
    const { error, response } = await client.raw.GET("/api/2/version");
    expect(error).toEqual({ ID: "nope" });
    expect(response.status).toBe(403);
    expect(recorder.requests[0]?.headers.get("x-added")).toBe("yes");
  });

  it("a throwing client names the operation even when a middleware answers by itself", async () => {
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: () => Promise.reject(new Error("not reached")),
      retry: false,
      throwOnError: true,
      middleware: [{ onRequest: () => json({ ID: "cached-failure" }, { status: 503 }) }],
    });
    const error = (await caught(
      client.DELETE("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: "x" } } }),
    )) as DrillApiError;
    expect(error.operation).toEqual({ method: "DELETE", path: "/api/2.1/repertoire/{drillable}" });
    expect(error.errorId).toBe("cached-failure");
  });
});

describe("error classes", () => {
  it("every class has its stable code and extends DrillError", () => {
    const response = new Response(null, { status: 500 });
    const operation = { method: "GET", path: "/x" };
    const errors: [DrillError, DrillErrorCode][] = [
      [new DrillApiError({ status: 500, body: undefined, operation, response }), "ERR_API"],
      [new DrillTimeoutError({ timeoutMs: 5, method: "GET", url: "https://a/x" }), "ERR_TIMEOUT"],
      [
        new DrillNetworkError({
          method: "GET",
          url: "https://a/x",
          attempts: 2,
          cause: new TypeError("boom"),
        }),
        "ERR_NETWORK",
      ],
      [new DrillInvalidOptionError("baseUrl", "bad"), "ERR_INVALID_OPTION"],
      [new DrillInvalidParameterError("drill", "bad"), "ERR_INVALID_PARAMETER"],
      [new DrillUnexpectedResponseError({ operation, problem: "bad", body: 1 }), "ERR_UNEXPECTED_RESPONSE"],
    ];
    for (const [error, code] of errors) {
      expect(error).toBeInstanceOf(DrillError);
      expect(error).toBeInstanceOf(Error);
      expectDocumentedClientCode(error, code);
      expect(error.name).toBe(error.constructor.name);
    }
    // Each class has its own code, so `error.code` alone tells them apart.
    expect(new Set(errors.map(([, code]) => code)).size).toBe(errors.length);
  });

  it("a network error names the request, the attempts and the cause", () => {
    const request = { method: "GET", url: "https://a/x" };
    const cause = new TypeError("boom");
    for (const attempts of [1, 2, 3]) {
      const network = new DrillNetworkError({ ...request, attempts, cause });
      const counted = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
      expect(network.message).toBe(
        `${request.method} ${request.url} failed without a response after ${counted}: ${cause.message}`,
      );
      expect(network.cause).toBeInstanceOf(TypeError);
    }
  });
});

describe("DrillNetworkError keeps credentials out", () => {
  const LEAKY = "failed: Authorization: Bearer abc.def.ghi";

  async function networkError(cause: unknown): Promise<DrillNetworkError> {
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: () => Promise.reject(cause),
      retry: false,
      headers: { Authorization: "Bearer abc.def.ghi" },
    });
    const error = await caught(client.GET("/api/2.1/version"));
    expect(error).toBeInstanceOf(DrillNetworkError);
    return error as DrillNetworkError;
  }

  function exposed(error: Error): string[] {
    return [
      error.message,
      String(error),
      error.stack ?? "",
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      inspect(error, { depth: 10, showHidden: true }),
    ];
  }

  it("scrubs the token from the message, the cause, toString, JSON.stringify and util.inspect", async () => {
    const error = await networkError(new TypeError(LEAKY));
    for (const text of exposed(error)) {
      expect(text).not.toContain("abc.def.ghi");
    }
    // The header value (scheme and token) is replaced by the marker; the rest of the message stays.
    const scrubbed = LEAKY.replace("Bearer abc.def.ghi", REDACTED);
    expect(error.message).toBe(
      `GET ${BASE_URL}/api/2.1/version failed without a response after 1 attempt: ${scrubbed}`,
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    expect((error.cause as Error).message).toBe(scrubbed);
  });

  it.each([
    ["a bare bearer token", "socket hang up (Bearer s3cr3t-T0ken_x)", "s3cr3t-T0ken_x"],
    [
      "a JWT without a scheme",
      "bad header eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl in request",
      "eyJhbGciOiJSUzI1NiJ9",
    ],
    ["a quoted header value in JSON", 'headers {"authorization":"Token t0p-s3cret"}', "t0p-s3cret"],
  ])("scrubs %s", async (_name, message, secret) => {
    const error = await networkError(new Error(message));
    for (const text of exposed(error)) expect(text).not.toContain(secret);
  });

  it("scrubs nested causes and string causes, keeps codes and drops non-Error objects", async () => {
    const inner = Object.assign(new Error(`connect refused, sent ${LEAKY}`), { code: "ECONNREFUSED" });
    const nested = await networkError(new TypeError("fetch failed", { cause: inner }));
    for (const text of exposed(nested)) expect(text).not.toContain("abc.def.ghi");
    const innerCopy = (nested.cause as Error).cause as Error & { code?: string };
    expect(innerCopy.code).toBe("ECONNREFUSED");
    const scrubbed = LEAKY.replace("Bearer abc.def.ghi", REDACTED);
    expect(innerCopy.message).toBe(`connect refused, sent ${scrubbed}`);

    const fromString = await networkError(LEAKY);
    expect(fromString.cause).toBe(scrubbed);
    const fromObject = await networkError({ headers: { authorization: "Bearer abc.def.ghi" } });
    expect("cause" in fromObject).toBe(false);
    for (const text of exposed(fromObject)) expect(text).not.toContain("abc.def.ghi");
  });

  it("leaves ordinary messages with host names and addresses intact", async () => {
    const ordinary = "getaddrinfo ENOTFOUND api.drill-practice.example (10.0.0.1)";
    const error = await networkError(new Error(ordinary));
    expect(error.message).toContain(ordinary);
    expect(error.message).not.toContain(REDACTED);
  });
});
