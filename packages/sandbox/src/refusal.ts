/**
 * The one refusal type: handlers and domain code throw a {@link Refusal} naming its cause, and one
 * place (`familyHandlers`) turns it into the operation's error reply with the page's identifier.
 */
import { DOMAIN_ERROR_STATUS, type DomainErrorId } from "./errors.js";

/**
 * Why a request is refused, in the terms the pages' identifiers use.
 */
export type PageErrorCause =
  | { readonly kind: "missing"; readonly field: string }
  | { readonly kind: "invalid"; readonly field: string }
  | { readonly kind: "not_found"; readonly resource: string }
  | { readonly kind: "no_permission"; readonly resource?: string }
  | { readonly kind: "unauthenticated" }
  | { readonly kind: "named"; readonly id: string };

/**
 * A refused request: the cause picks the page's identifier; `status`, when given, is the answer's
 * status instead of the page's.
 *
 * @example
 * ```ts
 * import { Refusal } from "./refusal.js";
 *
 * throw new Refusal({ kind: "not_found", resource: "group" }, 'no group with ID "g-1"');
 * ```
 */
export class Refusal extends Error {
  readonly refusal: PageErrorCause;
  readonly parameter: string | undefined;
  readonly status: number | undefined;

  constructor(cause: PageErrorCause, message: string, parameter?: string, status?: number) {
    super(message);
    this.name = "Refusal";
    this.refusal = cause;
    this.parameter = parameter;
    this.status = status;
  }
}

/**
 * Throws the refusal for a cause; for use in an expression (`?? refuse(…)`).
 *
 * @example
 * ```ts
 * import { refuse } from "./refusal.js";
 *
 * const name: string = ({} as { name?: string }).name ?? refuse({ kind: "missing", field: "name" }, "name: required");
 * ```
 */
export function refuse(cause: PageErrorCause, message: string, parameter?: string): never {
  throw new Refusal(cause, message, parameter);
}

/**
 * The refusal of the domain layer (store search, practice, repertoire): its own identifier, with the
 * status the sandbox pairs with it.
 *
 * @example
 * ```ts
 * import { domainRefusal } from "./refusal.js";
 *
 * throw domainRefusal("user_not_found", 'user: no user with ID "u-1"', "user");
 * ```
 */
export function domainRefusal(id: DomainErrorId, message: string, parameter?: string): Refusal {
  return new Refusal({ kind: "named", id }, message, parameter, DOMAIN_ERROR_STATUS[id]);
}
