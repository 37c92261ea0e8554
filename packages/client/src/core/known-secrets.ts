/**
 * Redaction of known secrets (auth's client secret and signed assertion) in
 * every spelling they can take, on top of the patterns of `redact.ts`. Only
 * the internal entry exports it: the client's own errors know no secret, so
 * the main entry's bundle does without it.
 */
import { cleanText, scrub, scrubCause } from "./redact.js";

/**
 * Every spelling under which a known secret can turn up in text: as is,
 * percent-encoded (upper- and lower-case hex), form-encoded the way
 * `URLSearchParams` writes a request body, and escaped inside a JSON string.
 * Longest first, so no spelling is left half-replaced.
 */
function spellingsOf(secrets: readonly (string | undefined)[]): string[] {
  const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret === "") continue;
    const uri = encodeURIComponent(secret);
    const form = new URLSearchParams({ s: secret }).toString().slice(2);
    const json = JSON.stringify(secret).slice(1, -1);
    for (const spelling of [secret, uri, lowerHex(uri), form, lowerHex(form), json]) spellings.add(spelling);
  }
  return [...spellings].sort((a, b) => b.length - a.length);
}

/**
 * Replaces secrets in `text` with `[redacted]`: every spelling of the known
 * `secrets` (a client secret, a signed assertion), bearer tokens, JWT-shaped
 * strings, Authorization header credentials and PEM key blocks. Only the
 * values go; the text around them stays as it was.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "@drill-practice/client/internal";
 *
 * redactSecrets("failed: Authorization: Bearer abc.def.ghi"); // "failed: Authorization: [redacted]"
 * redactSecrets("bad secret s3cr3t here", ["s3cr3t"]); // "bad secret [redacted] here"
 * ```
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  return scrub(text, spellingsOf(secrets));
}

/**
 * Makes text that came from a server fit for an error message: control
 * characters become spaces, secrets are redacted, and the result is cut to
 * `maxLength` characters (with `…`).
 *
 * @example
 * ```ts
 * import { serverText } from "@drill-practice/client/internal";
 *
 * serverText("The assertion eyJhbGciOi.eyJzdWIi.c2ln expired\n"); // "The assertion [redacted] expired"
 * ```
 */
export function serverText(
  text: string,
  secrets: readonly (string | undefined)[] = [],
  maxLength = 300,
): string {
  return cleanText(text, spellingsOf(secrets), maxLength);
}

/**
 * A copy of a foreign error that is safe to keep as the `cause` of an SDK
 * error: the same built-in class where there is one, the same `name`, and
 * message, stack and string properties (such as `code`) with secrets
 * redacted; nested causes are copied the same way, four levels deep at most
 * (a chain that loops back on itself ends there). A string is redacted; any
 * other non-Error object is dropped (it could be a request with its headers),
 * other primitives are kept.
 *
 * @example
 * ```ts
 * import { redactedCause } from "@drill-practice/client/internal";
 *
 * const cause = redactedCause(new TypeError("failed: Bearer abc.def.ghi"), ["abc"]);
 * cause instanceof TypeError; // true
 * (cause as Error).message; // "failed: Bearer [redacted]"
 * ```
 */
export function redactedCause(
  cause: unknown,
  secrets: readonly (string | undefined)[] = [],
  depth = 0,
): unknown {
  return scrubCause(cause, spellingsOf(secrets), depth);
}
