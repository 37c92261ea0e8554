/**
 * The one redactor of the SDK. It removes secret values from text the SDK did
 * not write itself (a server's explanation, the message of an error thrown by
 * a custom `fetch`) and from the SDK's own messages, and nothing else: the
 * words around a secret stay, so a message still says what happened. Known
 * secrets (auth's client secret and assertion) are spelled out in
 * `known-secrets.ts`, which only the internal entry carries.
 */
import { jwtPattern, pemBlockPattern } from "./secret-patterns.js";

/**
 * Placeholder shown instead of a secret.
 *
 * @example
 * ```ts
 * import { REDACTED, redactSecrets } from "@drill-practice/client/internal";
 *
 * redactSecrets("Bearer abc.def.ghi").endsWith(REDACTED); // true
 * ```
 */
export const REDACTED = "[redacted]";

/**
 * Key under which Node's `util.inspect` looks up a custom formatter. Taken
 * from the global symbol registry so that no Node module is imported.
 *
 * @example
 * ```ts
 * import { inspectCustom } from "@drill-practice/client/internal";
 *
 * class Secret {
 *   [inspectCustom]() {
 *     return "Secret([redacted])";
 *   }
 * }
 * ```
 */
export const inspectCustom: unique symbol = Symbol.for("nodejs.util.inspect.custom") as never;

// The credentials of an Authorization header as header dumps, JSON and
// key=value lists show them: an optional scheme and the credentials token.
const AUTHORIZATION_VALUE =
  /(authorization["']?\s*[:=]\s*["']?)(?:[A-Za-z][\w-]*\s+)?[A-Za-z0-9\-._~+/]+=*/gi;
// RFC 6750 b64token after the scheme name.
const BEARER_TOKEN = /\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;
const JWT_WITH_HEADER = jwtPattern();
// Other dot-separated base64url triples, long enough not to be host names.
const LONG_TRIPLE = /\b[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\b/g;
const PEM_BLOCK = pemBlockPattern();
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * Replaces secrets in `text` with `[redacted]`: the given `spellings` of known
 * secrets (longest first, as `redactSecrets` in `known-secrets.ts` lists them),
 * bearer tokens, JWT-shaped strings, Authorization header credentials and PEM
 * key blocks. Only the values go; the text around them stays as it was. The
 * client's own errors know no secret and call it without spellings, so the
 * main entry does not carry the spelling expansion that only auth needs.
 */
export function scrub(text: string, spellings: readonly string[] = []): string {
  let out = text;
  for (const spelling of spellings) out = out.split(spelling).join(REDACTED);
  return out
    .replace(PEM_BLOCK, REDACTED)
    .replace(AUTHORIZATION_VALUE, `$1${REDACTED}`)
    .replace(BEARER_TOKEN, `$1${REDACTED}`)
    .replace(JWT_WITH_HEADER, REDACTED)
    .replace(LONG_TRIPLE, REDACTED);
}

/**
 * Makes text that came from a server fit for an error message: control
 * characters become spaces, secrets are redacted ({@link scrub}), and the
 * result is cut to `maxLength` characters (with `…`).
 */
export function cleanText(text: string, spellings: readonly string[] = [], maxLength = 300): string {
  const clean = scrub(text.replace(CONTROL, " "), spellings).trim();
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}…` : clean;
}

const ERROR_TYPES: readonly ErrorConstructor[] = [
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
];
const MAX_DEPTH = 4;

/**
 * A copy of a foreign error that is safe to keep as the `cause` of an SDK
 * error: the same built-in class where there is one, the same `name`, and
 * message, stack and string properties (such as `code`) with secrets
 * redacted ({@link scrub}); nested causes are copied the same way, four
 * levels deep at most (a chain that loops back on itself ends there). A
 * string is redacted; any other non-Error object is dropped (it could be a
 * request with its headers), other primitives are kept.
 */
export function scrubCause(cause: unknown, spellings: readonly string[] = [], depth = 0): unknown {
  if (typeof cause === "string") return scrub(cause, spellings);
  if (cause instanceof Error) return copyError(cause, spellings, depth);
  if (typeof cause === "object" && cause !== null) return undefined;
  if (typeof cause === "function") return undefined;
  return cause;
}

function copyError(error: Error, spellings: readonly string[], depth: number): Error {
  const Type = ERROR_TYPES.find((type) => error instanceof type) ?? Error;
  const copy = new Type(scrub(error.message, spellings));
  if (copy.name !== error.name) {
    define(copy, "name", error.name);
  }
  define(copy, "stack", typeof error.stack === "string" ? scrub(error.stack, spellings) : undefined);
  // Keep what helps diagnosis (code, errno, syscall, hostname, …), redacted.
  for (const [key, value] of Object.entries(error)) {
    if (key === "cause") continue;
    const target = copy as unknown as Record<string, unknown>;
    if (typeof value === "string") target[key] = scrub(value, spellings);
    else if (typeof value === "number" || typeof value === "boolean") target[key] = value;
  }
  if ("cause" in error && depth < MAX_DEPTH) {
    const nested = scrubCause(error.cause, spellings, depth + 1);
    if (nested !== undefined) define(copy, "cause", nested);
  }
  return copy;
}

/** A non-enumerable own property, as the engine's own `name`, `stack` and `cause` are. */
function define(target: Error, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, configurable: true });
}
