/**
 * The contract between the HTTP pipeline and the code behind each operation: the route table's entries.
 */
import type { TokenSession } from "../oauth/access-tokens.js";
import type { Operation } from "./openapi.js";
import type { Reply } from "./replies.js";
import type { RequestProblem, ValidatedParams } from "./validator.js";

/** A request that passed routing, authentication and validation. */
export interface OperationRequest {
  readonly operation: Operation;
  readonly params: ValidatedParams;
  /** The parsed request body (JSON value or form fields), or `undefined` when none was sent. */
  readonly body: unknown;
  /** Who the bearer token acts for; `undefined` only for public operations. */
  readonly actor: TokenSession | undefined;
}

/**
 * Code behind one simulated operation. Synchronous on purpose where state changes: a handler that
 * reads and writes state without awaiting in between is atomic under Node's event loop.
 */
export type OperationHandler = (request: OperationRequest) => Reply;

/**
 * How a route words the refusals the pipeline makes before its handler runs: the service's error
 * body for the API, OAuth's error format for the token endpoint.
 */
export interface Refusals {
  /** The query string is not valid percent-encoding. */
  query(problem: string): Reply;
  /** The parameters break the description. */
  params(operation: Operation, problems: readonly RequestProblem[]): Reply;
  /** The body of an injected fault's reply. */
  faultBody(message: string): unknown;
}

/**
 * One entry of the route table, by operationId: its handler and, for the OAuth endpoints, their own
 * refusals and body reading.
 */
export interface Route {
  /** Receives the `Request` too, for the routes that read it themselves. */
  readonly handle: (request: OperationRequest, raw: Request) => Reply | Promise<Reply>;
  /** The service's error body when absent. */
  readonly refusals?: Refusals;
  /** The handler reads and checks the body itself; the pipeline's body stage is skipped. */
  readonly ownBody?: true;
}

/** The routes of a table of handlers that need nothing but the validated request. */
export function routesOf(handlers: ReadonlyMap<string, OperationHandler>): Map<string, Route> {
  return new Map([...handlers].map(([operationId, handle]) => [operationId, { handle }]));
}
