/**
 * How auth sends its own requests (discovery, token exchange): through the
 * SDK's one transport and retry loop, with auth's settings. Unlike the
 * client, auth retries its POST: every attempt carries a freshly signed
 * assertion, and an exchange changes nothing on the server but issuing a token.
 */
import {
  DrillNetworkError,
  DrillTimeoutError,
  describeUrl,
  isPlatformTimeout,
  type RetryPolicy,
  retrying,
  sendAttempt,
  type TransportOptions,
} from "@drill-practice/client/internal";
import type { ServerClock } from "./clock.js";

/**
 * Auth's HTTP settings, resolved from the shared options `fetch`, `timeoutMs` and `retry`.
 */
export interface AuthHttp {
  /** Called unbound. */
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number | false;
  readonly retry: RetryPolicy | undefined;
  readonly serverClock: ServerClock;
}

/**
 * A response read to the end within its attempt's time limit.
 */
export interface ReadResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** Local time at which the response headers arrived, in epoch ms. */
  readonly receivedAt: number;
}

/**
 * Sends the request `build` makes (called once per attempt, outside the
 * attempt's time limit) with auth's timeout and retries, learns the server's
 * clock from every answer, and reads the last answer's body. Rejects with a
 * `DrillNetworkError` or `DrillTimeoutError` (with `attempts` known to the
 * caller through `onAttempt`), or with the abort reason of the request's signal.
 */
export async function authRequest(
  http: AuthHttp,
  build: () => Request | Promise<Request>,
  onAttempt?: (attempt: number) => void,
): Promise<{ response: ReadResponse; attempts: number }> {
  const transport: TransportOptions = {
    fetch: http.fetch,
    acceptsInit: http.fetch === globalThis.fetch,
    timeoutMs: http.timeoutMs,
    retry: undefined,
    userAgent: undefined,
  };
  let attempts = 0;
  let receivedAt = 0;
  let last: Request | undefined;
  const first = await build();
  const response = await retrying(
    http.retry,
    { method: first.method, resend: true, signal: first.signal },
    async (attempt, remainingMs) => {
      attempts = attempt;
      onAttempt?.(attempt);
      last = attempt === 1 ? first : await build();
      const answer = await sendAttempt(transport, last, attempt, remainingMs);
      receivedAt = http.serverClock.localNow();
      http.serverClock.observe(answer.headers.get("date"), receivedAt);
      return answer;
    },
  );
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    const request = last ?? first;
    if (error instanceof DrillTimeoutError || request.signal.aborted) throw error;
    const url = describeUrl(request.url);
    if (http.timeoutMs !== false && isPlatformTimeout(error, request.signal)) {
      throw new DrillTimeoutError({ timeoutMs: http.timeoutMs, method: request.method, url });
    }
    // The connection broke while the body was on its way.
    throw new DrillNetworkError({ method: request.method, url, attempts, cause: error });
  }
  return { response: { status: response.status, headers: response.headers, body, receivedAt }, attempts };
}
