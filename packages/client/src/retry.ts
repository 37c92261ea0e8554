import { DrillInvalidOptionError } from "./errors.js";
import { parseRetryAfter } from "./http-date.js";
import { abortableSleep } from "./signals.js";

/**
 * HTTP methods the client may re-send. POST and PATCH are left out on purpose:
 * re-sending them could repeat a side effect (a token exchange, a creation).
 *
 * @example
 * ```ts
 * import type { RetryableMethod } from "@drill-practice/client";
 *
 * const methods: RetryableMethod[] = ["GET", "HEAD", "OPTIONS", "PUT"];
 * ```
 */
export type RetryableMethod = "GET" | "HEAD" | "OPTIONS" | "PUT" | "DELETE";

/**
 * What a custom `retryOn` function gets to decide whether to try again.
 * Exactly one of `response` and `error` is set.
 *
 * @example
 * ```ts
 * import type { RetryContext } from "@drill-practice/client";
 *
 * const retryOn = (context: RetryContext) => context.response?.status === 503;
 * ```
 */
export interface RetryContext {
  /** Number of the attempt that just ended, starting at 1. */
  readonly attempt: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** The response of the attempt, when one arrived. */
  readonly response: Response | undefined;
  /** Why no response arrived: a `DrillNetworkError` or a `DrillTimeoutError`. */
  readonly error: Error | undefined;
}

/**
 * Retry settings of {@link createDrillClient}. Every field is optional; pass
 * `retry: false` to switch retries off.
 *
 * Defaults: 3 attempts in all, backoff from 250 ms up to 20 s with full jitter,
 * at most 60 s from the first attempt, methods GET, HEAD and OPTIONS, statuses
 * 429, 502, 503 and 504 plus network errors.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 *
 * const client = createDrillClient({
 *   baseUrl: "https://drill.example",
 *   retry: { attempts: 5, maxElapsedMs: 20_000, methods: ["GET", "PUT"] },
 * });
 * ```
 */
export interface RetryOptions {
  /** Most attempts in all, including the first (an integer from 1 to 10; 1 means no retry). */
  attempts?: number;
  /** Backoff base: the n-th retry waits a random time below `baseDelayMs * 2^(n-1)`. */
  baseDelayMs?: number;
  /**
   * Cap of one backoff wait. A server's `Retry-After` longer than this ends the
   * retries instead (the last answer is returned as it is).
   */
  maxDelayMs?: number;
  /**
   * No retry starts (and no wait begins) that would end later than this after
   * the first attempt began; this holds for a server's `Retry-After` too.
   */
  maxElapsedMs?: number;
  /** Methods that may be re-sent. PUT and DELETE are opt-in. */
  methods?: readonly RetryableMethod[];
  /**
   * Statuses that trigger a retry (network errors always do for allowed
   * methods), or a function deciding for each failed attempt. Timeouts are not
   * retried unless a function says so.
   */
  retryOn?: readonly number[] | ((context: RetryContext) => boolean);
  /** Waits between attempts; injectable for tests. Must reject when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Random source in [0, 1) for the jitter; injectable for tests. */
  random?: () => number;
  /** Clock in epoch milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * Retry settings with every default applied (internal).
 *
 * @example
 * ```ts
 * import { type RetryPolicy, resolveRetryPolicy } from "./retry.js";
 *
 * const policy: RetryPolicy | undefined = resolveRetryPolicy({ attempts: 2 });
 * ```
 */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxElapsedMs: number;
  readonly methods: ReadonlySet<string>;
  readonly retryOn: readonly number[] | ((context: RetryContext) => boolean);
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
  readonly now: () => number;
}

const RETRYABLE_METHODS: readonly RetryableMethod[] = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];
const MAX_ATTEMPTS = 10;
// setTimeout cannot wait longer than this.
const MAX_DELAY = 2_147_483_647;

/** Built-in retry defaults. */
const DEFAULT_RETRY = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxElapsedMs: 60_000,
  methods: ["GET", "HEAD", "OPTIONS"] as readonly RetryableMethod[],
  retryOn: [429, 502, 503, 504] as readonly number[],
} as const;

/**
 * Validates retry options and fills in the defaults; `undefined` means no retries.
 *
 * @example
 * ```ts
 * import { resolveRetryPolicy } from "./retry.js";
 *
 * resolveRetryPolicy(false); // undefined
 * resolveRetryPolicy({ methods: ["GET", "PUT"] })?.methods.has("PUT"); // true
 * ```
 */
export function resolveRetryPolicy(options: RetryOptions | false | undefined): RetryPolicy | undefined {
  if (options === false) return undefined;
  if (options === undefined) return resolveRetryPolicy({});
  if (typeof options !== "object" || options === null) {
    throw new DrillInvalidOptionError("retry", "expected an object with retry settings or false");
  }
  const attempts = options.attempts ?? DEFAULT_RETRY.attempts;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_ATTEMPTS) {
    throw new DrillInvalidOptionError("retry.attempts", `expected an integer from 1 to ${MAX_ATTEMPTS}`);
  }
  const baseDelayMs = checkDelay("retry.baseDelayMs", options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs);
  const maxDelayMs = checkDelay("retry.maxDelayMs", options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs);
  const maxElapsedMs = checkDelay("retry.maxElapsedMs", options.maxElapsedMs ?? DEFAULT_RETRY.maxElapsedMs);
  if (maxDelayMs < baseDelayMs) {
    throw new DrillInvalidOptionError("retry.maxDelayMs", "must not be smaller than retry.baseDelayMs");
  }
  const methods = options.methods ?? DEFAULT_RETRY.methods;
  if (!Array.isArray(methods)) {
    throw new DrillInvalidOptionError("retry.methods", "expected an array of HTTP methods");
  }
  for (const method of methods) {
    if (!RETRYABLE_METHODS.includes(method)) {
      throw new DrillInvalidOptionError(
        "retry.methods",
        `${JSON.stringify(method)} cannot be retried; allowed are ${RETRYABLE_METHODS.join(", ")}`,
      );
    }
  }
  const retryOn = options.retryOn ?? DEFAULT_RETRY.retryOn;
  if (typeof retryOn !== "function") {
    if (!Array.isArray(retryOn)) {
      throw new DrillInvalidOptionError("retry.retryOn", "expected an array of HTTP statuses or a function");
    }
    for (const status of retryOn) {
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new DrillInvalidOptionError(
          "retry.retryOn",
          `${JSON.stringify(status)} is not an error status (400–599)`,
        );
      }
    }
  }
  for (const hook of ["sleep", "random", "now"] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== "function") {
      throw new DrillInvalidOptionError(`retry.${hook}`, "expected a function");
    }
  }
  return {
    attempts,
    baseDelayMs,
    maxDelayMs,
    maxElapsedMs,
    methods: new Set(methods),
    retryOn,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
}

function checkDelay(option: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_DELAY) {
    throw new DrillInvalidOptionError(option, `expected milliseconds from 0 to ${MAX_DELAY}`);
  }
  return value;
}

/**
 * Whether a failed attempt may be retried, judging by the method and the
 * policy's statuses or function.
 *
 * @example
 * ```ts
 * import { resolveRetryPolicy, shouldRetry } from "./retry.js";
 *
 * const policy = resolveRetryPolicy({});
 * const response = new Response(null, { status: 503 });
 * if (policy) shouldRetry(policy, { attempt: 1, method: "GET", response, error: undefined }); // true
 * ```
 */
export function shouldRetry(policy: RetryPolicy, context: RetryContext): boolean {
  if (!policy.methods.has(context.method)) return false;
  if (typeof policy.retryOn === "function") return policy.retryOn(context);
  if (context.response) return policy.retryOn.includes(context.response.status);
  return context.error?.name === "DrillNetworkError";
}

/**
 * Wait before the retry that follows attempt number `attempt`: the server's
 * `Retry-After` when it sent a usable one, else exponential backoff with full
 * jitter capped by `maxDelayMs`. Returns `undefined` when the server asks for
 * a longer wait than `maxDelayMs`: retrying sooner than it asked would only
 * earn another refusal, so the caller gets the answer as it is.
 *
 * @example
 * ```ts
 * import { resolveRetryPolicy, retryDelay } from "./retry.js";
 *
 * const policy = resolveRetryPolicy({ baseDelayMs: 100, random: () => 0.5 });
 * if (policy) retryDelay(policy, 3, undefined); // 200: half of 100 · 2²
 * ```
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  response: Response | undefined,
): number | undefined {
  const retryAfter = response
    ? parseRetryAfter(response.headers.get("retry-after"), policy.now(), response.headers.get("date"))
    : undefined;
  if (retryAfter !== undefined) return retryAfter > policy.maxDelayMs ? undefined : retryAfter;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}
