/**
 * The contract between the HTTP pipeline and the code behind each simulated operation.
 */
import type { TokenSession } from "../oauth/access-tokens.js";
import type { Operation } from "./openapi.js";
import type { Reply } from "./replies.js";
import type { ValidatedParams } from "./validator.js";

/**
 * A request that passed routing, authentication and validation.
 *
 * @example
 * ```ts
 * import type { OperationHandler, OperationRequest } from "./operation-handler.js";
 *
 * const handler: OperationHandler = ({ params }: OperationRequest) => ({
 *   status: 200,
 *   body: { drill: params.path.drill },
 * });
 * ```
 */
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
 *
 * @example
 * ```ts
 * import type { OperationHandler } from "./operation-handler.js";
 *
 * const getVersion: OperationHandler = () => ({ status: 200, body: { sandbox: "@drill-practice/sandbox" } });
 * ```
 */
export type OperationHandler = (request: OperationRequest) => Reply;
