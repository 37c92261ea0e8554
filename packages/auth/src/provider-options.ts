/**
 * What `createTokenProvider` takes, with its defaults: the one place a provider option is described.
 */
// biome-ignore lint/style/useImportType: the emitted declaration keeps the plain import the API report (etc/auth-node.api.md) records.
import { type RetryOptions } from "@drill-practice/client/internal";
import type { Clock } from "./clock.js";
import type { ServiceAccountKey } from "./key-file.js";
import type { MemoryTokenCache, TokenCache } from "./token-cache.js";

/**
 * Default `refreshMarginSeconds`: 60. Expiry is measured on the local clock from the
 * arrival of the token response, so clock skew does not eat into the margin; what it
 * must cover is the time between handing out a token and the service checking it,
 * including the API client's own retries and backoff (tens of seconds in the worst
 * case). One minute covers that while costing under 2 % of a typical 3599 s token.
 */
export const DEFAULT_REFRESH_MARGIN_SECONDS = 60;

/**
 * Default prefix of cache keys.
 */
export const DEFAULT_CACHE_KEY_PREFIX = "drill-practice:token:";

/**
 * Options of {@link createTokenProvider}.
 *
 * @example
 * ```ts
 * import { createTokenProvider, type TokenProviderOptions } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * const options: TokenProviderOptions = {
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await readServiceAccountKey("./service-account.json"),
 * };
 * const provider = createTokenProvider(options);
 * ```
 */
export interface TokenProviderOptions {
  /** Base URL of the service; the token endpoint is discovered below it. Required unless `tokenEndpoint` is given. */
  readonly baseUrl?: string | undefined;
  /** Client ID of the registered client application. */
  readonly clientId: string;
  /** Client secret of the registered client application. */
  readonly clientSecret: string;
  /** The parsed service account key. */
  readonly key: ServiceAccountKey;
  /** Default subject (`sub`): the service account itself unless set. A user ID, email address or third-party ID of a managed user. */
  readonly subject?: string | undefined;
  /** Token endpoint URL; skips discovery. It is also the assertion's `aud`. */
  readonly tokenEndpoint?: string | undefined;
  /** Seconds before expiry at which a cached token is replaced. Default {@link DEFAULT_REFRESH_MARGIN_SECONDS}. */
  readonly refreshMarginSeconds?: number | undefined;
  /** Seconds from now to the assertion's `exp`, 1..3600. Default 300. */
  readonly assertionLifetimeSeconds?: number | undefined;
  /** `fetch` used for discovery and token requests, called unbound. Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Limit of one HTTP attempt, headers and body (default 30 000 ms); `false` for none. Same as the client's. */
  readonly timeoutMs?: number | false | undefined;
  /** Token store. Default: a {@link MemoryTokenCache} of this provider. */
  readonly cache?: TokenCache | undefined;
  /** Prefix of the cache keys (useful for a shared store). Default `drill-practice:token:`. */
  readonly cacheKeyPrefix?: string | undefined;
  /** Called when the cache fails; the provider carries on without it. Default: ignore. */
  readonly onCacheError?: ((error: unknown, operation: "get" | "set" | "delete") => void) | undefined;
  /** Local clock. Default: `Date.now()`. */
  readonly clock?: Clock | undefined;
  /**
   * Retry policy of discovery and token requests, or `false` for none: the same
   * options and defaults as the client's (see the client README). The token POST
   * is retried too, each attempt with a fresh assertion.
   */
  readonly retry?: RetryOptions | false | undefined;
}
