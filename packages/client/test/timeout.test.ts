import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_TIMEOUT_MS } from "../src/core/retry.js";
import { validateTimeout } from "../src/core/timeout.js";
import { createTransport } from "../src/core/transport.js";
import { createDrillClient, DrillInvalidOptionError, DrillTimeoutError } from "../src/index.js";
import { BASE_URL, hangingFetch, json, recordingFetch } from "./helpers.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Records how a promise settles without letting a rejection go unhandled. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

/** A response whose body sends one chunk and then stalls until its stream is cancelled. */
function stallingBody(status = 200): Response {
  const encoder = new TextEncoder();
  let sent = false;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode('{"partial":'));
        }
        return new Promise(() => {});
      },
    }),
    { status, headers: { "content-type": "application/json" } },
  );
}

/** A client without retries whose every request hangs, so only its timeout or the caller can end it. */
function hangingClient(timeoutMs: number | false = 1_000) {
  return createDrillClient({ baseUrl: BASE_URL, fetch: hangingFetch(), timeoutMs, retry: false });
}

describe("timeouts", () => {
  it("rejects with DrillTimeoutError when the response headers take too long", async () => {
    const client = hangingClient();
    const call = track(client.GET("/api/2/store", { params: { query: { query: "secret words" } } }));
    await vi.advanceTimersByTimeAsync(999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.error).toBeInstanceOf(DrillTimeoutError);
    expect(call.error).toMatchObject({ code: "ERR_TIMEOUT", timeoutMs: 1_000 });
    expect((call.error as Error).message).toBe(`GET ${BASE_URL}/api/2/store timed out after 1000 ms`);
  });

  it("defaults to 30 seconds", async () => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: hangingFetch(), retry: false });
    const call = track(client.GET("/api/2/version"));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.error).toMatchObject({ code: "ERR_TIMEOUT", timeoutMs: 30_000 });
  });

  it("times out a fetch that ignores its signal, and drops its late answer", async () => {
    let cancelled = false;
    const late = new Response(
      new ReadableStream({
        cancel: () => {
          cancelled = true;
        },
      }),
    );
    const deaf = () => new Promise<Response>((resolve) => setTimeout(() => resolve(late), 800));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: deaf, timeoutMs: 500, retry: false });
    const call = track(client.GET("/api/2/version"));
    await vi.advanceTimersByTimeAsync(500);
    expect(call.error).toBeInstanceOf(DrillTimeoutError);
    await vi.advanceTimersByTimeAsync(300);
    expect(cancelled).toBe(true);
  });

  it("covers the body: a body that stalls after the headers times out", async () => {
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: async () => stallingBody(),
      timeoutMs: 2_000,
      retry: false,
    });
    const call = track(client.GET("/api/2/version"));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.error).toBeInstanceOf(DrillTimeoutError);
  });

  it("clears its timer once the body has been read", async () => {
    const recorder = recordingFetch(() => json({ version: "1" }));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data } = await client.GET("/api/2/version");
    expect(data).toEqual({ version: "1" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    ["204 No Content", () => new Response(null, { status: 204 })],
    ["Content-Length: 0", () => new Response("", { status: 200, headers: { "content-length": "0" } })],
  ])("clears its timer at once for %s", async (_label, answer) => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => answer(), retry: false });
    await client.PUT("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: "d" } } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("sets no timer with timeoutMs: false", async () => {
    const client = hangingClient(false);
    const controller = new AbortController();
    const call = track(client.GET("/api/2/version", { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(call.settled).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    controller.abort(new Error("done waiting"));
    await vi.advanceTimersByTimeAsync(0);
    expect((call.error as Error).message).toBe("done waiting");
  });

  it("keeps the response URL, status and headers of the wrapped response", async () => {
    const answer = json({ version: "1" }, { status: 200, headers: { "x-request-id": "abc" } });
    Object.defineProperty(answer, "url", { value: `${BASE_URL}/api/2/version` });
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => answer, retry: false });
    const { response } = await client.GET("/api/2/version");
    expect(response.url).toBe(`${BASE_URL}/api/2/version`);
    expect(response.headers.get("x-request-id")).toBe("abc");
    expect(response.status).toBe(200);
  });

  it("gives every attempt its own timeout", async () => {
    let calls = 0;
    const flaky = (request: Request) => {
      calls++;
      if (calls === 1) return Promise.reject(new TypeError("fetch failed"));
      return hangingFetch()(request);
    };
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: flaky,
      timeoutMs: 1_000,
      retry: { sleep: async () => {}, random: () => 0 },
    });
    const call = track(client.GET("/api/2/version"));
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(2);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.error).toBeInstanceOf(DrillTimeoutError);
  });
});

describe("caller signals", () => {
  it("rejects with the caller's reason, not a timeout, when the caller aborts first", async () => {
    const client = hangingClient();
    const controller = new AbortController();
    const call = track(client.GET("/api/2/version", { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error("navigation"));
    await vi.advanceTimersByTimeAsync(0);
    expect((call.error as Error).message).toBe("navigation");
    expect(call.error).not.toBeInstanceOf(DrillTimeoutError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborts a body that is being read", async () => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => stallingBody(), retry: false });
    const controller = new AbortController();
    const call = track(client.GET("/api/2/version", { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    expect(call.settled).toBe(false);
    controller.abort(new Error("stop reading"));
    await vi.advanceTimersByTimeAsync(0);
    expect((call.error as Error).message).toBe("stop reading");
  });

  it("passes the combined signal on to the fetch", async () => {
    const seen: AbortSignal[] = [];
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: (request) => {
        seen.push(request.signal);
        return hangingFetch()(request);
      },
      timeoutMs: 1_000,
      retry: false,
    });
    const call = track(client.GET("/api/2/version"));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toBe(call.error);
  });

  it("ends an injected fetch's attempt on timeout or on the caller's abort, and leaves no timer", async () => {
    const transport = createTransport({
      fetch: hangingFetch(),
      timeoutMs: 1_000,
      retry: undefined,
      userAgent: undefined,
    });
    const timedOut = track(transport(`${BASE_URL}/a`));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(timedOut.error).toBeInstanceOf(DrillTimeoutError);

    const controller = new AbortController();
    const aborted = track(transport(`${BASE_URL}/b`, { signal: controller.signal }));
    controller.abort(new Error("manual"));
    await vi.advanceTimersByTimeAsync(0);
    expect((aborted.error as Error).message).toBe("manual");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("the timeoutMs option", () => {
  // The longest wait setTimeout accepts (2^31 - 1 ms).
  const MAX_TIMEOUT_MS = 2 ** 31 - 1;

  it("defaults to DEFAULT_TIMEOUT_MS and keeps false (no timeout)", () => {
    expect(validateTimeout(undefined)).toBe(DEFAULT_TIMEOUT_MS);
    expect(validateTimeout(false)).toBe(false);
  });

  it.each([0.5, 1, 30_000, MAX_TIMEOUT_MS])("accepts %d ms", (value) => {
    expect(validateTimeout(value)).toBe(value);
  });

  it.each([
    0,
    -1,
    MAX_TIMEOUT_MS + 1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    "1000",
    true,
    null,
  ])("rejects %j naming the option and the rule", (value) => {
    let caught: unknown;
    try {
      validateTimeout(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DrillInvalidOptionError);
    expect(caught).toMatchObject({ code: "ERR_INVALID_OPTION", option: "timeoutMs" });
    expect((caught as Error).message).toBe(
      `Invalid option timeoutMs: expected milliseconds above 0 and at most ${MAX_TIMEOUT_MS}, or false`,
    );
  });
});
