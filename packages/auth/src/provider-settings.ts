/**
 * Checking the provider's options once, up front, so that every later step reads settled values.
 */
import {
  DrillInvalidOptionError,
  type RetryPolicy,
  resolveRetryPolicy,
  validateTimeout,
} from "@drill-practice/client/internal";
import { DEFAULT_ASSERTION_LIFETIME_SECONDS, validateAssertionLifetime } from "./assertion.js";
import { type Clock, systemClock } from "./clock.js";
import { parseHttpUrl } from "./discovery.js";
import { isServiceAccountKey, type ServiceAccountKey } from "./key-file.js";
import {
  DEFAULT_CACHE_KEY_PREFIX,
  DEFAULT_REFRESH_MARGIN_SECONDS,
  type TokenProviderOptions,
} from "./provider-options.js";
import { isTokenCache, MemoryTokenCache, type TokenCache } from "./token-cache.js";

/** The provider options once checked, with every default filled in. */
export interface ResolvedOptions {
  readonly baseUrl: string | undefined;
  readonly tokenEndpoint: string | undefined;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly key: ServiceAccountKey;
  readonly subject: string;
  readonly refreshMarginSeconds: number;
  readonly assertionLifetimeSeconds: number;
  readonly fetch: typeof globalThis.fetch;
  readonly cache: TokenCache;
  readonly cacheKeyPrefix: string;
  readonly onCacheError: TokenProviderOptions["onCacheError"];
  readonly timeoutMs: number | false;
  readonly retry: RetryPolicy | undefined;
}

/** Thrown as the option error callers expect for a missing or blank string option. */
export function nonEmptyString(name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new DrillInvalidOptionError(name, "must be a non-empty string");
  return value;
}

function optionalUrl(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const url = typeof value === "string" ? parseHttpUrl(value) : undefined;
  if (url === undefined)
    throw new DrillInvalidOptionError(name, "must be an absolute http(s) URL without credentials");
  return url;
}

/**
 * The options checked before a key or a base URL is at hand (`serviceAccountAuth`
 * checks them when it is called, long before its first provider is made).
 */
export type ProviderSettings = Omit<ResolvedOptions, "key" | "subject" | "fetch"> & {
  readonly subject: string | undefined;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly clock: Clock;
};

/**
 * Checks every option of {@link createTokenProvider} except `key`, and except that a
 * `baseUrl` or `tokenEndpoint` must be present (`serviceAccountAuth` can take the base
 * URL from the client later). Throws {@link DrillInvalidOptionError} naming the option.
 */
export function resolveProviderSettings(options: Omit<TokenProviderOptions, "key">): ProviderSettings {
  if (typeof options !== "object" || options === null)
    throw new DrillInvalidOptionError("options", "must be an object");
  const clientId = nonEmptyString("clientId", options.clientId);
  const clientSecret = nonEmptyString("clientSecret", options.clientSecret);
  const baseUrl = optionalUrl("baseUrl", options.baseUrl);
  const tokenEndpoint = optionalUrl("tokenEndpoint", options.tokenEndpoint);
  const subject = options.subject === undefined ? undefined : nonEmptyString("subject", options.subject);
  const margin = options.refreshMarginSeconds ?? DEFAULT_REFRESH_MARGIN_SECONDS;
  // Number.isFinite is false for anything but a finite number.
  if (!Number.isFinite(margin) || margin < 0 || margin > 3600) {
    throw new DrillInvalidOptionError("refreshMarginSeconds", "must be a number of seconds from 0 to 3600");
  }
  const lifetime = validateAssertionLifetime(
    options.assertionLifetimeSeconds ?? DEFAULT_ASSERTION_LIFETIME_SECONDS,
  );
  if (options.fetch !== undefined && typeof options.fetch !== "function") {
    throw new DrillInvalidOptionError("fetch", "must be a fetch function");
  }
  const clock = options.clock ?? systemClock;
  if (typeof clock.now !== "function") throw new DrillInvalidOptionError("clock", "must have a now() method");
  // The default store expires entries by the provider's clock, not by Date.now().
  const cache = options.cache ?? new MemoryTokenCache({ clock });
  if (!isTokenCache(cache))
    throw new DrillInvalidOptionError("cache", "must have get, set and delete methods");
  const cacheKeyPrefix = options.cacheKeyPrefix ?? DEFAULT_CACHE_KEY_PREFIX;
  if (typeof cacheKeyPrefix !== "string")
    throw new DrillInvalidOptionError("cacheKeyPrefix", "must be a string");
  if (options.onCacheError !== undefined && typeof options.onCacheError !== "function") {
    throw new DrillInvalidOptionError("onCacheError", "must be a function");
  }
  return {
    baseUrl,
    tokenEndpoint,
    clientId,
    clientSecret,
    subject,
    refreshMarginSeconds: margin,
    assertionLifetimeSeconds: lifetime,
    fetch: options.fetch,
    cache,
    cacheKeyPrefix,
    onCacheError: options.onCacheError,
    timeoutMs: validateTimeout(options.timeoutMs),
    retry: resolveRetryPolicy(options.retry),
    clock,
  };
}

/** Every option checked, the key and a base URL or token endpoint included. */
export function resolveOptions(options: TokenProviderOptions): ResolvedOptions & { clock: Clock } {
  const settings = resolveProviderSettings(options);
  if (!isServiceAccountKey(options.key)) {
    throw new DrillInvalidOptionError(
      "key",
      "must be a ServiceAccountKey from parseServiceAccountKey() or readServiceAccountKey()",
    );
  }
  if (settings.baseUrl === undefined && settings.tokenEndpoint === undefined) {
    throw new DrillInvalidOptionError("baseUrl", "is required unless tokenEndpoint is given");
  }
  const fetchImpl = settings.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new DrillInvalidOptionError("fetch", "must be a fetch function");
  return {
    ...settings,
    key: options.key,
    subject: settings.subject ?? options.key.serviceAccountId,
    fetch: fetchImpl,
  };
}
