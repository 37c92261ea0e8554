/**
 * The refusals the pipeline makes before a handler runs, in the service's error body: the default of
 * every route (the OAuth endpoints word theirs in OAuth's format, see `oauth/oauth-routes.ts`).
 */
import { errorBody } from "../error-body.js";
import type { Operation } from "./openapi.js";
import type { Refusals } from "./operation-handler.js";
import { listedPageErrorId, pageErrorReply } from "./page-errors.js";
import type { Reply } from "./replies.js";
import { errorReply } from "./replies.js";
import type { RequestProblem } from "./validator.js";

/**
 * A request that breaks the description: the page's own identifier when its page names one for the
 * first rule broken (`description_missing`, `invalid_catalog_restriction_mode`), else `invalid_request`.
 */
export function requestProblem(operation: Operation, problems: readonly RequestProblem[]): Reply {
  const message = problems.map((p) => p.message).join("; ");
  const first = problems[0];
  if (first?.cause) {
    const { rule, field } = first.cause;
    const cause =
      rule === "missing" ? { kind: "missing" as const, field } : { kind: "invalid" as const, field };
    if (listedPageErrorId(operation, cause) !== undefined)
      return pageErrorReply(operation, cause, message, field);
  }
  return errorReply("invalid_request", message, { fields: { parameter: first?.parameter } });
}

/** The service's refusals: the default of every route. */
export const SERVICE_REFUSALS: Refusals = {
  query: (problem) => errorReply("invalid_request", problem, { fields: { parameter: "query" } }),
  params: requestProblem,
  faultBody: (message) => errorBody("injected_fault", message),
};
