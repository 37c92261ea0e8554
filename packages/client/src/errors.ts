/**
 * Every error the client raises on its own account derives from one base class
 * with a stable `code`, so callers can switch on the code instead of matching
 * messages. Errors never carry request headers: the Authorization value must
 * not reach a log line through an error.
 */

import { redactedCause } from "./redact.js";

/**
 * The stable codes of {@link DrillClientError} subclasses.
 *
 * - `ERR_API`: the service answered with a non-success HTTP status ({@link DrillApiError}).
 * - `ERR_TIMEOUT`: an attempt took longer than `timeoutMs` ({@link DrillTimeoutError}).
 * - `ERR_NETWORK`: no HTTP response arrived, e.g. connection refused ({@link DrillNetworkError}).
 * - `ERR_INVALID_OPTION`: a client or helper option is invalid ({@link DrillInvalidOptionError}).
 * - `ERR_INVALID_PARAMETER`: a request parameter cannot be sent as given ({@link DrillInvalidParameterError}).
 * - `ERR_UNEXPECTED_RESPONSE`: a success body lacks what a helper needs ({@link DrillUnexpectedResponseError}).
 *
 * @example
 * ```ts
 * import { DrillClientError, type DrillClientErrorCode } from "@drill-practice/client";
 *
 * function describe(error: unknown): string {
 *   if (!(error instanceof DrillClientError)) return "unexpected error";
 *   const code: DrillClientErrorCode = error.code;
 *   switch (code) {
 *     case "ERR_API": return "the service refused the request";
 *     case "ERR_TIMEOUT": return "the service did not answer in time";
 *     case "ERR_NETWORK": return "the service could not be reached";
 *     case "ERR_INVALID_OPTION":
 *     case "ERR_INVALID_PARAMETER": return "the call was made incorrectly";
 *     case "ERR_UNEXPECTED_RESPONSE": return "the service answered in an unexpected shape";
 *   }
 * }
 * ```
 */
export type DrillClientErrorCode =
  | "ERR_API"
  | "ERR_TIMEOUT"
  | "ERR_NETWORK"
  | "ERR_INVALID_OPTION"
  | "ERR_INVALID_PARAMETER"
  | "ERR_UNEXPECTED_RESPONSE";

/**
 * Base class of all errors raised by `@drill-practice/client`.
 *
 * @example
 * ```ts
 * import { createDrillClient, DrillClientError } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * try {
 *   await client.GET("/api/2.1/version");
 * } catch (error) {
 *   if (error instanceof DrillClientError) console.error(error.code, error.message);
 *   else throw error;
 * }
 * ```
 */
export abstract class DrillClientError extends Error {
  /** Stable machine-readable code; see {@link DrillClientErrorCode}. */
  abstract readonly code: DrillClientErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The method and OpenAPI path template of the operation that failed, e.g.
 * `{ method: "GET", path: "/api/2.1/question/{drill}" }`.
 *
 * @example
 * ```ts
 * import type { DrillOperation } from "@drill-practice/client";
 *
 * const operation: DrillOperation = { method: "GET", path: "/api/2/store" };
 * ```
 */
export interface DrillOperation {
  /** HTTP method in capitals. */
  readonly method: string;
  /** The path template with `{name}` placeholders, or the request path when the template is unknown. */
  readonly path: string;
}

/**
 * The service answered with a status outside 2xx.
 *
 * `status` is the HTTP status, `errorId` the field `ID` of the error body when
 * the body has one (for the store search `query_missing` or `error`), and `body`
 * the body as received: parsed JSON when it is JSON, the text otherwise, and
 * `undefined` when it is empty.
 *
 * @example
 * ```ts
 * import { DrillApiError, createDrillClient, unwrap } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * try {
 *   await unwrap(client.GET("/api/2/store", { params: { query: {} } }));
 * } catch (error) {
 *   if (error instanceof DrillApiError && error.errorId === "query_missing") {
 *     console.log("a search needs a query");
 *   }
 * }
 * ```
 */
export class DrillApiError extends DrillClientError {
  readonly code = "ERR_API" as const;
  /** HTTP status of the response. */
  readonly status: number;
  /** The `ID` field of the error body, when the body is an object with a string `ID`. */
  readonly errorId: string | undefined;
  /** The operation that failed. */
  readonly operation: DrillOperation;
  /** The error body: parsed JSON, text, or `undefined` when empty. */
  readonly body: unknown;
  /** The response (kept out of enumeration so logging the error stays short). */
  declare readonly response: Response;

  constructor(init: { status: number; body: unknown; operation: DrillOperation; response: Response }) {
    const body = normalizeBody(init.body);
    const errorId = readErrorId(body);
    const idPart = errorId === undefined ? "" : ` (ID ${JSON.stringify(errorId)})`;
    super(`${init.operation.method} ${init.operation.path} failed with HTTP ${init.status}${idPart}`);
    this.status = init.status;
    this.errorId = errorId;
    this.operation = init.operation;
    this.body = body;
    Object.defineProperty(this, "response", { value: init.response, enumerable: false });
  }
}

/**
 * One HTTP attempt took longer than the client's `timeoutMs` (the time to the
 * response headers and the body together).
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
export class DrillTimeoutError extends DrillClientError {
  readonly code = "ERR_TIMEOUT" as const;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(init: { timeoutMs: number; method: string; url: string }) {
    super(`${init.method} ${init.url} timed out after ${init.timeoutMs} ms`);
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * No HTTP response arrived (DNS failure, refused or reset connection, …),
 * after all permitted retries. The `cause` is a copy of the original error
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
export class DrillNetworkError extends DrillClientError {
  readonly code = "ERR_NETWORK" as const;
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  constructor(init: { method: string; url: string; attempts: number; cause: unknown }) {
    // The cause may come from a custom fetch that quotes the request; keep a
    // scrubbed copy so neither the message nor util.inspect shows a token.
    const cause = redactedCause(init.cause);
    const reason = cause instanceof Error ? `: ${cause.message}` : "";
    const tries = init.attempts === 1 ? "1 attempt" : `${init.attempts} attempts`;
    super(
      `${init.method} ${init.url} failed without a response after ${tries}${reason}`,
      cause === undefined ? undefined : { cause },
    );
    this.attempts = init.attempts;
  }
}

/**
 * An option passed to the client or a helper is invalid. `option` names it.
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
export class DrillInvalidOptionError extends DrillClientError {
  readonly code = "ERR_INVALID_OPTION" as const;
  /** Dotted name of the offending option, e.g. `retry.attempts`. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super(`Invalid option ${option}: ${problem}`);
    this.option = option;
  }
}

/**
 * A request parameter cannot be sent as given, e.g. a path parameter that is
 * empty or `.`/`..` (URL parsers would drop or collapse such a segment and the
 * request would reach another resource).
 *
 * @example
 * ```ts
 * import { DrillInvalidParameterError, createDrillClient } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * try {
 *   await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: ".." } } });
 * } catch (error) {
 *   if (error instanceof DrillInvalidParameterError) console.log(error.parameter); // "drill"
 * }
 * ```
 */
export class DrillInvalidParameterError extends DrillClientError {
  readonly code = "ERR_INVALID_PARAMETER" as const;
  /** Name of the offending parameter. */
  readonly parameter: string;

  constructor(parameter: string, problem: string) {
    super(`Invalid parameter ${parameter}: ${problem}`);
    this.parameter = parameter;
  }
}

/**
 * A success response lacks what a helper needs, e.g. a store page without a
 * numeric `total` or a `drills` array. `body` is the body as received.
 *
 * @example
 * ```ts
 * import { DrillUnexpectedResponseError, createDrillClient } from "@drill-practice/client";
 * import { paginateStore } from "@drill-practice/client/pagination";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * try {
 *   for await (const drill of paginateStore(client, { query: "verbs" }, { pageSize: 50 })) console.log(drill.id);
 * } catch (error) {
 *   if (error instanceof DrillUnexpectedResponseError) console.log(error.message);
 * }
 * ```
 */
export class DrillUnexpectedResponseError extends DrillClientError {
  readonly code = "ERR_UNEXPECTED_RESPONSE" as const;
  /** The operation whose response was unexpected. */
  readonly operation: DrillOperation;
  /** The body as received. */
  readonly body: unknown;

  constructor(init: { operation: DrillOperation; problem: string; body: unknown }) {
    super(`${init.operation.method} ${init.operation.path} answered unexpectedly: ${init.problem}`);
    this.operation = init.operation;
    this.body = init.body;
  }
}

function normalizeBody(body: unknown): unknown {
  // openapi-fetch hands over "" for an empty body without Content-Length.
  return body === "" ? undefined : body;
}

function readErrorId(body: unknown): string | undefined {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const id = (body as Record<string, unknown>).ID;
    if (typeof id === "string") return id;
  }
  return undefined;
}
