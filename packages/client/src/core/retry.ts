/**
 * The retry policy of the SDK: which failures are retried, how long to wait
 * (backoff with full jitter, or the server's `Retry-After`), and the budget
 * that bounds the whole. The client's requests and auth's discovery and token
 * requests go through the same loop ({@link retrying}).
 */
import { DrillInvalidOptionError, DrillNetworkError, DrillTimeoutError } from "./errors.js";
import { parseRetryAfter } from "./http-date.js";
import { isPermanentFetchFailure } from "./network-cause.js";
import { abortableSleep } from "./sleep.js";

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
 * Retry settings, the same in `createDrillClient` and in `@drill-practice/auth`.
 * Every field is optional; pass `retry: false` to switch retries off.
 *
 * Defaults ({@link DEFAULT_RETRY}): 3 attempts in all, backoff from 250 ms up
 * to 20 s with full jitter, nothing started or running later than 60 s after
 * the first attempt began, methods GET, HEAD and OPTIONS, statuses 429, 502,
 * 503 and 504 plus network errors, except those that cannot pass: a port or
 * scheme the platform refuses ("bad port"), an address that does not parse, a TLS
 * certificate it does not trust.
 *
 * @example
 * ```ts
 * import { createDrillClient, type RetryOptions } from "@drill-practice/client";
 *
 * const retry: RetryOptions = { maxAttempts: 5, maxElapsedMs: 20_000, methods: ["GET", "PUT"] };
 * const client = createDrillClient({ baseUrl: "https://drill.example", retry });
 * ```
 */
export interface RetryOptions {
  /** Most attempts in all, including the first (an integer from 1 to 10; 1 means no retry). */
  maxAttempts?: number;
  /** Backoff base: the n-th retry waits a random time below `initialDelayMs * 2^(n-1)`. */
  initialDelayMs?: number;
  /**
   * Cap of one backoff wait. A server's `Retry-After` longer than this ends the
   * retries instead (the last answer is returned as it is).
   */
  maxDelayMs?: number;
  /**
   * The budget of one call: no wait begins that would end later than this
   * after the first attempt began (a server's `Retry-After` included), and an
   * attempt's timeout is cut to what is left of it.
   */
  maxElapsedMs?: number;
  /** Methods that may be re-sent. PUT and DELETE are opt-in. (Auth's token POST is always retried: see its README.) */
  methods?: readonly RetryableMethod[];
  /**
   * Statuses that trigger a retry (network errors always do for allowed
   * methods, except a refused port or scheme, an invalid URL and an untrusted TLS
   * certificate), or a function deciding for each failed attempt. Timeouts are not
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
 * import { type RetryPolicy, resolveRetryPolicy } from "@drill-practice/client/internal";
 *
 * const policy: RetryPolicy | undefined = resolveRetryPolicy({ maxAttempts: 2 });
 * ```
 */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxElapsedMs: number;
  readonly methods: ReadonlySet<string>;
  readonly retryOn: readonly number[] | ((context: RetryContext) => boolean);
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
  readonly now: () => number;
}

// Names of the former client and auth retry options, so old code fails with a pointer.
const RENAMED: readonly [string, string][] = [
  ["attempts", "maxAttempts"],
  ["baseDelayMs", "initialDelayMs"],
  ["attemptTimeoutMs", "timeoutMs (a top-level option)"],
];
const RETRYABLE_METHODS: readonly RetryableMethod[] = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];
const MAX_ATTEMPTS = 10;
// setTimeout cannot wait longer than this.
const MAX_DELAY = 2_147_483_647;

/**
 * The retry defaults of both packages.
 *
 * @example
 * ```ts
 * import { DEFAULT_RETRY } from "@drill-practice/client/internal";
 *
 * const patient = { maxElapsedMs: DEFAULT_RETRY.maxElapsedMs * 2 };
 * ```
 */
export const DEFAULT_RETRY = Object.freeze({
  maxAttempts: 3,
  initialDelayMs: 250,
  maxDelayMs: 20_000,
  maxElapsedMs: 60_000,
  methods: ["GET", "HEAD", "OPTIONS"] as readonly RetryableMethod[],
  retryOn: [429, 502, 503, 504] as readonly number[],
});

/**
 * Default limit of one HTTP attempt, response headers and body together, in both packages.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIMEOUT_MS } from "@drill-practice/client/internal";
 *
 * const timeoutMs = DEFAULT_TIMEOUT_MS / 3;
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Validates retry options and fills in the defaults; `undefined` means no retries.
 *
 * @example
 * ```ts
 * import { resolveRetryPolicy } from "@drill-practice/client/internal";
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
  for (const [old, now] of RENAMED) {
    if (old in options) throw new DrillInvalidOptionError(`retry.${old}`, `renamed to retry.${now}`);
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS) {
    throw new DrillInvalidOptionError("retry.maxAttempts", `expected an integer from 1 to ${MAX_ATTEMPTS}`);
  }
  const [initialDelayMs, maxDelayMs, maxElapsedMs] = DELAYS.map((name) =>
    checkDelay(name, options[name] ?? DEFAULT_RETRY[name]),
  ) as [number, number, number];
  if (maxDelayMs < initialDelayMs) {
    throw new DrillInvalidOptionError("retry.maxDelayMs", "must not be smaller than retry.initialDelayMs");
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
    maxAttempts,
    initialDelayMs,
    maxDelayMs,
    maxElapsedMs,
    methods: new Set(methods),
    retryOn,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
}

const DELAYS = ["initialDelayMs", "maxDelayMs", "maxElapsedMs"] as const;

function checkDelay(option: (typeof DELAYS)[number], value: number): number {
  // NaN fails the range check too.
  if (typeof value !== "number" || !(value >= 0 && value <= MAX_DELAY)) {
    throw new DrillInvalidOptionError(`retry.${option}`, `expected milliseconds from 0 to ${MAX_DELAY}`);
  }
  return value;
}

/**
 * Whether a failed attempt may be retried, judging by the policy's statuses or
 * function (the caller has checked the method).
 */
export function shouldRetry(policy: RetryPolicy, context: RetryContext): boolean {
  if (typeof policy.retryOn === "function") return policy.retryOn(context);
  if (context.response) return policy.retryOn.includes(context.response.status);
  // A failure the platform will repeat (bad port, unparsable URL, untrusted TLS
  // certificate) is not worth another attempt.
  return context.error instanceof DrillNetworkError && !isPermanentFetchFailure(context.error.cause);
}

/**
 * Wait before the retry that follows attempt number `attempt`: the server's
 * `Retry-After` when it sent a usable one, else exponential backoff with full
 * jitter capped by `maxDelayMs`. Returns `undefined` when the server asks for
 * a longer wait than `maxDelayMs`: retrying sooner than it asked would only
 * earn another refusal, so the caller gets the answer as it is.
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
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}

/**
 * What {@link retrying} needs to know about the request besides the policy.
 */
export interface RetryingRequest {
  /** HTTP method, passed on to a `retryOn` function. */
  readonly method: string;
  /** Whether the request may be sent again at all (the client checks `retry.methods`). */
  readonly resend: boolean;
  /** The caller's signal: once it fires, the loop ends with its reason and sends nothing more. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs `attempt` until it yields a success, an answer or error that is not
 * retried, or the policy runs out; returns the last response or throws the
 * last `DrillNetworkError`/`DrillTimeoutError`. Any other error ends the loop
 * at once. `attempt` gets the attempt number and the milliseconds left of the
 * budget (to cut its timeout to). A first attempt that succeeds costs one
 * clock read and nothing else.
 *
 * @example
 * ```ts
 * import { resolveRetryPolicy, retrying } from "@drill-practice/client/internal";
 *
 * const policy = resolveRetryPolicy({ maxAttempts: 4 });
 * const response = await retrying(policy, { method: "GET", resend: true, signal: undefined }, () =>
 *   fetch("https://drill.example/api/2.1/version"),
 * );
 * ```
 */
export function retrying(
  policy: RetryPolicy | undefined,
  request: RetryingRequest,
  attempt: (attempt: number, remainingMs: number) => Promise<Response>,
): Promise<Response> {
  // A policy of one attempt needs no shortcut: the loop returns or throws after attempt 1.
  if (policy === undefined || !request.resend) {
    return attempt(1, policy === undefined ? Number.POSITIVE_INFINITY : policy.maxElapsedMs);
  }
  const started = policy.now();
  // Nothing is kept for a retry until attempt 1 has failed.
  return attempt(1, policy.maxElapsedMs).then(
    (response) =>
      response.ok || policy.maxAttempts < 2
        ? response
        : retryLoop(policy, request, attempt, started, response, undefined),
    (error: unknown) => retryLoop(policy, request, attempt, started, undefined, error),
  );
}

/** The retries after a first attempt that answered `response` or failed with `error`. */
async function retryLoop(
  policy: RetryPolicy,
  request: RetryingRequest,
  attempt: (attempt: number, remainingMs: number) => Promise<Response>,
  started: number,
  response: Response | undefined,
  error: unknown,
): Promise<Response> {
  const { signal } = request;
  for (let number = 1; ; number++) {
    if (response === undefined) {
      if (!(error instanceof DrillNetworkError || error instanceof DrillTimeoutError)) throw error;
      if (number >= policy.maxAttempts || signal?.aborted) throw error;
    } else if (response.ok || number >= policy.maxAttempts) {
      return response;
    }
    const failure = response === undefined ? (error as Error) : undefined;
    const context = { attempt: number, method: request.method, response, error: failure };
    const delay = shouldRetry(policy, context) ? retryDelay(policy, number, response) : undefined;
    if (delay === undefined || policy.now() - started + delay > policy.maxElapsedMs) {
      if (failure) throw failure;
      return response as Response;
    }
    if (signal?.aborted) throw signal.reason;
    discard(response);
    // Made here, not at module scope: workerd refuses to start a Worker that makes one there.
    await policy.sleep(delay, signal ?? new AbortController().signal);
    if (signal?.aborted) throw signal.reason;
    try {
      response = await attempt(number + 1, policy.maxElapsedMs - (policy.now() - started));
    } catch (next) {
      response = undefined;
      error = next;
    }
  }
}

/**
 * Cancels the body of a response that is dropped, without waiting: a cancel
 * can stay pending for good (a teed body settles only when both branches do).
 */
function discard(response: Response | undefined): void {
  response?.body?.cancel().catch(ignore);
}

function ignore(): void {
  // The body of a response that is dropped does not matter.
}
