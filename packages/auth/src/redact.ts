/**
 * Helpers that keep secrets out of text and out of object dumps.
 */

/**
 * Placeholder shown instead of a secret.
 *
 * @example
 * ```ts
 * JSON.stringify(token); // {"value":"[redacted]", …}
 * ```
 */
export const REDACTED = "[redacted]";

/**
 * Key under which Node's `util.inspect` looks up a custom formatter. Taken from the
 * global symbol registry so this module needs no Node import.
 *
 * @example
 * ```ts
 * class Secret {
 *   [inspectCustom]() {
 *     return "Secret([redacted])";
 *   }
 * }
 * ```
 */
export const inspectCustom: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never;

// Anything shaped like a compact JWS/JWT, and any PEM block, is treated as a secret even
// when it is not one of the values we know about (a server may echo an older assertion).
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+/g;
const PEM_SHAPE = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * Replaces every occurrence of the given secrets, and anything shaped like a JWT or a
 * PEM block, with {@link REDACTED}.
 *
 * @example
 * ```ts
 * scrubSecrets("bad secret s3cr3t", ["s3cr3t"]); // "bad secret [redacted]"
 * ```
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real secrets are never that short.
    if (secret !== undefined && secret.length >= 6) out = out.split(secret).join(REDACTED);
  }
  return out.replace(PEM_SHAPE, REDACTED).replace(JWT_SHAPE, REDACTED);
}

/**
 * Makes text that came from a server safe to put into an error message: removes
 * control characters, scrubs secrets and shortens it.
 *
 * @example
 * ```ts
 * serverText("The assertion eyJhbGciOi.eyJzdWIi.c2ln expired\n", []); // "The assertion [redacted] expired"
 * ```
 */
export function serverText(text: string, secrets: readonly (string | undefined)[], maxLength = 300): string {
  const clean = scrubSecrets(text.replace(CONTROL, " "), secrets).trim();
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}…` : clean;
}
