/**
 * The fetch layer under openapi-fetch's middleware chain: timeout, retries and
 * the Node User-Agent. openapi-fetch middleware cannot send a request twice,
 * so re-sending happens here, on a fresh clone of the request per attempt.
 */
import { DrillNetworkError, DrillTimeoutError } from "./errors.js";
import { type RetryPolicy, retryDelay, shouldRetry } from "./retry.js";
import { type CombinedSignal, combineSignals, raceAbort } from "./signals.js";

/**
 * A fetch function that takes a `Request`, as openapi-fetch calls it.
 *
 * @example
 * ```ts
 * import type { RequestFetch } from "./transport.js";
 *
 * const offline: RequestFetch = async () => new Response(null, { status: 503 });
 * ```
 */
export type RequestFetch = (request: Request) => Promise<Response>;

/**
 * Settings of {@link createTransport}.
 *
 * @example
 * ```ts
 * import type { TransportOptions } from "./transport.js";
 *
 * const options: TransportOptions = { fetch: (request) => fetch(request), timeoutMs: 5_000, retry: undefined, userAgent: undefined };
 * ```
 */
export interface TransportOptions {
  /** The fetch that does the actual I/O. */
  readonly fetch: RequestFetch;
  /** Limit of one attempt (headers and body), or `false` for none. */
  readonly timeoutMs: number | false;
  /** Retry policy, or `undefined` for a single attempt. */
  readonly retry: RetryPolicy | undefined;
  /** Sent as `User-Agent` unless the request already has one. */
  readonly userAgent: string | undefined;
  /** For tests: replaces `AbortSignal.any` (pass `null` to force the manual fallback). */
  readonly signalAny?: ((signals: AbortSignal[]) => AbortSignal) | null;
}

/**
 * Returns a standard `fetch` that adds timeouts, retries and the User-Agent.
 *
 * @example
 * ```ts
 * import { resolveRetryPolicy } from "./retry.js";
 * import { createTransport } from "./transport.js";
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
  const transport = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return send(options, request);
  };
  return transport as typeof fetch;
}

async function send(options: TransportOptions, original: Request): Promise<Response> {
  const policy = options.retry;
  const callerSignal = original.signal;
  const started = policy?.now() ?? 0;
  for (let attempt = 1; ; attempt++) {
    if (callerSignal.aborted) throw callerSignal.reason;
    let response: Response | undefined;
    let failure: Error | undefined;
    try {
      response = await attemptOnce(options, original, attempt);
    } catch (error) {
      if (!(error instanceof DrillNetworkError || error instanceof DrillTimeoutError)) throw error;
      failure = error;
    }
    const finish = (): Response => {
      if (failure) throw failure;
      return response as Response;
    };
    if (!policy || attempt >= policy.attempts || response?.ok) return finish();
    const context = { attempt, method: original.method, response, error: failure };
    if (!shouldRetry(policy, context)) return finish();
    const delay = retryDelay(policy, attempt, response);
    if (delay === undefined || policy.now() - started + delay > policy.maxElapsedMs) return finish();
    if (callerSignal.aborted) throw callerSignal.reason;
    await discard(response);
    await policy.sleep(delay, callerSignal);
  }
}

async function discard(response: Response | undefined): Promise<void> {
  try {
    await response?.body?.cancel();
  } catch {
    // The body of a response we drop does not matter.
  }
}

async function attemptOnce(options: TransportOptions, original: Request, attempt: number): Promise<Response> {
  const { signal: callerSignal, method } = original;
  const url = describeUrl(original.url);
  const timeoutController = new AbortController();
  const timeoutError =
    options.timeoutMs === false
      ? undefined
      : new DrillTimeoutError({ timeoutMs: options.timeoutMs, method, url });
  const timer =
    options.timeoutMs === false
      ? undefined
      : setTimeout(() => timeoutController.abort(timeoutError), options.timeoutMs);
  const combined = combineSignals([callerSignal, timeoutController.signal], options.signalAny);
  const cleanup = () => {
    if (timer !== undefined) clearTimeout(timer);
    combined.dispose();
  };

  let response: Response;
  try {
    const headers = new Headers(original.headers);
    if (options.userAgent && !headers.has("user-agent")) headers.set("user-agent", options.userAgent);
    const request = new Request(original.clone(), { signal: combined.signal, headers });
    response = await raceAbort(options.fetch(request), combined.signal, (late) => {
      late.body?.cancel().catch(() => {});
    });
  } catch (error) {
    cleanup();
    if (combined.signal.aborted && combined.signal.reason === timeoutError) throw timeoutError;
    if (callerSignal.aborted) throw callerSignal.reason;
    throw new DrillNetworkError({ method, url, attempts: attempt, cause: error });
  }
  return guardBody(response, combined, cleanup);
}

/**
 * Keeps the timeout running while the body streams and releases it once the
 * body is done, failed or cancelled. Bodies that nobody will read (none, or
 * `Content-Length: 0`) release it at once.
 */
function guardBody(response: Response, combined: CombinedSignal, cleanup: () => void): Response {
  const body = response.body;
  if (body === null || response.headers.get("content-length") === "0") {
    cleanup();
    return response;
  }
  const reader = body.getReader();
  let onAbort: (() => void) | undefined;
  let settled = false;
  const release = () => {
    if (settled) return;
    settled = true;
    if (onAbort) combined.signal.removeEventListener("abort", onAbort);
    cleanup();
  };
  const guarded = new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        const reason: unknown = combined.signal.reason;
        release();
        controller.error(reason);
        reader.cancel(reason).catch(() => {});
      };
      if (combined.signal.aborted) onAbort();
      else combined.signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (settled) return;
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        if (settled) return;
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  const wrapped = new Response(guarded, {
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

/** The request URL without query string or fragment, for error messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
