import { type RetryOptions, resolveRetryPolicy } from "@drill-practice/client/internal";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ServerClock, systemClock } from "../src/clock.js";
import { TokenExchangeError, TokenResponseError } from "../src/errors.js";
import { exchangeAssertion, JWT_BEARER_GRANT_TYPE } from "../src/token-exchange.js";
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type FetchInput,
  json,
  requestFetch,
  settleWithFakeTimers,
} from "./helpers.js";

const ENDPOINT = "https://auth.drill.test/daas/oauth/token";
const ASSERTION = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzYSJ9.c2lnbmF0dXJlLXNlY3JldA";
const GOOD = {
  access_token: "at-very-secret-token",
  token_type: "bearer",
  expires_in: 3599,
  scope: "ROLE_USER",
  jti: "j1",
};

type Answer = Response | Error | (() => Response | Promise<Response> | Error);

interface Call {
  readonly at: number;
  readonly url: string;
  readonly method: string;
  readonly redirect: Request["redirect"];
  readonly headers: Headers;
  readonly body: string;
}

/** A fetch that answers from a script and records each request and when (fake time) it arrived. */
function scripted(answers: Answer[]) {
  const calls: Call[] = [];
  const fetch = requestFetch(async (request) => {
    const at = Date.now();
    const { url, method, redirect, headers } = request;
    calls.push({ at, url, method, redirect, headers, body: await request.text() });
    const next = answers[Math.min(calls.length - 1, answers.length - 1)];
    const answer = typeof next === "function" ? await next() : next;
    if (answer instanceof Error) throw answer;
    if (answer === undefined) throw new Error("script exhausted");
    // Each call needs a fresh body.
    return answer.clone();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

function http(fetch: typeof globalThis.fetch, retry: RetryOptions = {}, timeoutMs = 30_000) {
  return {
    fetch,
    timeoutMs,
    retry: resolveRetryPolicy({ random: () => 0.5, ...retry }),
    serverClock: new ServerClock(systemClock),
  };
}

function exchange(fetch: typeof globalThis.fetch, retry: RetryOptions = {}, timeoutMs = 30_000) {
  return exchangeAssertion({
    endpoint: ENDPOINT,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    createAssertion: async () => ASSERTION,
    http: http(fetch, retry, timeoutMs),
  });
}

function gaps(calls: { at: number }[]): number[] {
  return calls.slice(1).map((call, i) => call.at - (calls[i] as { at: number }).at);
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await settleWithFakeTimers(promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "Date"],
    now: Date.parse("2030-05-01T10:00:00Z"),
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("token request", () => {
  it("posts exactly the four form parameters, form-encoded, without following redirects", async () => {
    const { fetch, calls } = scripted([json(GOOD)]);
    const result = await settleWithFakeTimers(exchange(fetch));
    expect(result.response).toEqual(GOOD);
    expect(result.attempts).toBe(1);
    expect(result.receivedAt).toBe(Date.now());
    const [call] = calls;
    expect(call?.url).toBe(ENDPOINT);
    expect(call?.method).toBe("POST");
    expect(call?.redirect).toBe("manual");
    expect(call?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(call?.body);
    expect([...form.keys()].sort()).toEqual(["assertion", "client_id", "client_secret", "grant_type"]);
    expect(form.get("grant_type")).toBe(JWT_BEARER_GRANT_TYPE);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(form.get("client_id")).toBe(CLIENT_ID);
    expect(form.get("client_secret")).toBe(CLIENT_SECRET);
    expect(form.get("assertion")).toBe(ASSERTION);
  });

  it("builds a fresh assertion for every attempt", async () => {
    const { fetch, calls } = scripted([json({}, { status: 503 }), json(GOOD)]);
    let n = 0;
    const result = await settleWithFakeTimers(
      exchangeAssertion({
        endpoint: ENDPOINT,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        createAssertion: async () => `assertion-${++n}`,
        http: http(fetch),
      }),
    );
    expect(result.attempts).toBe(2);
    expect(calls.map((c) => new URLSearchParams(c.body).get("assertion"))).toEqual([
      "assertion-1",
      "assertion-2",
    ]);
  });
});

describe("retries (the shared policy of @drill-practice/client/internal; auth retries its POST)", () => {
  it("retries 503 with a fresh attempt and stops after maxAttempts", async () => {
    const { fetch, calls } = scripted([json({ error: "temporarily_unavailable" }, { status: 503 })]);
    const error = await rejection(exchange(fetch, { random: () => 0 }));
    expect(error).toBeInstanceOf(TokenExchangeError);
    expect(error).toMatchObject({ code: "ERR_TOKEN_EXCHANGE", status: 503, attempts: 3 });
    expect(error.message).toContain("HTTP 503 temporarily_unavailable after 3 attempts");
    expect(calls).toHaveLength(3);
    expect(calls.every((call) => call.method === "POST")).toBe(true);
  });

  it("waits a full-jitter backoff below initialDelayMs · 2^(n-1) between attempts", async () => {
    const { fetch, calls } = scripted([json({}, { status: 502 })]);
    await rejection(exchange(fetch, { random: () => 0.5, maxAttempts: 4, initialDelayMs: 200 }));
    // Half of 200, 400, 800.
    expect(gaps(calls)).toEqual([100, 200, 400]);
  });

  it("does not retry a status outside retryOn (500 by default)", async () => {
    const { fetch, calls } = scripted([json({}, { status: 500 })]);
    const error = await rejection(exchange(fetch));
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 500, attempts: 1 });
  });

  it("retries 429 and network errors, then succeeds", async () => {
    const { fetch, calls } = scripted([
      json({ error: "slow_down" }, { status: 429 }),
      new TypeError("fetch failed"),
      json(GOOD),
    ]);
    const result = await settleWithFakeTimers(exchange(fetch));
    expect(result.attempts).toBe(3);
    expect(calls).toHaveLength(3);
  });

  it("gives up on repeated network errors with a clear error, the system code and the cause", async () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const { fetch, calls } = scripted([new TypeError("fetch failed", { cause })]);
    const error = await rejection(exchange(fetch, { maxAttempts: 3 }));
    expect(error).toMatchObject({ code: "ERR_TOKEN_EXCHANGE", status: undefined, attempts: 3 });
    expect(error.message).toContain("could not reach the token endpoint");
    expect(error.message).toContain("after 3 attempts: fetch failed (ECONNREFUSED)");
    expect(error.cause).toMatchObject({ code: "ERR_NETWORK", attempts: 3 });
    expect(calls).toHaveLength(3);
  });

  it("honours Retry-After in seconds", async () => {
    const { fetch, calls } = scripted([
      json({}, { status: 429, headers: { "retry-after": "3" } }),
      json(GOOD),
    ]);
    await settleWithFakeTimers(exchange(fetch));
    expect(gaps(calls)).toEqual([3000]);
  });

  it("honours Retry-After as an HTTP date, measured against the response's Date", async () => {
    // The server's clock is an hour ahead; the wait it asks for is still 2 s.
    const serverNow = Date.now() + 3_600_000;
    const headers = {
      date: new Date(serverNow).toUTCString(),
      "retry-after": new Date(serverNow + 2000).toUTCString(),
    };
    const { fetch, calls } = scripted([json({}, { status: 503, headers }), json(GOOD)]);
    await settleWithFakeTimers(exchange(fetch));
    expect(gaps(calls)).toEqual([2000]);
  });

  it("stops at once when Retry-After exceeds maxDelayMs, and says so", async () => {
    const { fetch, calls } = scripted([
      json({ error: "slow_down" }, { status: 429, headers: { "retry-after": "120" } }),
    ]);
    const error = await rejection(exchange(fetch));
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, attempts: 1, retryAfterSeconds: 120 });
    expect(error.message).toContain("the server asked to wait 120 s, beyond the retry budget");
  });

  it("bounds the total time spent by maxElapsedMs", async () => {
    const { fetch, calls } = scripted([json({}, { status: 502 })]);
    const started = Date.now();
    const error = await rejection(
      exchange(fetch, {
        maxAttempts: 10,
        initialDelayMs: 1000,
        maxDelayMs: 1000,
        maxElapsedMs: 3000,
        random: () => 0.999,
      }),
    );
    expect(Date.now() - started).toBeLessThanOrEqual(3000);
    // Waits of 999 ms each: three fit in 3000 ms, a fourth would not.
    expect(gaps(calls)).toEqual([999, 999, 999]);
    expect(error).toMatchObject({ attempts: 4, status: 502 });
  });

  it("reports a timeout when the attempt hangs, as ERR_TOKEN_EXCHANGE caused by ERR_TIMEOUT", async () => {
    const fetch = vi.fn(
      (input: FetchInput) =>
        new Promise<Response>((_resolve, reject) => {
          const { signal } = input as Request;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    const started = Date.now();
    const error = await rejection(exchange(fetch as unknown as typeof globalThis.fetch, {}, 500));
    expect(Date.now() - started).toBe(500);
    expect(error).toMatchObject({ code: "ERR_TOKEN_EXCHANGE", attempts: 1 });
    expect(error.cause).toMatchObject({ code: "ERR_TIMEOUT", timeoutMs: 500 });
    expect(error.message).toContain(`POST ${ENDPOINT} timed out after 500 ms`);
  });

  it.each([400, 401, 403, 404, 409, 422])("does not retry HTTP %i", async (status) => {
    const { fetch, calls } = scripted([json({ error: "invalid_client" }, { status })]);
    const error = await rejection(exchange(fetch));
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status, attempts: 1, oauthError: "invalid_client" });
    expect(error.message).not.toContain("after");
  });

  it("does not follow a redirect with the credentials", async () => {
    const { fetch, calls } = scripted([
      new Response(null, { status: 302, headers: { location: "https://elsewhere" } }),
    ]);
    const error = await rejection(exchange(fetch));
    expect(calls).toHaveLength(1);
    expect(error.message).toContain("HTTP 302 (redirects are not followed for token requests)");
  });
});

describe("error bodies and malformed responses", () => {
  it("surfaces the service's OAuthError id and description, ahead of RFC 6749's fields", async () => {
    const { fetch } = scripted([
      json({ id: "invalid_request", description: "form parameter assertion: is required" }, { status: 400 }),
      json(
        {
          id: "invalid_grant",
          description: "assertion claim exp: expired",
          error: "other",
          error_description: "x",
        },
        { status: 400 },
      ),
    ]);
    const first = await rejection(exchange(fetch));
    expect(first).toMatchObject({
      status: 400,
      oauthError: "invalid_request",
      oauthErrorDescription: "form parameter assertion: is required",
    });
    expect(first.message).toBe(
      `token exchange at ${ENDPOINT} failed: HTTP 400 invalid_request "form parameter assertion: is required"`,
    );
    const both = await rejection(exchange(fetch));
    expect(both).toMatchObject({
      oauthError: "invalid_grant",
      oauthErrorDescription: "assertion claim exp: expired",
    });
  });

  it("scrubs secrets echoed in the service's description field", async () => {
    const { fetch } = scripted([
      json({ id: "invalid_client", description: `client secret ${CLIENT_SECRET} is wrong` }, { status: 401 }),
    ]);
    const error = (await rejection(exchange(fetch))) as TokenExchangeError;
    expect(error.message).not.toContain(CLIENT_SECRET);
    expect(error.oauthErrorDescription).toBe("client secret [redacted] is wrong");
  });

  it("surfaces RFC 6749's error and error_description", async () => {
    const { fetch } = scripted([
      json({ error: "invalid_grant", error_description: "JWT expired" }, { status: 400 }),
    ]);
    const error = await rejection(exchange(fetch));
    expect(error).toBeInstanceOf(TokenExchangeError);
    expect(error).toMatchObject({
      code: "ERR_TOKEN_EXCHANGE",
      status: 400,
      oauthError: "invalid_grant",
      oauthErrorDescription: "JWT expired",
    });
    expect(error.message).toBe(`token exchange at ${ENDPOINT} failed: HTTP 400 invalid_grant "JWT expired"`);
  });

  it("scrubs secrets echoed by the server and shortens long descriptions", async () => {
    const description = `bad assertion ${ASSERTION} for secret ${CLIENT_SECRET} ${"x".repeat(600)}`;
    const { fetch } = scripted([
      json({ error: "invalid_grant", error_description: description }, { status: 400 }),
    ]);
    const error = (await rejection(exchange(fetch))) as TokenExchangeError;
    expect(error.message).not.toContain(ASSERTION);
    expect(error.message).not.toContain(CLIENT_SECRET);
    expect(error.oauthErrorDescription).toContain("bad assertion [redacted] for secret [redacted]");
    expect(error.oauthErrorDescription?.length).toBeLessThanOrEqual(301);
  });

  it("scrubs every spelling of the client secret from descriptions, messages and causes", async () => {
    const spellings = [
      CLIENT_SECRET,
      encodeURIComponent(CLIENT_SECRET),
      new URLSearchParams({ s: CLIENT_SECRET }).toString().slice(2),
      JSON.stringify(CLIENT_SECRET).slice(1, -1),
    ];
    // The test secret is chosen so that every spelling is different.
    expect(new Set(spellings).size).toBe(4);
    const echo = scripted([
      () =>
        json({ error: "invalid_client", error_description: `got ${echo.calls[0]?.body}` }, { status: 401 }),
    ]);
    const echoed = (await rejection(exchange(echo.fetch))) as TokenExchangeError;
    expect(echoed.oauthErrorDescription).toContain("client_secret=[redacted]&assertion=[redacted]");

    // A fetch whose error quotes the body it was given (as some polyfills do).
    const quoting = vi.fn(async (input: FetchInput) => {
      throw new TypeError(`failed to send ${await (input as Request).text()}`);
    });
    const network = await rejection(
      exchange(quoting as unknown as typeof globalThis.fetch, { maxAttempts: 1 }),
    );
    const cause = network.cause as Error;
    expect(cause).toBeInstanceOf(Error);
    for (const text of [
      echoed.message,
      echoed.oauthErrorDescription ?? "",
      network.message,
      cause.message,
      cause.stack ?? "",
    ]) {
      for (const spelling of spellings) expect(text).not.toContain(spelling);
    }
    expect(cause.message).toContain("client_secret=[redacted]");
  });

  it("scrubs a client secret however short it is", async () => {
    const shortSecret = "q+ =";
    const { fetch, calls } = scripted([
      () =>
        json(
          {
            error: "invalid_client",
            error_description: `secret ${shortSecret} (${calls[0]?.body})`,
          },
          { status: 401 },
        ),
    ]);
    const error = (await rejection(
      exchangeAssertion({
        endpoint: ENDPOINT,
        clientId: CLIENT_ID,
        clientSecret: shortSecret,
        createAssertion: async () => ASSERTION,
        http: http(fetch, { maxAttempts: 1 }),
      }),
    )) as TokenExchangeError;
    expect(new URLSearchParams(calls[0]?.body).get("client_secret")).toBe(shortSecret);
    expect(error.oauthErrorDescription).toMatch(/^secret \[redacted\] \(.*client_secret=\[redacted\]&/);
    expect(error.message).not.toContain(shortSecret);
    expect(error.message).not.toContain("q%2B+%3D");
  });

  it("reports a non-JSON error body by status alone", async () => {
    const { fetch } = scripted([new Response("<html>Bad Gateway</html>", { status: 400 })]);
    const error = await rejection(exchange(fetch));
    expect(error.message).toBe(`token exchange at ${ENDPOINT} failed: HTTP 400`);
    expect(error).toMatchObject({ oauthError: undefined, oauthErrorDescription: undefined });
  });

  it.each([
    ["a body that is not JSON", new Response("access_token=at-very-secret-token"), /the body is not JSON/],
    ["an empty body", new Response(""), /the body is empty/],
    ["an array", json([GOOD]), /not a JSON object/],
    ["no access_token", json({ ...GOOD, access_token: undefined }), /"access_token" is missing/],
    [
      "an empty access_token",
      json({ ...GOOD, access_token: "" }),
      /"access_token" is not a non-empty string/,
    ],
    [
      "a numeric access_token",
      json({ ...GOOD, access_token: 12 }),
      /"access_token" is not a non-empty string/,
    ],
    ["no expires_in", json({ ...GOOD, expires_in: undefined }), /"expires_in" is missing/],
    ["expires_in as a string", json({ ...GOOD, expires_in: "3599" }), /"expires_in" is not a positive whole/],
    ["expires_in zero", json({ ...GOOD, expires_in: 0 }), /"expires_in" is not a positive whole/],
    ["expires_in negative", json({ ...GOOD, expires_in: -5 }), /"expires_in" is not a positive whole/],
    ["expires_in fractional", json({ ...GOOD, expires_in: 1.5 }), /"expires_in" is not a positive whole/],
    ["token_type not a string", json({ ...GOOD, token_type: 1 }), /"token_type" is not a string/],
  ])("rejects a 200 response with %s", async (_name, response, pattern) => {
    const { fetch, calls } = scripted([response]);
    const error = await rejection(exchange(fetch));
    expect(error).toBeInstanceOf(TokenResponseError);
    expect(error).toMatchObject({ code: "ERR_TOKEN_RESPONSE", status: 200 });
    expect(error.message).toMatch(pattern);
    expect(error.message).not.toContain(GOOD.access_token);
    expect(calls).toHaveLength(1);
  });
});
