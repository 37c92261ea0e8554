/**
 * Bounded retries for requests to the authorization server: network errors, 429 and
 * 5xx are retried with exponential backoff and jitter, `Retry-After` is honoured, and
 * both the number of attempts and the total time are capped. Other statuses are
 * returned to the caller at once.
 */
import { parseRetryAfter } from "@drill-practice/client";
import type { Clock } from "./clock.js";
import { OptionsError, TokenRequestAbortedError } from "./errors.js";

/**
 * How requests to the authorization server are retried.
 *
 * @example
 * ```ts
 * createTokenProvider({ ...options, retry: { maxAttempts: 6, maxElapsedMs: 60_000 } });
 * ```
 */
export interface RetryOptions {
  /** Total attempts including the first (1 disables retries). Default 4. */
  readonly maxAttempts?: number;
  /** Backoff ceiling before the first retry, in ms; it doubles per retry. Default 250. */
  readonly initialDelayMs?: number;
  /** Largest backoff between two attempts, in ms. Default 4000. */
  readonly maxDelayMs?: number;
  /** Budget for all attempts and waits together, in ms. Default 20000. */
  readonly maxElapsedMs?: number;
  /** Time limit of one attempt (request and response body), in ms. Default 10000. */
  readonly attemptTimeoutMs?: number;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * {@link RetryOptions} with every default filled in.
 *
 * @example
 * ```ts
 * const policy: RetryPolicy = resolveRetryPolicy({ maxAttempts: 2 });
 * ```
 */
export type RetryPolicy = Required<RetryOptions>;

/**
 * The defaults of {@link RetryOptions}.
 *
 * @example
 * ```ts
 * createTokenProvider({ ...options, retry: { maxElapsedMs: DEFAULT_RETRY.maxElapsedMs * 3 } });
 * ```
 */
export const DEFAULT_RETRY: Readonly<Omit<RetryPolicy, "random">> = Object.freeze({
  maxAttempts: 4,
  initialDelayMs: 250,
  maxDelayMs: 4000,
  maxElapsedMs: 20_000,
  attemptTimeoutMs: 10_000,
});

function positiveInteger(name: keyof RetryOptions, value: unknown, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new OptionsError(`retry.${name}`, `must be a whole number ≥ ${min}`);
  }
  return value;
}

/**
 * Validates retry options and fills in the defaults.
 *
 * @example
 * ```ts
 * resolveRetryPolicy({ maxAttempts: 1 }).maxAttempts; // 1
 * ```
 */
export function resolveRetryPolicy(options: RetryOptions | undefined = {}): RetryPolicy {
  if (typeof options !== "object" || options === null) throw new OptionsError("retry", "must be an object");
  const random = options.random ?? Math.random;
  if (typeof random !== "function") throw new OptionsError("retry.random", "must be a function");
  const policy: RetryPolicy = {
    maxAttempts: positiveInteger("maxAttempts", options.maxAttempts, 1, DEFAULT_RETRY.maxAttempts),
    initialDelayMs: positiveInteger(
      "initialDelayMs",
      options.initialDelayMs,
      0,
      DEFAULT_RETRY.initialDelayMs,
    ),
    maxDelayMs: positiveInteger("maxDelayMs", options.maxDelayMs, 0, DEFAULT_RETRY.maxDelayMs),
    maxElapsedMs: positiveInteger("maxElapsedMs", options.maxElapsedMs, 1, DEFAULT_RETRY.maxElapsedMs),
    attemptTimeoutMs: positiveInteger(
      "attemptTimeoutMs",
      options.attemptTimeoutMs,
      1,
      DEFAULT_RETRY.attemptTimeoutMs,
    ),
    random,
  };
  if (policy.maxDelayMs < policy.initialDelayMs) {
    throw new OptionsError("retry.maxDelayMs", "must not be smaller than retry.initialDelayMs");
  }
  return policy;
}

/**
 * Backoff before retry number `retry` (1 for the first retry): "equal jitter", a
 * random value between half and all of `min(maxDelayMs, initialDelayMs · 2^(retry-1))`.
 * Keeping the lower half avoids hammering the server when the random value is small.
 *
 * @example
 * ```ts
 * backoffDelay(3, { ...policy, initialDelayMs: 100, random: () => 0 }); // 200 (half of 400)
 * ```
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, "initialDelayMs" | "maxDelayMs" | "random">,
) {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  const r = Math.min(Math.max(policy.random(), 0), 1);
  return Math.round(ceiling / 2 + (r * ceiling) / 2);
}

/**
 * Whether a status is worth retrying: 429 and every 5xx.
 *
 * @example
 * ```ts
 * isRetryableStatus(503); // true
 * isRetryableStatus(400); // false
 * ```
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * A response whose body has been read within the attempt's time limit.
 *
 * @example
 * ```ts
 * const { status, body, receivedAt }: ReadResponse = outcome.response;
 * ```
 */
export interface ReadResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** Local time at which the response headers arrived, in epoch ms. */
  readonly receivedAt: number;
}

/**
 * Why the retry loop stopped on a retryable outcome.
 *
 * @example
 * ```ts
 * if (outcome.gaveUp === "retry-after") console.warn("server asked for a long pause");
 * ```
 */
export type GiveUpReason = "attempts" | "time" | "retry-after";

/**
 * Outcome of {@link sendWithRetry}.
 *
 * @example
 * ```ts
 * const outcome: RetryOutcome = await sendWithRetry((signal) => fetch(url, { signal }), { policy, clock });
 * ```
 */
export type RetryOutcome =
  | {
      readonly ok: true;
      readonly response: ReadResponse;
      readonly attempts: number;
      readonly gaveUp?: GiveUpReason;
      readonly retryAfterMs?: number;
    }
  | {
      readonly ok: false;
      readonly error: unknown;
      readonly attempts: number;
      readonly gaveUp: GiveUpReason;
    };

/**
 * Environment of {@link sendWithRetry}.
 *
 * @example
 * ```ts
 * const context: RetryContext = { policy: resolveRetryPolicy(), clock: systemClock };
 * ```
 */
export interface RetryContext {
  readonly policy: RetryPolicy;
  readonly clock: Clock;
  /** Called with every response before the retry decision (used to learn the server clock). */
  readonly onResponse?: (response: ReadResponse) => void;
  /**
   * Runs before each attempt, outside its time limit (used to sign a fresh assertion,
   * so slow signing never counts as a slow server). A failure here is not retried.
   */
  readonly beforeAttempt?: () => Promise<void>;
  /** Stops the loop: the attempt under way is aborted, a wait is cut short, and {@link TokenRequestAbortedError} is thrown. */
  readonly signal?: AbortSignal | undefined;
}

class AttemptTimeout extends Error {
  override readonly name = "TimeoutError";
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new TokenRequestAbortedError(signal.reason);
}

/**
 * Waits between attempts. The timer is unref'd (where the runtime has that, as Node
 * does) so a pending retry never keeps a process alive, and the wait ends early,
 * with {@link TokenRequestAbortedError}, when the signal fires.
 */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    throwIfAborted(signal);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new TokenRequestAbortedError(signal?.reason));
    };
    const timer: ReturnType<typeof setTimeout> = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    (timer as { unref?: () => unknown }).unref?.();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

async function attempt(
  send: (signal: AbortSignal) => Promise<Response>,
  timeoutMs: number,
  clock: Clock,
  outer: AbortSignal | undefined,
): Promise<ReadResponse> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new AttemptTimeout(`no complete response within ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    onAbort = () => {
      const error = new TokenRequestAbortedError(outer?.reason);
      controller.abort(error);
      reject(error);
    };
    outer?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([
      (async () => {
        const response = await send(controller.signal);
        const receivedAt = clock.now();
        const body = await response.text();
        return { status: response.status, headers: response.headers, body, receivedAt };
      })(),
      stopped,
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) outer?.removeEventListener("abort", onAbort);
  }
}

/**
 * Sends a request until it gets a non-retryable answer or the policy runs out. `send`
 * is called once per attempt (so it can build a fresh assertion each time) and must
 * honour the abort signal.
 *
 * @example
 * ```ts
 * const outcome = await sendWithRetry((signal) => fetch(url, { signal }), { policy, clock: systemClock });
 * if (outcome.ok) console.log(outcome.response.status, outcome.attempts);
 * ```
 */
export async function sendWithRetry(
  send: (signal: AbortSignal) => Promise<Response>,
  context: RetryContext,
): Promise<RetryOutcome> {
  const { policy, clock, signal } = context;
  const started = clock.now();
  for (let attempts = 1; ; attempts++) {
    throwIfAborted(signal);
    await context.beforeAttempt?.();
    throwIfAborted(signal);
    const remaining = policy.maxElapsedMs - (clock.now() - started);
    let result: { response: ReadResponse } | { error: unknown };
    try {
      result = {
        response: await attempt(
          send,
          Math.max(1, Math.min(policy.attemptTimeoutMs, remaining)),
          clock,
          signal,
        ),
      };
    } catch (error) {
      // An abort by the caller is not a network failure: it ends the loop.
      throwIfAborted(signal);
      result = { error };
    }
    let retryAfterMs: number | undefined;
    if ("response" in result) {
      context.onResponse?.(result.response);
      if (!isRetryableStatus(result.response.status))
        return { ok: true, response: result.response, attempts };
      const { headers } = result.response;
      retryAfterMs = parseRetryAfter(headers.get("retry-after"), clock.now(), headers.get("date"));
    }
    const stop = (gaveUp: GiveUpReason): RetryOutcome =>
      "response" in result
        ? {
            ok: true,
            response: result.response,
            attempts,
            gaveUp,
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          }
        : { ok: false, error: result.error, attempts, gaveUp };
    if (attempts >= policy.maxAttempts) return stop("attempts");
    const delay = Math.max(backoffDelay(attempts, policy), retryAfterMs ?? 0);
    const elapsed = clock.now() - started;
    // Do not start a wait that cannot be followed by an attempt inside the budget.
    if (elapsed + delay >= policy.maxElapsedMs) {
      return stop(
        retryAfterMs !== undefined && retryAfterMs >= policy.maxElapsedMs - elapsed ? "retry-after" : "time",
      );
    }
    await sleep(delay, signal);
  }
}
