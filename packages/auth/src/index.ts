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
 *   auth: serviceAccountAuth({
 *     key: process.env.DRILL_KEY_JSON ?? "", // the key file's JSON text, e.g. from a secret store
 *     clientId: process.env.DRILL_CLIENT_ID ?? "",
 *     clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   }),
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
} from "@drill-practice/client/internal";
export { AccessToken, type AccessTokenInit } from "./access-token.js";
export { type AssertionInput, signAssertion } from "./assertion.js";
export type { Clock } from "./clock.js";
export {
  BrowserRuntimeError,
  DiscoveryError,
  KeyFileAmbiguousKeyError,
  KeyFileEncryptedKeyError,
  KeyFileError,
  type KeyFileErrorCode,
  type KeyFileErrorDetails,
  KeyFileFieldError,
  KeyFileKeySizeError,
  KeyFileKeyTypeError,
  KeyFileMalformedPemError,
  KeyFileMissingKeyError,
  KeyFileNotPrivateKeyError,
  KeyFileReadError,
  KeyFileSyntaxError,
  TokenExchangeError,
  type TokenExchangeErrorDetails,
  TokenRequestAbortedError,
  TokenResponseError,
} from "./errors.js";
export {
  type ParseServiceAccountKeyOptions,
  parseServiceAccountKey,
  ServiceAccountKey,
  type ServiceAccountKeyInput,
} from "./key-file.js";
export { type AuthMiddleware, type AuthMiddlewareOptions, authMiddleware } from "./middleware.js";
export {
  type ServiceAccountAuth,
  type ServiceAccountAuthOptions,
  serviceAccountAuth,
} from "./service-account-auth.js";
export {
  DEFAULT_MEMORY_CACHE_ENTRIES,
  MemoryTokenCache,
  type MemoryTokenCacheOptions,
  type TokenCache,
  type TokenCacheCoordination,
} from "./token-cache.js";
export {
  createTokenProvider,
  type GetTokenOptions,
  type ServiceAccountTokenProviderApi,
  type TokenProvider,
  type TokenProviderOptions,
} from "./token-provider.js";
