/**
 * What the Redis token store reports through its `onWarning` hook. These are never
 * thrown at a caller of `getToken`: Redis trouble costs sharing, not requests.
 */
import { DrillError } from "@drill-practice/client/internal";

/**
 * Redis did not answer (down, unreachable, or slower than `timeoutMs`). Reported once
 * per outage; until Redis answers again the process uses its own cache and exchanges.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, TokenCacheUnavailableError } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache = await createRedisTokenCache({
 *   url: "redis://127.0.0.1:6379",
 *   clientSecret,
 *   keyId: key.keyId,
 *   // Once per outage; tokens keep coming from this process's own cache and exchanges.
 *   onWarning: (warning) => {
 *     if (warning instanceof TokenCacheUnavailableError) console.warn("Redis down:", warning.message);
 *   },
 * });
 * ```
 */
export class TokenCacheUnavailableError extends DrillError {
  static readonly code = "ERR_TOKEN_CACHE_UNAVAILABLE";
  override readonly name = "TokenCacheUnavailableError";
  readonly code = TokenCacheUnavailableError.code;

  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `Redis token cache unavailable (${detail}); this process uses its own cache and token exchanges until Redis answers again`,
      options,
    );
  }
}

/**
 * A stored value did not open with this store's key: changed in Redis, or written by
 * another client or service-account key under the same name. It is ignored and
 * replaced by the next token stored.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, TokenCacheTamperedError } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache = await createRedisTokenCache({
 *   url: "redis://127.0.0.1:6379",
 *   clientSecret,
 *   keyId: key.keyId,
 *   // A stored token did not open with this store's key: worth an audit entry.
 *   onWarning: (warning) => {
 *     if (warning instanceof TokenCacheTamperedError) console.warn("audit:", warning.code, warning.message);
 *   },
 * });
 * ```
 */
export class TokenCacheTamperedError extends DrillError {
  static readonly code = "ERR_TOKEN_CACHE_TAMPERED";
  override readonly name = "TokenCacheTamperedError";
  readonly code = TokenCacheTamperedError.code;

  constructor() {
    super("a value in the Redis token cache failed authentication; it is ignored and will be replaced");
  }
}

/**
 * Everything `onWarning` receives.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, type TokenCacheWarning } from "@drill-practice/auth/redis";
 *
 * const onWarning = (warning: TokenCacheWarning) => console.warn(warning.code, warning.message);
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache = await createRedisTokenCache({ url: "redis://127.0.0.1:6379", clientSecret, keyId: key.keyId, onWarning });
 * ```
 */
export type TokenCacheWarning = TokenCacheUnavailableError | TokenCacheTamperedError;
