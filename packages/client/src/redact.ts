/**
 * Scrubbing of credentials from text that the client did not write itself,
 * such as the message of an error thrown by a custom `fetch`. Such a message
 * may quote the request, headers and all; the client's own errors must not
 * pass a token on to a log line.
 */

const REDACTED = "[redacted]";

// The value of an Authorization (or Proxy-Authorization) header as it shows up
// in header dumps, JSON and key=value lists: everything up to the end of the value.
const AUTHORIZATION_VALUE = /(authorization["']?\s*[:=]\s*["']?)[^"'\r\n,;}\]]+/gi;
// RFC 6750 b64token after the scheme name.
const BEARER_TOKEN = /\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;
// A JWS/JWE: its header is base64url JSON and so starts with `eyJ` (`{"`).
const JWT_WITH_HEADER = /\beyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){2,4}/g;
// Other dot-separated base64url triples, long enough not to be host names.
const LONG_TRIPLE = /\b[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\b/g;

/**
 * Replaces bearer tokens, JWT-shaped strings and Authorization header values
 * in `text` with `[redacted]`.
 *
 * @example
 * ```ts
 * import { redactSecrets } from "./redact.js";
 *
 * redactSecrets("failed: Authorization: Bearer abc.def.ghi"); // "failed: Authorization: [redacted]"
 * ```
 */
export function redactSecrets(text: string): string {
  return text
    .replace(AUTHORIZATION_VALUE, `$1${REDACTED}`)
    .replace(BEARER_TOKEN, `$1${REDACTED}`)
    .replace(JWT_WITH_HEADER, REDACTED)
    .replace(LONG_TRIPLE, REDACTED);
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
 * A copy of a foreign error that is safe to keep as the `cause` of a client
 * error: the same built-in class where there is one, the same `name`, and
 * message, stack and string properties (such as `code`) with secrets
 * scrubbed; nested causes are copied the same way. A string is scrubbed; any
 * other non-Error object is dropped (it could be a request with its headers),
 * other primitives are kept.
 *
 * @example
 * ```ts
 * import { redactedCause } from "./redact.js";
 *
 * const cause = redactedCause(new TypeError("failed: Bearer abc.def.ghi"));
 * cause instanceof TypeError; // true
 * (cause as Error).message; // "failed: Bearer [redacted]"
 * ```
 */
export function redactedCause(cause: unknown, depth = 0): unknown {
  if (typeof cause === "string") return redactSecrets(cause);
  if (cause instanceof Error) return copyError(cause, depth);
  if (typeof cause === "object" && cause !== null) return undefined;
  if (typeof cause === "function") return undefined;
  return cause;
}

function copyError(error: Error, depth: number): Error {
  const Type = ERROR_TYPES.find((type) => error instanceof type) ?? Error;
  const copy = new Type(redactSecrets(error.message));
  if (copy.name !== error.name) {
    Object.defineProperty(copy, "name", { value: error.name, writable: true, configurable: true });
  }
  Object.defineProperty(copy, "stack", {
    value: typeof error.stack === "string" ? redactSecrets(error.stack) : undefined,
    writable: true,
    configurable: true,
  });
  // Keep what helps diagnosis (code, errno, syscall, hostname, …), scrubbed.
  for (const [key, value] of Object.entries(error)) {
    if (key === "cause") continue;
    if (typeof value === "string") (copy as unknown as Record<string, unknown>)[key] = redactSecrets(value);
    else if (typeof value === "number" || typeof value === "boolean") {
      (copy as unknown as Record<string, unknown>)[key] = value;
    }
  }
  if ("cause" in error && depth < MAX_DEPTH) {
    const nested = redactedCause(error.cause, depth + 1);
    if (nested !== undefined) {
      Object.defineProperty(copy, "cause", { value: nested, writable: true, configurable: true });
    }
  }
  return copy;
}
