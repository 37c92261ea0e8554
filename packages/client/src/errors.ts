/**
 * The errors only the client throws: a non-2xx answer, a parameter that
 * cannot be sent, a success body a helper cannot use. The base class and the
 * errors both packages share live in the core (`./core/`).
 */
import { DrillError } from "./core/drill-error.js";
import { cleanText } from "./core/redact.js";

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
 * `status` is the HTTP status, `errorId` the error identifier of the body (the
 * interface calls the field `ID`, the deployed service writes `id`; either is
 * read), `description` the server's explanation (`description`, else
 * `message`; redacted and cut to 300 characters), and `body` the body as
 * received: parsed JSON when it is JSON, the text otherwise, and `undefined`
 * when it is empty. The message names the operation, the status, the
 * identifier and the explanation, e.g.
 * `GET /api/2/store failed with HTTP 400 (ID "query_missing"): A search needs a query`.
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
export class DrillApiError extends DrillError {
  static readonly code = "ERR_API";
  override readonly name = "DrillApiError";
  readonly code = DrillApiError.code;
  /** HTTP status of the response. */
  readonly status: number;
  /** The error identifier: the body's string `ID`, else its string `id`. */
  readonly errorId: string | undefined;
  /** The server's explanation (`description`, else `message`), redacted and cut to 300 characters. */
  readonly description: string | undefined;
  /** The operation that failed. */
  readonly operation: DrillOperation;
  /** The error body: parsed JSON, text, or `undefined` when empty. */
  readonly body: unknown;
  /** The response (kept out of enumeration so logging the error stays short). */
  declare readonly response: Response;

  constructor(init: { status: number; body: unknown; operation: DrillOperation; response: Response }) {
    const body = normalizeBody(init.body);
    const errorId = readField(body, "ID") ?? readField(body, "id");
    const explanation = readField(body, "description") ?? readField(body, "message");
    const description = explanation === undefined ? undefined : cleanText(explanation, [], MAX_DESCRIPTION);
    const idPart = errorId === undefined ? "" : ` (ID ${JSON.stringify(cleanText(errorId, [], 80))})`;
    const why = description === undefined || description === "" ? "" : `: ${description}`;
    super(`${init.operation.method} ${init.operation.path} failed with HTTP ${init.status}${idPart}${why}`);
    this.status = init.status;
    this.errorId = errorId;
    this.description = description;
    this.operation = init.operation;
    this.body = body;
    Object.defineProperty(this, "response", { value: init.response, enumerable: false });
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
export class DrillInvalidParameterError extends DrillError {
  static readonly code = "ERR_INVALID_PARAMETER";
  override readonly name = "DrillInvalidParameterError";
  readonly code = DrillInvalidParameterError.code;
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
export class DrillUnexpectedResponseError extends DrillError {
  static readonly code = "ERR_UNEXPECTED_RESPONSE";
  override readonly name = "DrillUnexpectedResponseError";
  readonly code = DrillUnexpectedResponseError.code;
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

/** Longest server explanation quoted in a message. */
const MAX_DESCRIPTION = 300;

function readField(body: unknown, field: string): string | undefined {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}
