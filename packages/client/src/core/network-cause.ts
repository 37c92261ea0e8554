/**
 * What the platform says underneath a failed `fetch` ("fetch failed" alone says
 * nothing), and whether sending the request again could ever end differently.
 */

// undici refuses these before any connection, with a reason but no code.
const PERMANENT_REASONS: ReadonlySet<string> = new Set(["bad port", "unknown scheme"]);

// An address that cannot be parsed, and TLS certificates the platform does not trust
// (OpenSSL's verification codes as Node reports them): a retry meets the same refusal.
const PERMANENT_CODES: ReadonlySet<string> = new Set([
  "ERR_INVALID_URL",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "HOSTNAME_MISMATCH",
]);

interface Reason {
  readonly code: string | undefined;
  readonly message: string | undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The code and message of the error under a failed fetch's own (undici puts them in `cause`). */
function reasonOf(error: unknown): Reason {
  if (typeof error !== "object" || error === null) return { code: undefined, message: undefined };
  const inner = (error as { cause?: unknown }).cause;
  if (typeof inner === "object" && inner !== null) {
    const { code, message } = inner as { code?: unknown; message?: unknown };
    const own = text(message);
    // A message that only repeats the outer one adds nothing.
    return { code: text(code), message: own === (error as Error).message ? undefined : own };
  }
  return { code: text((error as { code?: unknown }).code), message: undefined };
}

/**
 * The platform's reason for a failed fetch, for an error message: the system or TLS
 * code, with the message when it says more than the code ("bad port", "ECONNREFUSED",
 * "DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate"); "" when there is none.
 *
 * Internal: it shows in the message of a {@link DrillNetworkError}.
 */
export function fetchFailureReason(error: unknown): string {
  const { code, message } = reasonOf(error);
  if (code !== undefined && message !== undefined && !message.includes(code)) return `${code}: ${message}`;
  return code ?? message ?? "";
}

/**
 * Whether a failed fetch can only fail the same way again: a port or scheme the
 * platform refuses, an address that does not parse, a TLS certificate it does not
 * trust. Refused connections, resets, DNS failures and the like may pass and stay
 * retryable.
 *
 * Internal: the default retry policy ({@link shouldRetry}) does not retry these.
 */
export function isPermanentFetchFailure(error: unknown): boolean {
  const { code, message } = reasonOf(error);
  if (code !== undefined && PERMANENT_CODES.has(code)) return true;
  return message !== undefined && PERMANENT_REASONS.has(message.toLowerCase());
}
