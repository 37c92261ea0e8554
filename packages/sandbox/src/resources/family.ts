/**
 * The resource families' framework: handlers as data, keyed by operationId, each receiving the
 * request's parameters and body already validated and typed (by the pipeline, once), and the acting
 * user. A handler answers a value or refuses with a cause; the cause becomes the page's own error.
 * How to add a family: ./README.md.
 */
import type { operations } from "@drill-practice/client";
import type { SandboxState } from "../domain/state.js";
import type { OperationHandler } from "../http/operation-handler.js";
import { pageErrorReply } from "../http/page-errors.js";
import type { Reply } from "../http/replies.js";
import type { TokenSession } from "../oauth/access-tokens.js";
import { Refusal } from "../refusal.js";

/** Every operationId of the description. */
export type OperationId = keyof operations;

type Parameters<Id extends OperationId> = operations[Id]["parameters"];
/** Nothing: an operation without parameters of that kind. */
type None = Record<string, never>;

/** The path parameters of an operation, as validated (always strings). */
export type PathOf<Id extends OperationId> = Parameters<Id> extends { path: infer P } ? P : None;

/** The query parameters of an operation, converted to their schema types (integers are numbers). */
export type QueryOf<Id extends OperationId> =
  Parameters<Id> extends { query?: infer Q }
    ? [NonNullable<Q>] extends [never]
      ? None
      : NonNullable<Q>
    : None;

type RequestBodyOf<Id extends OperationId> = operations[Id] extends { requestBody?: infer B } ? B : undefined;

/**
 * The request body of an operation as validated and typed: form fields converted to their schema
 * types; `undefined` where the operation takes none or the body is optional and was not sent.
 */
export type BodyOf<Id extends OperationId> = [NonNullable<RequestBodyOf<Id>>] extends [never]
  ? undefined
  : NonNullable<RequestBodyOf<Id>> extends { content: infer C }
    ? C[keyof C] | (undefined extends RequestBodyOf<Id> ? undefined : never)
    : undefined;

/** What a resource handler receives: typed input, the acting user, the state. */
export interface ResourceRequest<Id extends OperationId> {
  readonly path: PathOf<Id>;
  readonly query: QueryOf<Id>;
  readonly body: BodyOf<Id>;
  /** The user the token acts for (its `sub`, resolved; the service account's own user by default). */
  readonly userId: string;
  /** The token's session (its organization, service account, ID and expiry). */
  readonly actor: TokenSession;
  readonly state: SandboxState;
}

/**
 * The request of an operation in 2.1 or in 2.1.1, for a handler both versions share (`Both<"getPlayable">`
 * types `getPlayable_v2_1` and `getPlayable_v2_1_1`; a handler typed so fits either entry, where a
 * handler of one operation's own request fits no other).
 */
export type Both<Op extends string> =
  | ResourceRequest<`${Op}_v2_1` & OperationId>
  | ResourceRequest<`${Op}_v2_1_1` & OperationId>;

/** A successful answer; the status defaults to 200 (the pages do not show success codes). */
export interface Answer {
  readonly status?: number;
  readonly body?: unknown;
}

/** One simulated operation: what it does (a support-table row) and its handler. */
export interface ResourceOperation<Id extends OperationId> {
  readonly behaviour: string;
  readonly handle: (request: ResourceRequest<Id>) => Answer;
}

/** A family's operations, by operationId; each entry typed for its own operation. */
export type FamilyTable = { readonly [Id in OperationId]?: ResourceOperation<Id> };

/** A resource family: a name (for the README) and its operations. */
export interface ResourceFamily {
  readonly name: string;
  readonly operations: FamilyTable;
}

/** Declares a family; only types it (the table is plain data, its operationIds kept in the type). */
export function defineFamily<const T extends FamilyTable>(
  name: string,
  operations: T,
): { readonly name: string; readonly operations: T } {
  return { name, operations };
}

export { refuse } from "../refusal.js";

/** A 200 answer with a body. */
export function ok(body: unknown): Answer {
  return { status: 200, body };
}

/**
 * The pipeline's handlers of every operation of the families, bound to one state. The pipeline has
 * validated and typed the parameters and body already; a handler's refusal becomes the page's error.
 */
export function familyHandlers(
  families: readonly ResourceFamily[],
  state: SandboxState,
): Map<string, OperationHandler> {
  const handlers = new Map<string, OperationHandler>();
  for (const family of families) {
    for (const [operationId, entry] of Object.entries(family.operations)) {
      const run = (entry as ResourceOperation<OperationId>).handle as (request: unknown) => Answer;
      handlers.set(operationId, (request): Reply => {
        // Every family operation requires a token, so the pipeline has always set the actor here.
        if (!request.actor) throw new Error(`${operationId} reached its handler without a token`);
        try {
          const answer = run({
            path: request.params.path,
            query: request.params.query,
            body: request.body,
            userId: request.actor.userId,
            actor: request.actor,
            state,
          });
          return {
            status: answer.status ?? 200,
            ...(answer.body === undefined ? {} : { body: answer.body }),
          };
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          return pageErrorReply(
            request.operation,
            error.refusal,
            error.message,
            error.parameter,
            error.status,
          );
        }
      });
    }
  }
  return handlers;
}

/** What each family operation does, by operationId: rows of the support table. */
export function familyBehaviours(families: readonly ResourceFamily[]): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const family of families) {
    for (const [operationId, entry] of Object.entries(family.operations)) {
      rows[operationId] = (entry as ResourceOperation<OperationId>).behaviour;
    }
  }
  return rows;
}
