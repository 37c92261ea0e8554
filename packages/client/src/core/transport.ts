/**
 * The fetch layer under openapi-fetch's middleware chain: timeouts, retries
 * and the Node User-Agent, for the client's requests and for auth's discovery
 * and token requests alike.
 *
 * Every request pays for this layer, so the common case stays lean. With the
 * platform's fetch an attempt costs one AbortSignal, `AbortSignal.timeout`,
 * joined to the caller's signal with `AbortSignal.any` only when the caller
 * gave one; the platform aborts the body with it too, so the response is
 * handed on as it came. Only a fetch
 * injected by the caller (which may ignore its signal) gets a guard that races
 * it and covers its body. A request without a body is sent as it is; one with
 * a body is cloned, so that the original stays readable for a retry and for
 * the auth middleware's one re-send after a 401.
 */
import { DrillNetworkError, DrillTimeoutError } from "./errors.js";
import { type RetryPolicy, retrying } from "./retry.js";

/**
 * A fetch function that takes a `Request`, as openapi-fetch calls it.
 */
export type RequestFetch = (request: Request) => Promise<Response>;

/**
 * Settings of {@link createTransport}.
 *
 * @example
 * ```ts
 * import type { TransportOptions } from "@drill-practice/client/internal";
 *
 * const options: TransportOptions = { fetch: (request) => fetch(request), timeoutMs: 5_000, retry: undefined, userAgent: undefined };
 * ```
 */
export interface TransportOptions {
  /** The fetch that does the actual I/O (`init` only with `acceptsInit`). Called unbound. */
  readonly fetch: (request: Request, init?: RequestInit) => Promise<Response>;
  /**
   * True when `fetch` is the platform's fetch: the attempt's signal (and a
   * missing User-Agent) then go in `init`, and the platform is trusted to
   * honour the signal for the body too. A fetch injected by the caller sees
   * one `Request` and is guarded.
   */
  readonly acceptsInit?: boolean;
  /** Limit of one attempt (headers and body), or `false` for none. */
  readonly timeoutMs: number | false;
  /** Retry policy, or `undefined` for a single attempt. */
  readonly retry: RetryPolicy | undefined;
  /** Sent as `User-Agent` unless the request already has one. */
  readonly userAgent: string | undefined;
}

/**
 * Marks a fetch that sends a copy of a request with a body and leaves the
 * original readable, as {@link createTransport}'s does; middleware that may
 * re-send a request (the auth middleware after a 401) then needs no copy of
 * its own.
 *
 * @example
 * ```ts
 * import { KEEPS_REQUEST_BODY } from "@drill-practice/client/internal";
 *
 * const keeps = (fetch: unknown) => (fetch as { [KEEPS_REQUEST_BODY]?: boolean })[KEEPS_REQUEST_BODY] === true;
 * ```
 */
export const KEEPS_REQUEST_BODY: unique symbol = Symbol.for("@drill-practice/keeps-request-body") as never;

/**
 * Set (to `true`) on a request whose signal follows no caller's signal (the
 * client's `Request` class sets it when openapi-fetch builds a request
 * without one); the transport then sends it with the attempt's timeout
 * signal alone, without `AbortSignal.any`.
 */
export const NO_CALLER_SIGNAL: unique symbol = Symbol.for("@drill-practice/no-caller-signal") as never;

/**
 * Returns a standard `fetch` that adds timeouts, retries and the User-Agent.
 *
 * @example
 * ```ts
 * import { createTransport, resolveRetryPolicy } from "@drill-practice/client/internal";
 *
 * const send = createTransport({
 *   fetch: (request) => fetch(request),
 *   timeoutMs: 10_000,
 *   retry: resolveRetryPolicy({}),
 *   userAgent: "drill-practice-sdk/0.1.0",
 * });
 * const response = await send("https://drill.example/api/2.1/version");
 * ```
 */
export function createTransport(options: TransportOptions): typeof fetch {
  const policy = options.retry;
  const transport = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const signal = request.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (policy === undefined || !policy.methods.has(request.method)) {
      return sendAttempt(options, request, 1, Number.POSITIVE_INFINITY);
    }
    return retrying(policy, { method: request.method, resend: true, signal }, (attempt, remainingMs) =>
      sendAttempt(options, request, attempt, remainingMs),
    );
  };
  Object.defineProperty(transport, KEEPS_REQUEST_BODY, { value: true });
  return transport as typeof fetch;
}

/**
 * One attempt: sends `original` (a clone when it has a body) with the
 * attempt's timeout, cut to `remainingMs`. Rejects with the caller's abort
 * reason, a {@link DrillTimeoutError} or a {@link DrillNetworkError}.
 *
 * @example
 * ```ts
 * import { sendAttempt } from "@drill-practice/client/internal";
 *
 * const options = { fetch: globalThis.fetch, acceptsInit: true, timeoutMs: 5_000, retry: undefined, userAgent: undefined };
 * const response = await sendAttempt(options, new Request("https://drill.example/api/2.1/version"), 1, 60_000);
 * ```
 */
export function sendAttempt(
  options: TransportOptions,
  original: Request,
  attempt: number,
  remainingMs: number,
): Promise<Response> {
  const timeoutMs =
    options.timeoutMs === false
      ? undefined
      : Math.max(1, Math.min(options.timeoutMs, Math.floor(remainingMs)));
  // The original keeps its body: a retry or a middleware may still need it.
  const source = original.body === null ? original : original.clone();
  const userAgent =
    options.userAgent !== undefined && !source.headers.has("user-agent") ? options.userAgent : undefined;
  if (!options.acceptsInit)
    return guardedAttempt(options, { original, source, userAgent, attempt, timeoutMs });
  const init: RequestInit = userAgent === undefined ? {} : withUserAgent(source, userAgent);
  const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  if (timeout !== undefined) {
    init.signal =
      (original as { [NO_CALLER_SIGNAL]?: true })[NO_CALLER_SIGNAL] === true
        ? timeout
        : anySignal(original.signal, timeout);
  }
  // Called unbound: a platform fetch called as a method of another object throws.
  const fetch = options.fetch;
  return fetch(source, init).catch((error: unknown) => {
    throw failure(original, attempt, error, timeout, timeoutMs);
  });
}

/** What one guarded attempt sends and under which limit. */
interface Attempt {
  /** The caller's request, kept readable; its signal is the caller's. */
  readonly original: Request;
  /** What is sent: the original, or a copy of it when it has a body. */
  readonly source: Request;
  /** The User-Agent to add, when the request has none. */
  readonly userAgent: string | undefined;
  /** Number of the attempt, from 1. */
  readonly attempt: number;
  readonly timeoutMs: number | undefined;
}

/** `AbortSignal.any` where the runtime has it, else a controller that follows both. */
function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([a, b]);
  const controller = new AbortController();
  const follow = (source: AbortSignal) => {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener("abort", () => controller.abort(source.reason), { once: true });
  };
  follow(a);
  follow(b);
  return controller.signal;
}

/**
 * Whether `error` is the platform's own timeout error (`AbortSignal.timeout`)
 * of an attempt rather than the caller's abort; the client turns such an
 * error from a body read into a {@link DrillTimeoutError}.
 *
 * @example
 * ```ts
 * import { isPlatformTimeout } from "@drill-practice/client/internal";
 *
 * isPlatformTimeout(new DOMException("timed out", "TimeoutError"), undefined); // true
 * ```
 */
export function isPlatformTimeout(error: unknown, callerSignal: AbortSignal | undefined): boolean {
  if (typeof error !== "object" || error === null || (error as Error).name !== "TimeoutError") return false;
  return !(callerSignal?.aborted && callerSignal.reason === error);
}

/**
 * One attempt through a fetch injected by the caller, which may ignore its
 * signal: the wait for the headers is raced against the attempt's own
 * controller (aborted on timeout or caller abort), and the body is piped
 * through under the same signal, so a stalled body fails too. The timer and
 * the listener go once the body is done, failed or cancelled.
 */
async function guardedAttempt(options: TransportOptions, plan: Attempt): Promise<Response> {
  const { original, source, userAgent, attempt, timeoutMs } = plan;
  const caller = original.signal;
  const controller = new AbortController();
  const signal = controller.signal;
  // Fails what is waited for: the headers, then the body. Set by whichever stage runs.
  const waiting: Waiting = {};
  const stop = (reason: unknown) => {
    release();
    controller.abort(reason);
    waiting.fail?.(reason);
  };
  const onAbort = () => stop(caller.reason);
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            stop(
              new DrillTimeoutError({ timeoutMs, method: original.method, url: describeUrl(original.url) }),
            ),
          timeoutMs,
        );
  const release = () => {
    clearTimeout(timer);
    caller.removeEventListener("abort", onAbort);
  };
  caller.addEventListener("abort", onAbort);
  let pending: Promise<Response> | undefined;
  let response: Response;
  try {
    let request = source;
    if (timer !== undefined || userAgent !== undefined) {
      // The signal of a Request cannot be swapped, so a caller's fetch gets a copy.
      request = new Request(source, timer === undefined ? {} : { signal });
      if (userAgent !== undefined) request.headers.set("user-agent", userAgent);
    }
    const fetch = options.fetch;
    const sent = fetch(request);
    pending = sent;
    if (signal.aborted) throw signal.reason;
    // A caller's fetch may ignore its signal; `stop` gives up on it all the same.
    response = await new Promise<Response>((resolve, reject) => {
      waiting.fail = reject;
      sent.then(resolve, reject);
    });
  } catch (error) {
    release();
    // Cancel the body of an answer that arrives after the attempt was given up.
    pending?.then((late) => late.body?.cancel().catch(ignore), ignore);
    throw signal.aborted ? signal.reason : failure(original, attempt, error, undefined, undefined);
  }
  return guardedBody(response, signal, release, waiting);
}

/** What an attempt is waiting for, failed by `stop`: the headers first, then the body. */
interface Waiting {
  fail?: (reason: unknown) => void;
}

/**
 * The answer with its body read under the attempt's signal: an abort or a timeout fails the read, and
 * the attempt's timer and listener go once the body is done, failed or cancelled.
 */
function guardedBody(
  response: Response,
  signal: AbortSignal,
  release: () => void,
  waiting: Waiting,
): Response {
  const body = response.body;
  // Bodies that nobody will read (none, or `Content-Length: 0`) release at once.
  if (body === null || response.headers.get("content-length") === "0") {
    release();
    return response;
  }
  // Read on demand: a pipe costs a request more CPU than this.
  const reader = body.getReader();
  const readable = new ReadableStream<Uint8Array>({
    start(stream) {
      const fail = (reason: unknown) => {
        stream.error(reason);
        reader.cancel(reason).catch(ignore);
      };
      waiting.fail = fail;
      if (signal.aborted) fail(signal.reason);
    },
    async pull(stream) {
      try {
        const { done, value } = await reader.read();
        if (signal.aborted) return;
        if (done) {
          release();
          stream.close();
        } else stream.enqueue(value);
      } catch (error) {
        if (signal.aborted) return;
        release();
        stream.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  const wrapped = new Response(readable, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL; keep the one the fetch reported.
  Object.defineProperties(wrapped, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return wrapped;
}

function withUserAgent(request: Request, userAgent: string): RequestInit {
  const headers = new Headers(request.headers);
  headers.set("user-agent", userAgent);
  return { headers };
}

/** The caller's abort reason, a timeout error, or a network error for anything else. */
function failure(
  original: Request,
  attempt: number,
  error: unknown,
  timeout: AbortSignal | undefined,
  timeoutMs: number | undefined,
): unknown {
  if (original.signal.aborted) return original.signal.reason;
  if (timeout?.aborted && timeoutMs !== undefined) {
    return new DrillTimeoutError({ timeoutMs, method: original.method, url: describeUrl(original.url) });
  }
  return new DrillNetworkError({
    method: original.method,
    url: describeUrl(original.url),
    attempts: attempt,
    cause: error,
  });
}

function ignore(): void {}

/**
 * The request URL without query string or fragment, for error messages.
 *
 * @example
 * ```ts
 * import { describeUrl } from "@drill-practice/client/internal";
 *
 * describeUrl("https://drill.example/api/2/store?query=x"); // "https://drill.example/api/2/store"
 * ```
 */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
