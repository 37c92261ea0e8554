/**
 * The errors that both packages throw for the same reasons: an invalid option,
 * a request without an answer, an attempt that ran out of time.
 */
import { causeOption, DrillError } from "./drill-error.js";
import { fetchFailureReason } from "./network-cause.js";
import { scrubCause } from "./redact.js";

/**
 * An option passed to a function of the client or of auth is invalid. `option`
 * names it (dotted, e.g. `retry.maxAttempts`).
 *
 * @example
 * ```ts
 * import { DrillInvalidOptionError, createDrillClient } from "@drill-practice/client";
 *
 * try {
 *   createDrillClient({ baseUrl: "drill.example" });
 * } catch (error) {
 *   if (error instanceof DrillInvalidOptionError) console.log(error.option); // "baseUrl"
 * }
 * ```
 */
export class DrillInvalidOptionError extends DrillError {
  static readonly code = "ERR_INVALID_OPTION";
  override readonly name = "DrillInvalidOptionError";
  readonly code = DrillInvalidOptionError.code;
  /** Dotted name of the offending option, e.g. `retry.maxAttempts`. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super(`Invalid option ${option}: ${problem}`);
    this.option = option;
  }
}

/**
 * One HTTP attempt took longer than `timeoutMs` (the time to the response
 * headers and the body together).
 *
 * @example
 * ```ts
 * import { DrillTimeoutError, createDrillClient } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", timeoutMs: 5_000 });
 * try {
 *   await client.GET("/api/2.1/version");
 * } catch (error) {
 *   if (error instanceof DrillTimeoutError) console.log(`no answer within ${error.timeoutMs} ms`);
 * }
 * ```
 */
export class DrillTimeoutError extends DrillError {
  static readonly code = "ERR_TIMEOUT";
  override readonly name = "DrillTimeoutError";
  readonly code = DrillTimeoutError.code;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(init: { timeoutMs: number; method: string; url: string }) {
    super(`${init.method} ${init.url} timed out after ${init.timeoutMs} ms`);
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * No HTTP response arrived (DNS failure, refused or reset connection, a port,
 * scheme or TLS certificate the platform refuses, …), after all permitted retries;
 * the message ends with the platform's reason (e.g. `fetch failed (bad port)`).
 * The `cause` is a copy of the original error
 * (same class, name and `code`) with bearer tokens, JWT-shaped strings and
 * Authorization header values replaced by `[redacted]`, in the message too.
 *
 * @example
 * ```ts
 * import { DrillNetworkError, createDrillClient } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "http://127.0.0.1:9" });
 * try {
 *   await client.GET("/api/2.1/version");
 * } catch (error) {
 *   if (error instanceof DrillNetworkError) console.log(`gave up after ${error.attempts} attempt(s)`);
 * }
 * ```
 */
export class DrillNetworkError extends DrillError {
  static readonly code = "ERR_NETWORK";
  override readonly name = "DrillNetworkError";
  readonly code = DrillNetworkError.code;
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  constructor(init: { method: string; url: string; attempts: number; cause: unknown }) {
    // The cause may come from a custom fetch that quotes the request; keep a
    // scrubbed copy so neither the message nor util.inspect shows a token.
    const cause = scrubCause(init.cause);
    const tries = init.attempts === 1 ? "1 attempt" : `${init.attempts} attempts`;
    super(
      `${init.method} ${init.url} failed without a response after ${tries}${describeCause(cause)}`,
      causeOption(cause),
    );
    this.attempts = init.attempts;
  }
}

/**
 * ": fetch failed (ECONNREFUSED)", ": fetch failed (bad port)": the message plus the
 * platform's reason underneath, when there is one.
 */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return "";
  const reason = fetchFailureReason(cause);
  return `: ${cause.message}${reason === "" ? "" : ` (${reason})`}`;
}
