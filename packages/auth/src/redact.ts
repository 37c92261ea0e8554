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
 * Every spelling under which a secret can turn up in text: as is, percent-encoded
 * (`encodeURIComponent`, upper- and lower-case hex), form-encoded the way
 * `URLSearchParams` writes a request body (space as `+`), and escaped inside a JSON
 * string. A server or a fetch implementation that quotes the request body shows the
 * encoded form, not the raw one. Longest first, so no spelling is left half-replaced.
 *
 * @example
 * ```ts
 * secretSpellings("a+b c"); // ["a%2Bb%20c", "a%2bb%20c", "a%2Bb+c", "a%2bb+c", "a+b c"]
 * ```
 */
export function secretSpellings(secret: string): string[] {
  if (secret === "") return [];
  const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const json = JSON.stringify(secret).slice(1, -1);
  const spellings = new Set([secret, uri, lowerHex(uri), form, lowerHex(form), json]);
  return [...spellings].sort((a, b) => b.length - a.length);
}

/**
 * Whether a text contains any spelling (see {@link secretSpellings}) of any of the secrets.
 *
 * @example
 * ```ts
 * containsSecret("body: client_secret=p%2Bw", ["p+w"]); // true
 * ```
 */
export function containsSecret(text: string, secrets: readonly (string | undefined)[]): boolean {
  return secrets.some(
    (secret) => secret !== undefined && secretSpellings(secret).some((spelling) => text.includes(spelling)),
  );
}

/**
 * Replaces every spelling (see {@link secretSpellings}) of the given secrets, and
 * anything shaped like a JWT or a PEM block, with {@link REDACTED}. Every secret is
 * replaced whatever its length: a short client secret is still a secret.
 *
 * @example
 * ```ts
 * scrubSecrets("bad secret s3cr3t", ["s3cr3t"]); // "bad secret [redacted]"
 * ```
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  const spellings = secrets
    .flatMap((secret) => (secret === undefined ? [] : secretSpellings(secret)))
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const spelling of spellings) out = out.split(spelling).join(REDACTED);
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
