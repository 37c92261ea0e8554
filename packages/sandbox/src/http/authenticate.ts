/**
 * The authentication stage: the bearer token of an operation that requires one, looked up in the
 * sandbox's token store.
 */
import { errorBody } from "../error-body.js";
import type { AccessTokens, TokenSession } from "../oauth/access-tokens.js";
import { authorizationProblem } from "./authorization-problem.js";
import type { Operation } from "./openapi.js";
import { pageErrorId } from "./page-errors.js";
import type { Reply } from "./replies.js";

function challenge(error?: string, description?: string): string {
  return error === undefined
    ? 'Bearer realm="drill-sandbox"'
    : `Bearer realm="drill-sandbox", error="${error}", error_description="${description}"`;
}

function unauthorized(operation: Operation, message: string, error?: string): { reply: Reply } {
  return {
    reply: {
      status: 401,
      // Always 401, whatever status a page gives the identifier elsewhere: the token was refused.
      body: errorBody(pageErrorId(operation, { kind: "unauthenticated" }), message),
      headers: { "www-authenticate": challenge(error, message) },
    },
  };
}

/** Who the request acts for, or the 401 that refuses it. */
export function authenticate(
  tokens: AccessTokens,
  operation: Operation,
  header: string | null,
): { session: TokenSession } | { reply: Reply } {
  if (header === null) {
    return unauthorized(
      operation,
      "Authorization: an access token is required (Authorization: Bearer <token>, or OAuth <token>)",
    );
  }
  // The service accepts the scheme words Bearer and OAuth, both case-sensitive (observed), so
  // `bearer` is refused here as it would be there.
  const m = /^(Bearer|OAuth) +([A-Za-z0-9._~+/-]+=*) *$/.exec(header);
  if (!m) return unauthorized(operation, authorizationProblem(header), "invalid_request");
  const found = tokens.lookup(m[2] as string);
  if (found.kind === "expired")
    return unauthorized(operation, "access token: has expired; request a new one", "invalid_token");
  if (found.kind === "unknown")
    return unauthorized(operation, "access token: not issued by this sandbox", "invalid_token");
  return { session: found.session };
}
