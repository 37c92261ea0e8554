/**
 * `@drill-practice/client/internal`: the building blocks `@drill-practice/auth`
 * shares with the client (the retry policy with `Retry-After` and HTTP dates,
 * timeouts and cancellation, redaction, the error base), and that the sandbox
 * shares with both (the DER reader, the command-line wording). **Internal: not
 * part of the public contract.** Any release may change or remove what it
 * exports, and it is versioned together with `@drill-practice/auth` and
 * `@drill-practice/sandbox`, its intended importers; applications use the main
 * entry, which exports the errors and option types they need.
 *
 * @example
 * ```ts
 * import { createTransport, resolveRetryPolicy } from "@drill-practice/client/internal";
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

/**
 * The auth contract and the token exchange and discovery types, generated from
 * those operations alone: a companion package (auth) imports them from here, so
 * that its consumers never load an API version's types through it.
 *
 * @example
 * ```ts
 * import type { AccessTokenResponse, DrillClientAuth } from "@drill-practice/client/internal";
 *
 * const auth: DrillClientAuth = {
 *   middleware: {
 *     onRequest({ request }) {
 *       const token: AccessTokenResponse = { access_token: "t", token_type: "bearer", expires_in: 3599, scope: "ROLE_USER", jti: "j" };
 *       request.headers.set("Authorization", `Bearer ${token.access_token}`);
 *       return request;
 *     },
 *   },
 * };
 * ```
 */
export type { DrillAuthContext, DrillClientAuth } from "./auth-contract.js";
export { parseArgsProblem } from "./cli-usage.js";
export { type DerElement, derChildren, derObjectIdentifier, derProblem, readDerElement } from "./der.js";
export { brandErrorFamily, causeOption, DrillError } from "./drill-error.js";
export type { DrillErrorCode } from "./error-codes.js";
/**
 * @public `@drill-practice/auth` re-exports the table from its own entry (nothing in this
 * repository imports it from there, so knip is told it is used).
 */
export { DRILL_ERROR_CODES } from "./error-codes.js";
export { DrillInvalidOptionError, DrillNetworkError, DrillTimeoutError } from "./errors.js";
export type * from "./generated/schemas-shared.js";
export { parseHttpDate, parseRetryAfter } from "./http-date.js";
export { redactedCause, redactSecrets, serverText } from "./known-secrets.js";
export { oneLineMessage } from "./one-line.js";
export { inspectCustom, REDACTED } from "./redact.js";
export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retrying,
} from "./retry.js";
export { jwtPattern, pemBlockPattern } from "./secret-patterns.js";
export { validateTimeout } from "./timeout.js";
export {
  createTransport,
  describeUrl,
  isPlatformTimeout,
  KEEPS_REQUEST_BODY,
  sendAttempt,
  type TransportOptions,
} from "./transport.js";
