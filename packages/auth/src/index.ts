/**
 * `@drill-practice/auth`: access tokens for the Drill Practice Service with the JWT
 * bearer grant (RFC 7523) of a service account, for servers only. This entry imports
 * no Node built-in (it runs in Node, Bun, Deno and Workers); reading the key from a
 * file is in `@drill-practice/auth/node`.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import { serviceAccountAuth } from "@drill-practice/auth";
 *
 * const client = createDrillClient({
 *   baseUrl: "https://drill.example",
 *   auth: serviceAccountAuth({ key: keyFileJsonText, clientId, clientSecret }),
 * });
 * ```
 *
 * @packageDocumentation
 */

export {
  DRILL_ERROR_CODES,
  DrillError,
  type DrillErrorCode,
  DrillInvalidOptionError,
  type RetryOptions,
} from "@drill-practice/client";
export { AccessToken, type AccessTokenInit } from "./access-token.js";
export {
  type AssertionInput,
  buildAssertionClaims,
  buildAssertionHeader,
  DEFAULT_ASSERTION_LIFETIME_SECONDS,
  MAX_ASSERTION_LIFETIME_SECONDS,
  signAssertion,
} from "./assertion.js";
export { type Clock, MAX_CLOCK_OFFSET_MS, systemClock } from "./clock.js";
export { METADATA_PATH, metadataUrl } from "./discovery.js";
export {
  BrowserRuntimeError,
  CliUsageError,
  DiscoveryError,
  KeyFileAmbiguousKeyError,
  KeyFileEncryptedKeyError,
  KeyFileError,
  type KeyFileErrorCode,
  KeyFileFieldError,
  KeyFileKeySizeError,
  KeyFileKeyTypeError,
  KeyFileMalformedPemError,
  KeyFileMissingKeyError,
  KeyFileNotPrivateKeyError,
  KeyFileReadError,
  KeyFileSyntaxError,
  TokenExchangeError,
  TokenRequestAbortedError,
  TokenResponseError,
} from "./errors.js";
export {
  isServiceAccountKey,
  type ParseServiceAccountKeyOptions,
  parseServiceAccountKey,
  REQUIRED_MODULUS_LENGTH,
  ServiceAccountKey,
  type ServiceAccountKeyInput,
  SUPPORTED_KEY_TYPE,
} from "./key-file.js";
export { type AuthMiddleware, type AuthMiddlewareOptions, authMiddleware } from "./middleware.js";
export { assertServerRuntime, hasBrowserDocument } from "./runtime.js";
export {
  type ServiceAccountAuth,
  type ServiceAccountAuthOptions,
  serviceAccountAuth,
} from "./service-account-auth.js";
export {
  DEFAULT_MEMORY_CACHE_ENTRIES,
  isTokenCache,
  MemoryTokenCache,
  type MemoryTokenCacheOptions,
  type TokenCache,
} from "./token-cache.js";
export { JWT_BEARER_GRANT_TYPE } from "./token-exchange.js";
export {
  createTokenProvider,
  DEFAULT_CACHE_KEY_PREFIX,
  DEFAULT_REFRESH_MARGIN_SECONDS,
  type GetTokenOptions,
  type ServiceAccountTokenProviderApi,
  type TokenProvider,
  type TokenProviderOptions,
} from "./token-provider.js";
