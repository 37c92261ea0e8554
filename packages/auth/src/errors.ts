/**
 * Error classes of `@drill-practice/auth`.
 *
 * Every error thrown on purpose by this package extends the SDK's one base
 * class, `DrillError` from `@drill-practice/client`, with a stable `code` listed
 * in `DRILL_ERROR_CODES`; invalid options throw the shared
 * `DrillInvalidOptionError`. Messages name the field or option and the rule
 * that failed; they never contain the private key, the client secret, a signed
 * assertion or an access token (text from a server is redacted before use).
 */
import {
  brandErrorFamily,
  causeOption,
  DrillError,
  type DrillErrorCode,
} from "@drill-practice/client/internal";

/**
 * Where a key-file problem was found: the file (when read from disk) and the JSON field.
 *
 * @example
 * ```ts
 * import { KeyFileFieldError, type KeyFileErrorDetails } from "@drill-practice/auth";
 *
 * // Where a key file problem is: the file and the field (for your own checks of a key file).
 * const details: KeyFileErrorDetails = { source: "./service-account.json", field: "keyId" };
 * throw new KeyFileFieldError('field "keyId" is missing', details);
 * ```
 */
export interface KeyFileErrorDetails {
  /** Path of the key file, when it was read with `readServiceAccountKey`. */
  readonly source?: string | undefined;
  /** Dotted path of the JSON field the problem is about, when there is one. */
  readonly field?: string | undefined;
  readonly cause?: unknown;
}

/**
 * Common base of every problem with the service account's JSON key file.
 *
 * @example
 * ```ts
 * import { KeyFileError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   // Any problem with the key file: which file, which field, what is wrong (never the key itself).
 *   if (error instanceof KeyFileError) console.error(error.code, error.source, error.field, error.message);
 *   throw error;
 * }
 * ```
 */
export abstract class KeyFileError extends DrillError {
  static {
    // `instanceof KeyFileError` holds for a key-file error of any installed copy of the package.
    brandErrorFamily(KeyFileError, "@drill-practice/auth/KeyFileError");
  }
  abstract override readonly code: KeyFileErrorCode;
  /** Path of the key file, when known. */
  readonly source: string | undefined;
  /** Dotted path of the JSON field concerned, when there is one. */
  readonly field: string | undefined;

  constructor(problem: string, details: KeyFileErrorDetails = {}) {
    const where = details.source === undefined ? "service account key file" : `key file ${details.source}`;
    super(`${where}: ${problem}`, causeOption(details.cause));
    this.source = details.source;
    this.field = details.field;
  }
}

/**
 * Codes of the {@link KeyFileError} subclasses.
 *
 * @example
 * ```ts
 * import { KeyFileError, type KeyFileErrorCode, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const advice: Partial<Record<KeyFileErrorCode, string>> = {
 *   ERR_KEY_FILE_NOT_JSON: "download the key file again",
 * };
 * await parseServiceAccountKey("not json").catch((error: unknown) => {
 *   if (error instanceof KeyFileError) console.error(advice[error.code] ?? error.message);
 * });
 * ```
 */
export type KeyFileErrorCode = Extract<DrillErrorCode, `ERR_KEY_FILE_${string}`>;

/**
 * The key file could not be read from disk (missing, a directory, no permission, too large).
 *
 * @example
 * ```ts
 * import { KeyFileReadError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * await readServiceAccountKey("./missing.json").catch((error: unknown) => {
 *   if (error instanceof KeyFileReadError) console.error(error.code, error.source); // ERR_KEY_FILE_READ ./missing.json
 * });
 * ```
 */
export class KeyFileReadError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_READ";
  override readonly name = "KeyFileReadError";
  readonly code = KeyFileReadError.code;
}

/**
 * The key file is not JSON, or its top level is not an object.
 *
 * @example
 * ```ts
 * import { KeyFileSyntaxError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * await parseServiceAccountKey("not json").catch((error: unknown) => {
 *   if (error instanceof KeyFileSyntaxError) console.error(error.code); // ERR_KEY_FILE_NOT_JSON
 * });
 * ```
 */
export class KeyFileSyntaxError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_NOT_JSON";
  override readonly name = "KeyFileSyntaxError";
  readonly code = KeyFileSyntaxError.code;
}

/**
 * `keyId` or `serviceAccountId` is missing, not a string, or empty. `field` names which.
 *
 * @example
 * ```ts
 * import { KeyFileFieldError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * await parseServiceAccountKey({ serviceAccountId: "sa" }).catch((error: unknown) => {
 *   if (error instanceof KeyFileFieldError) console.error(error.field); // "keyId"
 * });
 * ```
 */
export class KeyFileFieldError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_FIELD";
  override readonly name = "KeyFileFieldError";
  readonly code = KeyFileFieldError.code;
}

/**
 * No field of the key file holds a PEM private key.
 *
 * @example
 * ```ts
 * import { KeyFileMissingKeyError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * await parseServiceAccountKey({ keyId: "k", serviceAccountId: "sa" }).catch((error: unknown) => {
 *   if (error instanceof KeyFileMissingKeyError) console.error(error.code, error.message); // no private key in the file
 * });
 * ```
 */
export class KeyFileMissingKeyError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_NO_PRIVATE_KEY";
  override readonly name = "KeyFileMissingKeyError";
  readonly code = KeyFileMissingKeyError.code;
}

/**
 * More than one PEM private key was found, so the key to sign with is ambiguous.
 *
 * @example
 * ```ts
 * import { KeyFileAmbiguousKeyError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   if (error instanceof KeyFileAmbiguousKeyError) console.error("which key?", error.candidates);
 *   throw error;
 * }
 * ```
 */
export class KeyFileAmbiguousKeyError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_AMBIGUOUS_KEY";
  override readonly name = "KeyFileAmbiguousKeyError";
  readonly code = KeyFileAmbiguousKeyError.code;
  /** Dotted paths of the fields holding a private key. */
  readonly candidates: readonly string[];

  constructor(problem: string, details: KeyFileErrorDetails & { candidates: readonly string[] }) {
    super(problem, details);
    this.candidates = details.candidates;
  }
}

/**
 * The only PEM found is a public key, a certificate or another non-private-key block.
 *
 * @example
 * ```ts
 * import { KeyFileNotPrivateKeyError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   if (error instanceof KeyFileNotPrivateKeyError) console.error(`${error.field} holds a ${error.pemLabel}`); // e.g. a PUBLIC KEY
 *   throw error;
 * }
 * ```
 */
export class KeyFileNotPrivateKeyError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_NOT_PRIVATE_KEY";
  override readonly name = "KeyFileNotPrivateKeyError";
  readonly code = KeyFileNotPrivateKeyError.code;
  /** The PEM label found, such as `CERTIFICATE` or `PUBLIC KEY`. */
  readonly pemLabel: string;

  constructor(problem: string, details: KeyFileErrorDetails & { pemLabel: string }) {
    super(problem, details);
    this.pemLabel = details.pemLabel;
  }
}

/**
 * The private key is encrypted with a passphrase; it has to be decrypted first.
 *
 * @example
 * ```ts
 * import { KeyFileEncryptedKeyError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   if (error instanceof KeyFileEncryptedKeyError) console.error(error.message); // says how to decrypt it with openssl
 *   throw error;
 * }
 * ```
 */
export class KeyFileEncryptedKeyError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_ENCRYPTED_KEY";
  override readonly name = "KeyFileEncryptedKeyError";
  readonly code = KeyFileEncryptedKeyError.code;
}

/**
 * The key is not an RSA key (EC, Ed25519, DSA, RSA-PSS, OpenSSH format…), or the
 * file's key-type field names something other than `RSA_2048`.
 *
 * @example
 * ```ts
 * import { KeyFileKeyTypeError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   if (error instanceof KeyFileKeyTypeError) console.error(error.message); // only RSA keys are supported
 *   throw error;
 * }
 * ```
 */
export class KeyFileKeyTypeError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_KEY_TYPE";
  override readonly name = "KeyFileKeyTypeError";
  readonly code = KeyFileKeyTypeError.code;
}

/**
 * The RSA key's modulus is not 2048 bits long.
 *
 * @example
 * ```ts
 * import { KeyFileKeySizeError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   if (error instanceof KeyFileKeySizeError) console.error(`the key has ${error.modulusLength} bits`);
 *   throw error;
 * }
 * ```
 */
export class KeyFileKeySizeError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_KEY_SIZE";
  override readonly name = "KeyFileKeySizeError";
  readonly code = KeyFileKeySizeError.code;
  /** Size of the modulus that was found, in bits. */
  readonly modulusLength: number;

  constructor(problem: string, details: KeyFileErrorDetails & { modulusLength: number }) {
    super(problem, details);
    this.modulusLength = details.modulusLength;
  }
}

/**
 * The PEM private key is damaged: truncated, not base64, or not valid DER.
 *
 * @example
 * ```ts
 * import { KeyFileMalformedPemError } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * try {
 *   await readServiceAccountKey("./service-account.json");
 * } catch (error) {
 *   if (error instanceof KeyFileMalformedPemError) console.error(error.field, error.message);
 *   throw error;
 * }
 * ```
 */
export class KeyFileMalformedPemError extends KeyFileError {
  static readonly code = "ERR_KEY_FILE_MALFORMED_PEM";
  override readonly name = "KeyFileMalformedPemError";
  readonly code = KeyFileMalformedPemError.code;
}

/**
 * The token endpoint could not be discovered from `{baseUrl}/.well-known/oauth-authorization-server`.
 *
 * @example
 * ```ts
 * import { createTokenProvider, DiscoveryError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * await provider.getToken().catch((error: unknown) => {
 *   // The discovery document could not be fetched or read: which URL, which status, after how many tries.
 *   if (error instanceof DiscoveryError) console.error(error.url, error.status, error.attempts);
 *   throw error;
 * });
 * ```
 */
export class DiscoveryError extends DrillError {
  static readonly code = "ERR_DISCOVERY";
  override readonly name = "DiscoveryError";
  readonly code = DiscoveryError.code;
  /** URL of the metadata document. */
  readonly url: string;
  /** HTTP status of the last response, when one arrived. */
  readonly status: number | undefined;
  /** How many requests were made. */
  readonly attempts: number;

  constructor(
    problem: string,
    details: { url: string; status?: number | undefined; attempts: number; cause?: unknown },
  ) {
    super(`token endpoint discovery at ${details.url} failed: ${problem}`, causeOption(details.cause));
    this.url = details.url;
    this.status = details.status;
    this.attempts = details.attempts;
  }
}

/**
 * Details carried by a {@link TokenExchangeError}.
 *
 * @example
 * ```ts
 * import { TokenExchangeError, type TokenExchangeErrorDetails } from "@drill-practice/auth";
 *
 * // In a test of your error handling: the error a rejected assertion gives.
 * const details: TokenExchangeErrorDetails = {
 *   endpoint: "https://drill.example/daas/oauth/token",
 *   status: 400,
 *   attempts: 1,
 *   oauthError: "invalid_grant",
 * };
 * const error = new TokenExchangeError("HTTP 400 invalid_grant", details);
 * ```
 */
export interface TokenExchangeErrorDetails {
  readonly endpoint: string;
  readonly status?: number | undefined;
  readonly oauthError?: string | undefined;
  readonly oauthErrorDescription?: string | undefined;
  readonly attempts: number;
  readonly retryAfterSeconds?: number | undefined;
  readonly cause?: unknown;
}

/**
 * The token endpoint refused the exchange or could not be reached (after the retries
 * that apply). `oauthError` / `oauthErrorDescription` carry the OAuth error body when
 * the server sent one.
 *
 * @example
 * ```ts
 * import { createTokenProvider, TokenExchangeError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * await provider.getToken({ subject: "pat@example.com" }).catch((error: unknown) => {
 *   if (error instanceof TokenExchangeError && error.oauthError === "invalid_grant") {
 *     console.error("assertion rejected:", error.oauthErrorDescription); // e.g. an unknown subject
 *   }
 *   throw error;
 * });
 * ```
 */
export class TokenExchangeError extends DrillError {
  static readonly code = "ERR_TOKEN_EXCHANGE";
  override readonly name = "TokenExchangeError";
  readonly code = TokenExchangeError.code;
  /** The token endpoint URL. */
  readonly endpoint: string;
  /** HTTP status of the last response; `undefined` when no response arrived. */
  readonly status: number | undefined;
  /** The error's identifier: the body's `id` (the service's OAuthError) or else `error` (RFC 6749), when present. */
  readonly oauthError: string | undefined;
  /**
   * The error's text: the body's `description` (the service's OAuthError) or else `error_description`
   * (RFC 6749), when present (scrubbed and shortened).
   */
  readonly oauthErrorDescription: string | undefined;
  /** How many requests were made. */
  readonly attempts: number;
  /** The server's `Retry-After`, in seconds, when it asked for a wait longer than the retry budget. */
  readonly retryAfterSeconds: number | undefined;

  constructor(problem: string, details: TokenExchangeErrorDetails) {
    super(`token exchange at ${details.endpoint} failed: ${problem}`, causeOption(details.cause));
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.oauthError = details.oauthError;
    this.oauthErrorDescription = details.oauthErrorDescription;
    this.attempts = details.attempts;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * The token endpoint answered with success but the body is unusable: not JSON, not an
 * object, or without a valid `access_token` / `expires_in`.
 *
 * @example
 * ```ts
 * import { createTokenProvider, TokenResponseError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * await provider.getToken().catch((error: unknown) => {
 *   // A 2xx answer without a usable token (e.g. no access_token, no expires_in).
 *   if (error instanceof TokenResponseError) console.error(error.endpoint, error.status, error.message);
 *   throw error;
 * });
 * ```
 */
export class TokenResponseError extends DrillError {
  static readonly code = "ERR_TOKEN_RESPONSE";
  override readonly name = "TokenResponseError";
  readonly code = TokenResponseError.code;
  /** The token endpoint URL. */
  readonly endpoint: string;
  /** HTTP status of the response. */
  readonly status: number;

  constructor(problem: string, details: { endpoint: string; status: number }) {
    super(
      `token endpoint ${details.endpoint} sent an unusable response (HTTP ${details.status}): ${problem}`,
    );
    this.endpoint = details.endpoint;
    this.status = details.status;
  }
}

/**
 * Thrown when the package is used where a browser `document` exists: the private
 * key must stay on servers and never ship to a web or mobile client.
 *
 * @example
 * ```ts
 * import { BrowserRuntimeError, serviceAccountAuth } from "@drill-practice/auth";
 *
 * try {
 *   serviceAccountAuth({ key: "{}", clientId: "my-app", clientSecret: "…" });
 * } catch (error) {
 *   // In a browser the client secret and key would be public: get tokens from your backend instead.
 *   if (error instanceof BrowserRuntimeError) console.error(error.message);
 *   throw error;
 * }
 * ```
 */
export class BrowserRuntimeError extends DrillError {
  static readonly code = "ERR_BROWSER_RUNTIME";
  override readonly name = "BrowserRuntimeError";
  readonly code = BrowserRuntimeError.code;

  constructor() {
    super(
      "@drill-practice/auth refuses to run in a browser: a service account private key must never be " +
        "shipped to a public client; obtain tokens on a server and pass only short-lived access tokens on",
    );
  }
}

/**
 * Wrong command-line usage of `drill-token` (unknown flag, missing setting, secret given as a flag).
 */
export class CliUsageError extends DrillError {
  static readonly code = "ERR_CLI_USAGE";
  override readonly name = "CliUsageError";
  readonly code = CliUsageError.code;
}

/**
 * The caller's `AbortSignal` fired while it waited for a token. Its `name` is
 * `"AbortError"`, like the error of an aborted `fetch`, and its `cause` is the
 * signal's reason. Nothing is cached for an aborted request.
 *
 * @example
 * ```ts
 * import { createTokenProvider, TokenRequestAbortedError, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * const token = await provider.getToken({ signal: AbortSignal.timeout(5000) }).catch((error: unknown) => {
 *   if (error instanceof TokenRequestAbortedError) return undefined; // gave up waiting
 *   throw error;
 * });
 * ```
 */
export class TokenRequestAbortedError extends DrillError {
  static readonly code = "ERR_ABORTED";
  // Named like the error of an aborted fetch, so code that checks for `AbortError` treats it the same.
  override readonly name = "AbortError";
  readonly code = TokenRequestAbortedError.code;

  constructor(reason: unknown) {
    super("the wait for an access token was aborted by the caller's signal", { cause: reason });
  }
}
