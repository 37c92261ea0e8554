import { describe, expect, it } from "vitest";
import {
  type RetryingRequest,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retrying,
} from "../src/core/retry.js";
import { DrillInvalidOptionError, DrillNetworkError } from "../src/index.js";

// The longest wait setTimeout accepts (2^31 - 1 ms); the documented upper bound of every delay option.
const MAX_DELAY = 2 ** 31 - 1;

/** The error `resolveRetryPolicy` throws for `options`, or undefined when it accepts them. */
function rejection(options: unknown): unknown {
  try {
    resolveRetryPolicy(options as RetryOptions);
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectInvalid(options: unknown, option: string, rule: string): void {
  const error = rejection(options);
  expect(error).toBeInstanceOf(DrillInvalidOptionError);
  expect(error).toMatchObject({ code: "ERR_INVALID_OPTION", option });
  expect((error as Error).message).toBe(`Invalid option ${option}: ${rule}`);
}

function policyOf(options: RetryOptions): RetryPolicy {
  const policy = resolveRetryPolicy(options);
  if (!policy) throw new Error("expected a policy");
  return policy;
}

describe("resolveRetryPolicy: the retry option itself", () => {
  it.each([
    ["a number", 5],
    ["a string", "yes"],
    ["true", true],
    ["null", null],
    ["a function", () => ({ maxAttempts: 2 })],
  ])("rejects %s: it must be an object or false", (_label, options) => {
    expectInvalid(options, "retry", "expected an object with retry settings or false");
  });

  it.each([
    ["attempts", "maxAttempts"],
    ["baseDelayMs", "initialDelayMs"],
    ["attemptTimeoutMs", "timeoutMs (a top-level option)"],
  ])("points the former option retry.%s to its new name", (old, now) => {
    expectInvalid({ [old]: 3 }, `retry.${old}`, `renamed to retry.${now}`);
  });
});

describe("resolveRetryPolicy: maxAttempts (an integer from 1 to 10)", () => {
  it.each([1, 10])("accepts %i", (maxAttempts) => {
    expect(policyOf({ maxAttempts }).maxAttempts).toBe(maxAttempts);
  });

  it.each([0, 11, 2.5, Number.NaN])("rejects %d", (maxAttempts) => {
    expectInvalid({ maxAttempts }, "retry.maxAttempts", "expected an integer from 1 to 10");
  });
});

describe("resolveRetryPolicy: delays (milliseconds from 0 to 2^31 - 1)", () => {
  it("accepts both ends of the range", () => {
    expect(policyOf({ initialDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 0 })).toMatchObject({
      initialDelayMs: 0,
      maxDelayMs: 0,
      maxElapsedMs: 0,
    });
    expect(
      policyOf({ initialDelayMs: MAX_DELAY, maxDelayMs: MAX_DELAY, maxElapsedMs: MAX_DELAY }),
    ).toMatchObject({ initialDelayMs: MAX_DELAY, maxDelayMs: MAX_DELAY, maxElapsedMs: MAX_DELAY });
  });

  const outside = [-1, MAX_DELAY + 1, Number.NaN, Number.POSITIVE_INFINITY, "100", false];
  for (const option of ["initialDelayMs", "maxDelayMs", "maxElapsedMs"] as const) {
    it.each(outside)(`rejects ${option}: %j`, (value) => {
      expectInvalid({ [option]: value }, `retry.${option}`, `expected milliseconds from 0 to ${MAX_DELAY}`);
    });
  }

  it("accepts maxDelayMs equal to initialDelayMs and rejects one below it", () => {
    expect(policyOf({ initialDelayMs: 500, maxDelayMs: 500 }).maxDelayMs).toBe(500);
    expectInvalid(
      { initialDelayMs: 500, maxDelayMs: 499 },
      "retry.maxDelayMs",
      "must not be smaller than retry.initialDelayMs",
    );
  });
});

describe("resolveRetryPolicy: methods and retryOn", () => {
  it.each([["GET"], [{ 0: "GET" }], [new Set(["GET"])]])(
    "rejects methods that are not an array: %j",
    (methods) => {
      expectInvalid({ methods }, "retry.methods", "expected an array of HTTP methods");
    },
  );

  it("rejects a method that cannot be retried, listing the ones that can", () => {
    expectInvalid(
      { methods: ["GET", "PATCH"] },
      "retry.methods",
      '"PATCH" cannot be retried; allowed are GET, HEAD, OPTIONS, PUT, DELETE',
    );
  });

  it.each([[503], ["503"], [{ 0: 503 }]])(
    "rejects retryOn that is neither an array nor a function: %j",
    (retryOn) => {
      expectInvalid({ retryOn }, "retry.retryOn", "expected an array of HTTP statuses or a function");
    },
  );

  it("accepts the error statuses from 400 to 599", () => {
    expect(policyOf({ retryOn: [400, 599] }).retryOn).toEqual([400, 599]);
  });

  it.each([399, 600, 503.5, "503"])("rejects the retryOn status %j", (status) => {
    expectInvalid(
      { retryOn: [503, status] },
      "retry.retryOn",
      `${JSON.stringify(status)} is not an error status (400–599)`,
    );
  });
});

/** A policy on a virtual clock whose waits are recorded and take no real time. */
function virtual(options: RetryOptions = {}) {
  let now = 1_700_000_000_000;
  const sleeps: number[] = [];
  const policy = policyOf({
    random: () => 0.5,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
    ...options,
  });
  return { policy, sleeps, advance: (ms: number) => (now += ms) };
}

/** An attempt function answering from a script (the last entry repeats) and recording its arguments. */
function scripted(...script: (() => Response)[]) {
  const calls: [number, number][] = [];
  return {
    calls,
    attempt: async (number: number, remainingMs: number) => {
      calls.push([number, remainingMs]);
      const next = script[Math.min(calls.length, script.length) - 1];
      if (!next) throw new Error("empty script");
      return next();
    },
  };
}

const unavailable = () => new Response(null, { status: 503 });
const success = () => new Response("done", { status: 200 });
const networkError = () => {
  throw new DrillNetworkError({
    method: "GET",
    url: "https://drill.example/x",
    attempts: 1,
    cause: new TypeError("fetch failed"),
  });
};
const request = (overrides: Partial<RetryingRequest> = {}): RetryingRequest => ({
  method: "GET",
  resend: true,
  signal: undefined,
  ...overrides,
});

describe("retrying: when there is nothing to retry", () => {
  it("without a policy makes one attempt with an unlimited budget and returns its answer", async () => {
    const { attempt, calls } = scripted(unavailable, success);
    const response = await retrying(undefined, request(), attempt);
    expect(response.status).toBe(503);
    expect(calls).toEqual([[1, Number.POSITIVE_INFINITY]]);
  });

  it("makes one attempt, with the policy's whole budget, for a request that may not be re-sent", async () => {
    const time = virtual({ maxAttempts: 5, maxElapsedMs: 7_000 });
    const { attempt, calls } = scripted(unavailable, success);
    const response = await retrying(time.policy, request({ resend: false }), attempt);
    expect(response.status).toBe(503);
    expect(calls).toEqual([[1, 7_000]]);
    expect(time.sleeps).toEqual([]);

    const failing = scripted(networkError, success);
    await expect(retrying(time.policy, request({ resend: false }), failing.attempt)).rejects.toBeInstanceOf(
      DrillNetworkError,
    );
    expect(failing.calls).toHaveLength(1);
  });

  it("makes one attempt with the whole budget when maxAttempts is 1", async () => {
    const time = virtual({ maxAttempts: 1, maxElapsedMs: 7_000 });
    const { attempt, calls } = scripted(unavailable, success);
    expect((await retrying(time.policy, request(), attempt)).status).toBe(503);
    const failing = scripted(networkError, success);
    await expect(retrying(time.policy, request(), failing.attempt)).rejects.toBeInstanceOf(DrillNetworkError);
    expect([...calls, ...failing.calls]).toEqual([
      [1, 7_000],
      [1, 7_000],
    ]);
    expect(time.sleeps).toEqual([]);
  });
});

describe("retrying: the budget", () => {
  it("gives the first attempt the whole budget for one clock read", async () => {
    // A clock that moves on every read, as a real one does between two reads.
    let now = 5_000;
    let reads = 0;
    const policy = policyOf({
      maxElapsedMs: 9_000,
      now: () => {
        reads++;
        return now++;
      },
    });
    const { attempt, calls } = scripted(success);
    expect((await retrying(policy, request(), attempt)).status).toBe(200);
    expect(calls).toEqual([[1, 9_000]]);
    expect(reads).toBe(1);
  });

  it("gives every later attempt what is left of maxElapsedMs", async () => {
    const attemptMs = 1_500;
    const time = virtual({ maxAttempts: 3, initialDelayMs: 1_000, maxElapsedMs: 10_000 });
    const calls: [number, number][] = [];
    const slowlyUnavailable = async (number: number, remainingMs: number) => {
      calls.push([number, remainingMs]);
      time.advance(attemptMs);
      return unavailable();
    };
    expect((await retrying(time.policy, request(), slowlyUnavailable)).status).toBe(503);
    // random() is 0.5: the waits are half of 1000·2^0 and of 1000·2^1.
    expect(time.sleeps).toEqual([500, 1_000]);
    expect(calls).toEqual([
      [1, 10_000],
      [2, 10_000 - (attemptMs + 500)],
      [3, 10_000 - (2 * attemptMs + 500 + 1_000)],
    ]);
  });

  it("still takes a wait that ends exactly when maxElapsedMs runs out", async () => {
    const time = virtual({ maxDelayMs: 4_000, maxElapsedMs: 4_000 });
    const limited = () => new Response(null, { status: 429, headers: { "retry-after": "4" } });
    const { attempt, calls } = scripted(limited, success);
    expect((await retrying(time.policy, request(), attempt)).status).toBe(200);
    expect(time.sleeps).toEqual([4_000]);
    expect(calls).toHaveLength(2);
  });
});

describe("retrying: failures", () => {
  it("ends at once on an error that is neither a network error nor a timeout, whatever retryOn says", async () => {
    const asked: unknown[] = [];
    const time = virtual({
      retryOn: (context) => {
        asked.push(context);
        return true;
      },
    });
    const bug = new TypeError("cannot read properties of undefined");
    let calls = 0;
    const broken = async () => {
      calls++;
      throw bug;
    };
    await expect(retrying(time.policy, request(), broken)).rejects.toBe(bug);
    expect(calls).toBe(1);
    expect(asked).toEqual([]);
    expect(time.sleeps).toEqual([]);
  });

  it("retries network errors and bodiless answers when the caller passed no signal", async () => {
    const time = virtual();
    const { attempt, calls } = scripted(networkError, unavailable, success);
    const response = await retrying(time.policy, request({ signal: undefined }), attempt);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("done");
    expect(calls.map(([number]) => number)).toEqual([1, 2, 3]);
    expect(time.sleeps).toHaveLength(2);
  });
});

describe("retrying: the caller's signal", () => {
  it("starts no wait once the caller aborted while an answer was on its way", async () => {
    const controller = new AbortController();
    const reason = new Error("user left");
    const time = virtual();
    const calls: number[] = [];
    const abortingAttempt = async (number: number) => {
      calls.push(number);
      controller.abort(reason);
      return unavailable();
    };
    let sleeps = 0;
    const policy = { ...time.policy, sleep: async () => void sleeps++ };
    await expect(retrying(policy, request({ signal: controller.signal }), abortingAttempt)).rejects.toBe(
      reason,
    );
    expect(calls).toEqual([1]);
    expect(sleeps).toBe(0);
  });

  it("sends nothing more when the caller aborted during a wait that then ended anyway", async () => {
    const controller = new AbortController();
    const reason = new Error("user left");
    const time = virtual();
    // A sleep that does not end early on abort: the loop must still notice the abort after it.
    const policy = { ...time.policy, sleep: async () => controller.abort(reason) };
    const { attempt, calls } = scripted(unavailable, success);
    await expect(retrying(policy, request({ signal: controller.signal }), attempt)).rejects.toBe(reason);
    expect(calls).toHaveLength(1);
  });
});
