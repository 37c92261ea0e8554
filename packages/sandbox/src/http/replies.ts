/**
 * Error replies the HTTP layer answers with, in the body of {@link errorBody}. The interface shows only
 * the field `ID` of an error; the IDs below (except those the domain takes from the interface) and every
 * status paired with them are the sandbox's own choices, listed in the package README.
 */
import { errorBody } from "../error-body.js";

/** Error IDs the HTTP layer itself answers with. */
export type HttpErrorId =
  | "invalid_request"
  | "not_found"
  | "method_not_allowed"
  | "length_required"
  | "payload_too_large"
  | "unsupported_media_type"
  | "not_simulated"
  | "injected_fault"
  | "sandbox_response_invalid"
  | "internal_error";

/**
 * Status the sandbox pairs with each of its own error IDs.
 */
export const HTTP_ERROR_STATUS: Readonly<Record<Exclude<HttpErrorId, "injected_fault">, number>> = {
  invalid_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  length_required: 411,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_simulated: 501,
  sandbox_response_invalid: 500,
  internal_error: 500,
};

/** A reply about to be sent: status, JSON body (or none) and extra headers. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Media type of the JSON body when it is not `application/json` (a `+json` type from a response rule). */
  readonly contentType?: string;
}

/** An error reply in the API's error shape: `ID` and `id`, `description` (and `message`), plus `fields`. */
export function errorReply(
  id: Exclude<HttpErrorId, "injected_fault">,
  message: string,
  extra?: { readonly headers?: Record<string, string>; readonly fields?: Record<string, unknown> },
): Reply {
  return {
    status: HTTP_ERROR_STATUS[id],
    body: errorBody(id, message, extra?.fields),
    ...(extra?.headers ? { headers: extra.headers } : {}),
  };
}

/**
 * Error codes of the token endpoint, from OAuth 2.0 (RFC 6749 section 5.2). The real service's token
 * errors are not shown; these are what the sandbox answers.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "temporarily_unavailable";

/**
 * The body of a token endpoint error: the record's OAuthError (`id`, `description`, both required), and
 * RFC 6749's `error` and `error_description` beside them, which the OAuthError's open object allows and
 * OAuth client libraries read.
 */
export function oauthErrorBody(error: string, description: string): Readonly<Record<string, string>> {
  return { id: error, description, error, error_description: description };
}

/**
 * A token endpoint error reply: 401 for client authentication failures, else the given status (400 by
 * default).
 */
export function oauthError(error: OAuthErrorCode, description: string, status?: number): Reply {
  return {
    status: status ?? (error === "invalid_client" ? 401 : 400),
    body: oauthErrorBody(error, description),
    headers: { "cache-control": "no-store", pragma: "no-cache" },
  };
}
