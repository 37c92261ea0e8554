/**
 * The one table of error codes of the Drill Practice SDK. Both packages throw
 * only errors whose `code` is listed here; the docs build the errors page from it.
 */

/**
 * One row of {@link DRILL_ERROR_CODES}: what the code means and which
 * packages throw it.
 *
 * @example
 * ```ts
 * import { DRILL_ERROR_CODES, type DrillErrorCodeInfo } from "@drill-practice/client";
 *
 * const info: DrillErrorCodeInfo = DRILL_ERROR_CODES.ERR_NETWORK;
 * console.log(info.meaning, info.packages.join(", "));
 * ```
 */
export interface DrillErrorCodeInfo {
  /** One line saying what went wrong. */
  readonly meaning: string;
  /** The packages that throw it, without the `@drill-practice/` scope. */
  readonly packages: readonly ("client" | "auth")[];
}

/**
 * Every error code of `@drill-practice/client` and `@drill-practice/auth`,
 * each with a one-line meaning and the packages that throw it.
 *
 * @example
 * ```ts
 * import { DRILL_ERROR_CODES, DrillError } from "@drill-practice/client";
 *
 * function explain(error: unknown): string {
 *   return error instanceof DrillError ? DRILL_ERROR_CODES[error.code].meaning : String(error);
 * }
 * ```
 */
export const DRILL_ERROR_CODES = Object.freeze({
  ERR_API: {
    meaning: "The service answered with a status outside 2xx; the message quotes its explanation.",
    packages: ["client"],
  },
  ERR_TIMEOUT: {
    meaning: "One HTTP attempt (response headers and body) took longer than timeoutMs.",
    packages: ["client"],
  },
  ERR_NETWORK: {
    meaning: "No HTTP response arrived (refused, reset, DNS failure) after every permitted attempt.",
    packages: ["client"],
  },
  ERR_INVALID_OPTION: {
    meaning: "An option passed to a function breaks a rule; `option` names it.",
    packages: ["client", "auth"],
  },
  ERR_INVALID_PARAMETER: {
    meaning: "A request parameter cannot be sent as given (empty, `.` or `..` path segment).",
    packages: ["client"],
  },
  ERR_UNEXPECTED_RESPONSE: {
    meaning: "A success body lacks what a helper needs (e.g. a store page without `total`).",
    packages: ["client"],
  },
  ERR_KEY_FILE_READ: {
    meaning: "The key file cannot be read from disk (missing, a directory, no permission, too large).",
    packages: ["auth"],
  },
  ERR_KEY_FILE_NOT_JSON: {
    meaning: "The key file is not JSON, or its top level is not an object.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_FIELD: {
    meaning: "`keyId` or `serviceAccountId` of the key file is missing, not a string, or empty.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_NO_PRIVATE_KEY: {
    meaning: "No field of the key file holds a PEM private key.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_AMBIGUOUS_KEY: {
    meaning: "The key file holds more than one PEM private key.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_NOT_PRIVATE_KEY: {
    meaning: "The only PEM block of the key file is a public key or certificate.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_ENCRYPTED_KEY: {
    meaning: "The private key is encrypted with a passphrase.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_KEY_TYPE: {
    meaning: "The key is not an RSA key, or the key type field is not RSA_2048.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_KEY_SIZE: {
    meaning: "The RSA modulus is not 2048 bits long.",
    packages: ["auth"],
  },
  ERR_KEY_FILE_MALFORMED_PEM: {
    meaning: "The PEM private key is truncated, not base64, or not valid DER.",
    packages: ["auth"],
  },
  ERR_DISCOVERY: {
    meaning: "The token endpoint could not be read from the authorization server metadata.",
    packages: ["auth"],
  },
  ERR_TOKEN_EXCHANGE: {
    meaning: "The token endpoint refused the assertion or could not be reached.",
    packages: ["auth"],
  },
  ERR_TOKEN_RESPONSE: {
    meaning: "The token endpoint answered 2xx with a body that is not a usable token response.",
    packages: ["auth"],
  },
  ERR_ABORTED: {
    meaning: "The caller's AbortSignal fired while it waited for a token.",
    packages: ["auth"],
  },
  ERR_BROWSER_RUNTIME: {
    meaning: "@drill-practice/auth was loaded in a browser page, where a private key would be public.",
    packages: ["auth"],
  },
  ERR_CLI_USAGE: {
    meaning: "drill-token was called with an unknown flag, a missing setting or a secret as a flag.",
    packages: ["auth"],
  },
} as const satisfies Record<string, DrillErrorCodeInfo>);

/**
 * The union of every error code of the SDK: the keys of {@link DRILL_ERROR_CODES}.
 *
 * @example
 * ```ts
 * import type { DrillErrorCode } from "@drill-practice/client";
 *
 * const retryable: DrillErrorCode[] = ["ERR_NETWORK", "ERR_TIMEOUT"];
 * ```
 */
export type DrillErrorCode = keyof typeof DRILL_ERROR_CODES;
