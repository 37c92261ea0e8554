/**
 * The one set of patterns for secrets that have a shape of their own (a JWT, a PEM key block),
 * shared by the SDK's redactor (`redact.ts`) and the repository's recording redactor
 * (`scripts/drift/redact-har.ts`). Each call returns a fresh global RegExp, so no caller shares
 * another's `lastIndex`.
 */

/**
 * A JWS/JWE: its header is base64url JSON and so starts with `eyJ` (`{"`), then two to four more
 * dot-separated parts.
 *
 * @example
 * ```ts
 * import { jwtPattern } from "@drill-practice/client/internal";
 *
 * "token eyJhbGciOi.eyJzdWIi.c2ln".replace(jwtPattern(), "[jwt]"); // "token [jwt]"
 * ```
 */
export function jwtPattern(): RegExp {
  return /\beyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){2,4}/g;
}

/**
 * A PEM block with key material: the BEGIN line, optional RFC 1421 headers, then at least 16
 * characters of base64 and the END line when it is there (a message may cut it off). A bare
 * `-----BEGIN PRIVATE KEY-----` in a hint carries no secret and does not match. The label is the
 * first group, so a caller can tell a private key from a public one.
 *
 * @example
 * ```ts
 * import { pemBlockPattern } from "@drill-practice/client/internal";
 *
 * const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
 * pemBlockPattern().exec(pem)?.[1]; // "PRIVATE KEY"
 * ```
 */
export function pemBlockPattern(): RegExp {
  return /-----BEGIN ([A-Z0-9 ]+)-----\s*(?:[A-Za-z-]+:[^\r\n]*\r?\n\s*)*[A-Za-z0-9+/=\r\n\t ]{16,}(?:-----END [A-Z0-9 ]+-----)?/g;
}
