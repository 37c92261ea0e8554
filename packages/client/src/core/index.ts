/**
 * `@drill-practice/client/core`: the HTTP core the Drill Practice packages
 * share, documented for authors of companion packages (`@drill-practice/auth`
 * is one; a token store that throws SDK errors is another). It holds the one
 * implementation of the retry policy (with `Retry-After` and HTTP dates),
 * timeouts and cancellation, redaction and the error base. Application code
 * needs only the main entry, which re-exports the errors and option types.
 *
 * @example
 * ```ts
 * import { createTransport, resolveRetryPolicy } from "@drill-practice/client/core";
 *
 * const send = createTransport({
 *   fetch: globalThis.fetch,
 *   acceptsInit: true,
 *   timeoutMs: 10_000,
 *   retry: resolveRetryPolicy({ maxAttempts: 4 }),
 *   userAgent: undefined,
 * });
 * const response = await send("https://drill.example/.well-known/oauth-authorization-server");
 * ```
 *
 * @packageDocumentation
 */
export { DrillError } from "./drill-error.js";
export { DRILL_ERROR_CODES, type DrillErrorCode, type DrillErrorCodeInfo } from "./error-codes.js";
export { DrillInvalidOptionError, DrillNetworkError, DrillTimeoutError } from "./errors.js";
export { parseHttpDate, parseRetryAfter } from "./http-date.js";
export { inspectCustom, REDACTED, redactedCause, redactSecrets, serverText } from "./redact.js";
export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type RetryableMethod,
  type RetryContext,
  type RetryingRequest,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
  retrying,
  shouldRetry,
} from "./retry.js";
export { abortableSleep } from "./sleep.js";
export { validateTimeout } from "./timeout.js";
export {
  createTransport,
  describeUrl,
  isPlatformTimeout,
  KEEPS_REQUEST_BODY,
  type RequestFetch,
  sendAttempt,
  type TransportOptions,
} from "./transport.js";
