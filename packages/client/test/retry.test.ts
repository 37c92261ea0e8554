import { describe, expect, it } from "vitest";
import { parseHttpDate, parseRetryAfter } from "../src/core/http-date.js";
import { resolveRetryPolicy, retryDelay } from "../src/core/retry.js";
import { createDrillClient, DrillNetworkError, DrillTimeoutError, type RetryOptions } from "../src/index.js";
import { BASE_URL, type Handler, json, recordingFetch } from "./helpers.js";

/** Retry hooks that sleep instantly, advance a virtual clock and log every wait. */
function virtualTime(random = () => 0.5) {
  let now = 1_700_000_000_000;
  const delays: number[] = [];
  const hooks: Pick<RetryOptions, "sleep" | "now" | "random"> = {
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      delays.push(ms);
      now += ms;
    },
    now: () => now,
    random,
  };
  return { hooks, delays, advance: (ms: number) => (now += ms) };
}

function client(retry: RetryOptions | false, ...script: Handler[]) {
  const recorder = recordingFetch(...script);
  return {
    recorder,
    client: createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry, timeoutMs: false }),
  };
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    json({ ID: `status-${code}` }, { status: code, headers });
const ok = () => json({ version: "ok" });
const noContent = () => new Response(null, { status: 204 });
const networkDown = () => Promise.reject(new TypeError("fetch failed"));

describe("retries: which failures and methods", () => {
  it.each([429, 502, 503, 504])("retries a GET answered with %i and returns the success", async (code) => {
    const time = virtualTime();
    const { client: c, recorder } = client({ ...time.hooks }, status(code), ok);
    const { data, response } = await c.GET("/api/2/version");
    expect(response.status).toBe(200);
    expect(data).toEqual({ version: "ok" });
    expect(recorder.requests).toHaveLength(2);
    expect(time.delays).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409, 500, 501])("does not retry a GET answered with %i", async (code) => {
    const time = virtualTime();
    const { client: c, recorder } = client({ ...time.hooks }, status(code), ok);
    const { error, response } = await c.GET("/api/2/version");
    expect(response.status).toBe(code);
    expect(error).toEqual({ ID: `status-${code}` });
    expect(recorder.requests).toHaveLength(1);
  });

  it("retries network errors and then succeeds", async () => {
    const time = virtualTime();
    const { client: c, recorder } = client({ ...time.hooks }, networkDown, networkDown, ok);
    const { data } = await c.GET("/api/2/version");
    expect(data).toEqual({ version: "ok" });
    expect(recorder.requests).toHaveLength(3);
  });

  it("returns an answer it does not retry as it came, also after a network error", async () => {
    const time = virtualTime();
    const { client: c, recorder } = client({ ...time.hooks, maxAttempts: 3 }, networkDown, status(404), ok);
    const { error, response } = await c.GET("/api/2/version");
    expect(response.status).toBe(404);
    expect(error).toEqual({ ID: "status-404" });
    expect(recorder.requests).toHaveLength(2);
  });

  it.each([2, 4])(
    "stops after the configured %i attempts and returns the last answer",
    async (maxAttempts) => {
      const time = virtualTime();
      const { client: c, recorder } = client({ ...time.hooks, maxAttempts }, status(503));
      const { error, response } = await c.GET("/api/2/version");
      expect(response.status).toBe(503);
      expect(error).toEqual({ ID: "status-503" });
      expect(recorder.requests).toHaveLength(maxAttempts);
      expect(time.delays).toHaveLength(maxAttempts - 1);
    },
  );

  it("gives up on network errors with a DrillNetworkError counting the attempts", async () => {
    const time = virtualTime();
    const { client: c, recorder } = client({ ...time.hooks, maxAttempts: 3 }, networkDown);
    const error = await c.GET("/api/2/version").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrillNetworkError);
    expect(error).toMatchObject({ code: "ERR_NETWORK", attempts: 3 });
    expect((error as DrillNetworkError).cause).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      `GET ${BASE_URL}/api/2/version failed without a response after 3 attempts: fetch failed`,
    );
    expect(recorder.requests).toHaveLength(3);
  });

  it("never retries POST, not even for 503 or a network error", async () => {
    const time = virtualTime();
    const body = {
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      client_id: "c",
      client_secret: "s",
      assertion: "a",
    } as const;
    const failing = client({ ...time.hooks, maxAttempts: 5 }, status(503), ok);
    const { response } = await failing.client.POST("/daas/oauth/token", { body });
    expect(response.status).toBe(503);
    expect(failing.recorder.requests).toHaveLength(1);

    const down = client({ ...time.hooks, maxAttempts: 5 }, networkDown, ok);
    const error = await down.client.POST("/daas/oauth/token", { body }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "ERR_NETWORK", attempts: 1 });
    expect(down.recorder.requests).toHaveLength(1);
  });

  it("retries PUT and DELETE only when the caller opts in, re-sending the same body", async () => {
    const time = virtualTime();
    const defaults = client({ ...time.hooks }, status(503), ok);
    const first = await defaults.client.PUT("/api/2/answer/{reference}", {
      params: { path: { reference: "r1" } },
      body: { answer: ["to eat"] },
    });
    expect(first.response.status).toBe(503);
    expect(defaults.recorder.requests).toHaveLength(1);

    const optedIn = client(
      { ...time.hooks, methods: ["GET", "PUT", "DELETE"] },
      status(503),
      noContent,
      status(503),
      ok,
    );
    const put = await optedIn.client.PUT("/api/2/answer/{reference}", {
      params: { path: { reference: "r1" } },
      body: { answer: ["to eat"] },
    });
    expect(put.response.status).toBe(204);
    expect(optedIn.recorder.bodies.slice(0, 2)).toEqual(["answer=to+eat", "answer=to+eat"]);
    const removed = await optedIn.client.DELETE("/api/2.1/repertoire/{drillable}", {
      params: { path: { drillable: "d" } },
    });
    expect(removed.response.status).toBe(200);
    expect(optedIn.recorder.requests.map((request) => request.method)).toEqual([
      "PUT",
      "PUT",
      "DELETE",
      "DELETE",
    ]);
  });

  it("does not retry with retry: false or maxAttempts: 1", async () => {
    for (const retry of [false, { maxAttempts: 1 }] as const) {
      const { client: c, recorder } = client(retry, status(503), ok);
      const { response } = await c.GET("/api/2/version");
      expect(response.status).toBe(503);
      expect(recorder.requests).toHaveLength(1);
    }
  });

  it("honours a custom status list and a retryOn function", async () => {
    const time = virtualTime();
    const list = client({ ...time.hooks, retryOn: [500] }, status(500), status(503), ok);
    expect((await list.client.GET("/api/2/version")).response.status).toBe(503);
    expect(list.recorder.requests).toHaveLength(2);

    const seen: string[] = [];
    const decide = client(
      {
        ...time.hooks,
        retryOn: (context) => {
          seen.push(
            `${context.attempt}:${context.method}:${context.response?.status ?? context.error?.name}`,
          );
          return context.response?.status === 418;
        },
      },
      status(418),
      networkDown,
    );
    const error = await decide.client.GET("/api/2/version").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrillNetworkError);
    expect(seen).toEqual(["1:GET:418", "2:GET:DrillNetworkError"]);
  });

  it("does not retry a timed-out attempt unless retryOn says so", async () => {
    const never: Handler = (request) =>
      new Promise((_resolve, reject) =>
        request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
      );
    const time = virtualTime();
    const recorder = recordingFetch(never, ok);
    const c = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      timeoutMs: 20,
      retry: { ...time.hooks },
    });
    await expect(c.GET("/api/2/version")).rejects.toBeInstanceOf(DrillTimeoutError);
    expect(recorder.requests).toHaveLength(1);

    const again = recordingFetch(never, ok);
    const retrying = createDrillClient({
      baseUrl: BASE_URL,
      fetch: again.fetch,
      timeoutMs: 20,
      retry: { ...time.hooks, retryOn: (context) => context.error instanceof DrillTimeoutError },
    });
    expect((await retrying.GET("/api/2/version")).data).toEqual({ version: "ok" });
    expect(again.requests).toHaveLength(2);
  });
});

describe("retries: timing", () => {
  it("backs off exponentially with full jitter within [0, min(max, base·2^n))", async () => {
    const draws = [0, 0.999_999, 0.5, 0.999_999, 0.25];
    const time = virtualTime(() => draws.shift() ?? 0);
    const { client: c } = client(
      { ...time.hooks, maxAttempts: 6, initialDelayMs: 100, maxDelayMs: 1_000 },
      status(503),
    );
    await c.GET("/api/2/version");
    expect(time.delays).toEqual([0, 199, 200, 799, 250]);
    const ceilings = [100, 200, 400, 800, 1_000];
    time.delays.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(ceilings[index] ?? 0);
    });
  });

  it("draws different delays from the real random source, all within bounds", async () => {
    const delays: number[] = [];
    const { client: c } = client(
      {
        maxAttempts: 10,
        initialDelayMs: 1_000,
        maxDelayMs: 4_000,
        maxElapsedMs: 1_000_000,
        sleep: async (ms) => {
          delays.push(ms);
        },
      },
      status(429),
    );
    for (let round = 0; round < 5; round++) await c.GET("/api/2/version");
    expect(delays).toHaveLength(45);
    for (const [index, delay] of delays.entries()) {
      const retry = (index % 9) + 1;
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(Math.min(4_000, 1_000 * 2 ** (retry - 1)));
    }
    expect(new Set(delays).size).toBeGreaterThan(10);
  });

  it("waits the Retry-After seconds instead of the backoff", async () => {
    const time = virtualTime(() => 0);
    const { client: c } = client({ ...time.hooks }, status(429, { "Retry-After": "3" }), ok);
    await c.GET("/api/2/version");
    expect(time.delays).toEqual([3_000]);
  });

  it("waits until a Retry-After HTTP-date", async () => {
    const time = virtualTime(() => 0);
    const at = new Date(time.hooks.now?.() ?? 0);
    at.setUTCSeconds(at.getUTCSeconds() + 7, 0);
    const expected = at.getTime() - (time.hooks.now?.() ?? 0);
    const { client: c } = client({ ...time.hooks }, status(503, { "Retry-After": at.toUTCString() }), ok);
    await c.GET("/api/2/version");
    expect(time.delays).toEqual([expected]);
  });

  it("measures a Retry-After HTTP-date against the response's Date header, not the local clock", async () => {
    // The local clock runs an hour ahead of the server; only the server's two stamps count.
    const time = virtualTime(() => 0);
    const serverNow = Date.UTC(2025, 0, 15, 12, 0, 0);
    const { client: c } = client(
      { ...time.hooks },
      status(503, {
        Date: new Date(serverNow).toUTCString(),
        "Retry-After": new Date(serverNow + 9_000).toUTCString(),
      }),
      ok,
    );
    const { response } = await c.GET("/api/2/version");
    expect(response.status).toBe(200);
    expect(time.delays).toEqual([9_000]);
  });

  it("does not retry when Retry-After asks for more than maxDelayMs and returns the answer as is", async () => {
    const time = virtualTime();
    const { client: c, recorder } = client(
      { ...time.hooks, maxDelayMs: 5_000 },
      status(429, { "Retry-After": "3600" }),
      ok,
    );
    const { response, error } = await c.GET("/api/2/version");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3600");
    expect(error).toEqual({ ID: "status-429" });
    expect(recorder.requests).toHaveLength(1);
    expect(time.delays).toEqual([]);
  });

  const serverNow = Date.UTC(2025, 0, 15, 12, 0, 0);
  it.each<{ when: string; limits: Partial<RetryOptions>; headers: Record<string, string> }>([
    {
      when: "a Retry-After HTTP-date lies further ahead than maxDelayMs",
      limits: { maxDelayMs: 5_000 },
      headers: {
        Date: new Date(serverNow).toUTCString(),
        "Retry-After": new Date(serverNow + 6_000).toUTCString(),
      },
    },
    {
      when: "Retry-After asks for more than the remaining maxElapsedMs",
      limits: { maxDelayMs: 60_000, maxElapsedMs: 30_000 },
      headers: { "Retry-After": "31" },
    },
  ])("does not retry when $when", async ({ limits, headers }) => {
    const time = virtualTime();
    const { client: c, recorder } = client({ ...time.hooks, ...limits }, status(503, headers), ok);
    const { response } = await c.GET("/api/2/version");
    expect(response.status).toBe(503);
    expect(recorder.requests).toHaveLength(1);
    expect(time.delays).toEqual([]);
  });

  it("retries after exactly maxDelayMs when Retry-After asks for that much", async () => {
    const time = virtualTime();
    const { client: c } = client(
      { ...time.hooks, maxDelayMs: 5_000 },
      status(429, { "Retry-After": "5" }),
      ok,
    );
    const { response } = await c.GET("/api/2/version");
    expect(response.status).toBe(200);
    expect(time.delays).toEqual([5_000]);
  });

  it("falls back to backoff for an unusable Retry-After", async () => {
    const time = virtualTime(() => 0.5);
    const { client: c } = client(
      { ...time.hooks, initialDelayMs: 100 },
      status(503, { "Retry-After": "soon" }),
      status(503, { "Retry-After": "-5" }),
      ok,
    );
    await c.GET("/api/2/version");
    expect(time.delays).toEqual([50, 100]);
  });

  it("stops when the next wait would pass maxElapsedMs and returns the last answer", async () => {
    const time = virtualTime(() => 0);
    const { client: c, recorder } = client(
      { ...time.hooks, maxAttempts: 10, maxElapsedMs: 10_000, maxDelayMs: 60_000 },
      status(503, { "Retry-After": "4" }),
    );
    const { response } = await c.GET("/api/2/version");
    expect(response.status).toBe(503);
    // Waits of 4 s at 0 s and 4 s fit in 10 s; the third (at 8 s) would end at 12 s.
    expect(time.delays).toEqual([4_000, 4_000]);
    expect(recorder.requests).toHaveLength(3);
  });

  it("counts the time attempts take against maxElapsedMs", async () => {
    const time = virtualTime(() => 0);
    const slow: Handler = () => {
      time.advance(6_000);
      return status(503)();
    };
    const { client: c, recorder } = client({ ...time.hooks, maxAttempts: 10, maxElapsedMs: 10_000 }, slow);
    await c.GET("/api/2/version");
    expect(recorder.requests).toHaveLength(2);
  });

  it("discards the body of a response it retries", async () => {
    const time = virtualTime();
    let cancelled = 0;
    const withBody: Handler = () =>
      new Response(
        new ReadableStream({
          pull: (controller) => controller.enqueue(new TextEncoder().encode("x")),
          cancel: () => {
            cancelled++;
          },
        }),
        { status: 503 },
      );
    const { client: c } = client({ ...time.hooks }, withBody, ok);
    await c.GET("/api/2/version");
    expect(cancelled).toBe(1);
  });
});

describe("retries: caller abort", () => {
  it("does not retry after the caller aborted during the wait", async () => {
    const controller = new AbortController();
    const recorder = recordingFetch(status(503), ok);
    const c = createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: {
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => reject(signal.reason), { once: true });
            controller.abort(new Error("user gave up"));
          }),
      },
    });
    await expect(c.GET("/api/2/version", { signal: controller.signal })).rejects.toThrow("user gave up");
    expect(recorder.requests).toHaveLength(1);
  });

  it("does not retry after the caller aborted during an attempt", async () => {
    const controller = new AbortController();
    const time = virtualTime();
    const recorder = recordingFetch(() => {
      controller.abort(new Error("stop"));
      return Promise.reject(new TypeError("fetch failed"));
    }, ok);
    const c = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: { ...time.hooks } });
    await expect(c.GET("/api/2/version", { signal: controller.signal })).rejects.toThrow("stop");
    expect(recorder.requests).toHaveLength(1);
    expect(time.delays).toHaveLength(0);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const recorder = recordingFetch(ok);
    const c = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch });
    await expect(c.GET("/api/2/version", { signal: AbortSignal.abort(new Error("early")) })).rejects.toThrow(
      "early",
    );
    expect(recorder.requests).toHaveLength(0);
  });

  it("the default sleep waits on timers and stops on abort", async () => {
    const policy = resolveRetryPolicy({});
    if (!policy) throw new Error("expected a policy");
    const started = performance.now();
    await policy.sleep(30, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    const controller = new AbortController();
    const waiting = policy.sleep(60_000, controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 0, 15, 12, 0, 0);
  it.each([
    ["0", 0],
    ["120", 120_000],
    [" 5 ", 5_000],
    ["Wed, 15 Jan 2025 12:00:30 GMT", 30_000],
    ["Wednesday, 15-Jan-25 12:01:00 GMT", 60_000],
    ["Wed Jan 15 12:00:10 2025", 10_000],
    ["Tue, 14 Jan 2025 12:00:00 GMT", 0],
  ])("reads %j as %i ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([null, "", "soon", "-1", "1.5", "2025-01-15T12:00:30Z", "Wed, 15 Jan 2025 12:00:30 PST"])(
    "ignores %j",
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );

  it("reads an asctime date with a single-digit day (space-padded) to the second", () => {
    const sunday = Date.UTC(2025, 0, 5, 12, 0, 0);
    expect(parseHttpDate("Sun Jan  5 12:00:10 2025")).toBe(sunday + 10_000);
    expect(parseRetryAfter("Sun Jan  5 12:00:10 2025", sunday)).toBe(10_000);
    // Day 5, not 15 or 50: a wrong day would give a wait of days or none at all.
    expect(parseRetryAfter("Sun Jan  5 12:00:10 2025", sunday - 86_400_000)).toBe(86_410_000);
  });

  it("reads a two-digit RFC 850 year that looks far ahead as the past century", () => {
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(0);
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 0))).toBe(37_000);
  });

  it("reads a two-digit RFC 850 year up to 50 years ahead as this century and one more as the past one", () => {
    const nowYear = new Date(now).getUTCFullYear();
    const twoDigits = (year: number) => String(year % 100).padStart(2, "0");
    const inFifty = nowYear + 50;
    expect(parseHttpDate(`Monday, 15-Jan-${twoDigits(inFifty)} 12:00:00 GMT`, now)).toBe(
      Date.UTC(inFifty, 0, 15, 12, 0, 0),
    );
    const inFiftyOne = nowYear + 51;
    expect(parseHttpDate(`Monday, 15-Jan-${twoDigits(inFiftyOne)} 12:00:00 GMT`, now)).toBe(
      Date.UTC(inFiftyOne - 100, 0, 15, 12, 0, 0),
    );
  });

  it("reads an HTTP-date against a valid Date header and ignores an unusable one", () => {
    const later = "Wed, 15 Jan 2025 12:00:30 GMT";
    // Local clock 1 h fast: the Date header decides.
    expect(parseRetryAfter(later, now + 3_600_000, "Wed, 15 Jan 2025 12:00:10 GMT")).toBe(20_000);
    expect(parseRetryAfter(later, now, "yesterday")).toBe(30_000);
    expect(parseRetryAfter(later, now, null)).toBe(30_000);
    // A Date header does not change a delay given in seconds.
    expect(parseRetryAfter("4", now, "Wed, 15 Jan 2025 11:00:00 GMT")).toBe(4_000);
  });

  it("retryDelay gives up (undefined) on a Retry-After above maxDelayMs and keeps the backoff capped", () => {
    const policy = resolveRetryPolicy({
      maxDelayMs: 2_000,
      initialDelayMs: 1_000,
      random: () => 0.999,
      now: () => now,
    });
    if (!policy) throw new Error("expected a policy");
    const tooLong = new Response(null, { status: 429, headers: { "retry-after": "10" } });
    expect(retryDelay(policy, 1, tooLong)).toBeUndefined();
    const fits = new Response(null, { status: 429, headers: { "retry-after": "2" } });
    expect(retryDelay(policy, 1, fits)).toBe(2_000);
    expect(retryDelay(policy, 5, undefined)).toBe(1_998);
  });
});

describe("parseHttpDate", () => {
  it("reads the three HTTP-date forms and nothing else", () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT")).toBe(at);
    expect(parseHttpDate(" Sunday, 06-Nov-94 08:49:37 GMT ", Date.UTC(2000, 0, 1))).toBe(at);
    expect(parseHttpDate("Sun Nov  6 08:49:37 1994")).toBe(at);
    for (const value of ["1994-11-06T08:49:37Z", "soon", "", null, undefined]) {
      expect(parseHttpDate(value)).toBeUndefined();
    }
  });
});
