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
 * createRedisTokenCache({ ...options, onWarning: (w) => w.code === "ERR_TOKEN_CACHE_UNAVAILABLE" && alert(w.message) });
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
 * createRedisTokenCache({ ...options, onWarning: (w) => w.code === "ERR_TOKEN_CACHE_TAMPERED" && audit(w) });
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
 * const onWarning = (warning: TokenCacheWarning) => logger.warn({ code: warning.code }, warning.message);
 * ```
 */
export type TokenCacheWarning = TokenCacheUnavailableError | TokenCacheTamperedError;
