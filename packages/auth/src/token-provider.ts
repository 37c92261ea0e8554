/**
 * The token provider: builds and signs assertions, exchanges them, caches the tokens
 * per subject, refreshes them shortly before they run out, and makes concurrent
 * callers share one exchange.
 */

import {
  DrillInvalidOptionError,
  inspectCustom,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  validateTimeout,
} from "@drill-practice/client/internal";
import { AccessToken } from "./access-token.js";
import { DEFAULT_ASSERTION_LIFETIME_SECONDS, signAssertion, validateAssertionLifetime } from "./assertion.js";
import type { AuthHttp } from "./auth-request.js";
import { type Clock, ServerClock, systemClock } from "./clock.js";
import { discoverTokenEndpoint, parseHttpUrl } from "./discovery.js";
import { TokenExchangeError, TokenRequestAbortedError } from "./errors.js";
import { isServiceAccountKey, type ServiceAccountKey } from "./key-file.js";
import { assertServerRuntime } from "./runtime.js";
import {
  deserializeToken,
  isTokenCache,
  MemoryTokenCache,
  serializeToken,
  type TokenCache,
} from "./token-cache.js";
import { exchangeAssertion } from "./token-exchange.js";

/**
 * Default `refreshMarginSeconds`: 60. Expiry is measured on the local clock from the
 * arrival of the token response, so clock skew does not eat into the margin; what it
 * must cover is the time between handing out a token and the service checking it,
 * including the API client's own retries and backoff (tens of seconds in the worst
 * case). One minute covers that while costing under 2 % of a typical 3599 s token.
 */
export const DEFAULT_REFRESH_MARGIN_SECONDS = 60;

/** How many subjects' cache keys a provider remembers before it starts over. */
const MAX_REMEMBERED_CACHE_KEYS = 10_000;

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

/**
 * Options of {@link TokenProvider.getToken}.
 *
 * @example
 * ```ts
 * import { createTokenProvider, type GetTokenOptions, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * // A new token for a managed user, whatever the cache holds.
 * const options: GetTokenOptions = { subject: "user@example.com", forceRefresh: true };
 * const token = await provider.getToken(options);
 * ```
 */
export interface GetTokenOptions {
  /** Whom the token is for; defaults to the provider's subject. */
  readonly subject?: string | undefined;
  /** Ignore the cache and exchange a new assertion. */
  readonly forceRefresh?: boolean | undefined;
  /**
   * Stops waiting when it fires: `getToken` rejects with `TokenRequestAbortedError`
   * (`name` `"AbortError"`). An exchange shared with other callers goes on for them;
   * once no caller waits for it any more it is aborted, retry waits included, and
   * nothing is cached.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Hands out access tokens. {@link createTokenProvider} makes one; anything with these
 * two methods can drive {@link authMiddleware}.
 *
 * @example
 * ```ts
 * import type { TokenProvider } from "@drill-practice/auth";
 *
 * // Code that needs tokens takes the interface, so tests can pass their own provider.
 * async function callService(provider: TokenProvider): Promise<Response> {
 *   const token = await provider.getToken();
 *   const res = await fetch("https://drill.example/api/2.1/version", {
 *     headers: { authorization: `Bearer ${token.value}` },
 *   });
 *   if (res.status === 401) await provider.invalidate(); // the service rejected the token
 *   return res;
 * }
 * ```
 */
export interface TokenProvider {
  /** A valid token for the subject, from the cache or a new exchange. */
  getToken(options?: GetTokenOptions): Promise<AccessToken>;
  /**
   * A fresh token this provider already holds for the subject, synchronously, or
   * `undefined` (then call `getToken`). Optional: the middleware uses it to skip a
   * promise per request.
   */
  peekToken?(subject?: string): AccessToken | undefined;
  /** Drops the cached token of a subject (default: the provider's subject). */
  invalidate(subject?: string): Promise<void>;
}

interface Flight {
  readonly forced: boolean;
  readonly promise: Promise<AccessToken>;
  /** Aborts the exchange once every caller waiting for it has given up. */
  readonly controller: AbortController;
  waiters: number;
}

interface ResolvedOptions {
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

function nonEmptyString(name: string, value: unknown): string {
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
 *
 * @example
 * ```ts
 * import { type ProviderSettings, resolveProviderSettings } from "./token-provider.js";
 *
 * const clientId = process.env.DRILL_CLIENT_ID ?? "";
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const baseUrl = "https://drill.example";
 * const settings: ProviderSettings = resolveProviderSettings({ baseUrl, clientId, clientSecret });
 * ```
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
 *
 * @example
 * ```ts
 * import { resolveProviderSettings } from "./token-provider.js";
 *
 * const clientId = process.env.DRILL_CLIENT_ID ?? "";
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const baseUrl = "https://drill.example";
 * resolveProviderSettings({ baseUrl, clientId, clientSecret, retry: { maxAttempts: 0 } });
 * // throws DrillInvalidOptionError: Invalid option retry.maxAttempts: expected an integer from 1 to 10
 * ```
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

function resolveOptions(options: TokenProviderOptions): ResolvedOptions & { clock: Clock } {
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

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

class ServiceAccountTokenProvider implements TokenProvider {
  readonly #options: ResolvedOptions;
  readonly #serverClock: ServerClock;
  readonly #http: AuthHttp;
  readonly #flights = new Map<string, Flight>();
  /** The last token seen per subject with its cache key and stored text, for {@link peekToken}. */
  readonly #held = new Map<string, { token: AccessToken; key: string; stored: string }>();
  /** Set once the store answered `get` with a promise: then there is nothing to peek at. */
  #asyncCache = false;
  #discovery: Promise<string> | undefined;

  constructor(options: ResolvedOptions, clock: Clock) {
    this.#options = options;
    this.#serverClock = new ServerClock(clock);
    this.#http = {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      serverClock: this.#serverClock,
    };
  }

  async getToken(options: GetTokenOptions = {}): Promise<AccessToken> {
    const subject = this.#subject(options?.subject);
    const force = options?.forceRefresh === true;
    const signal = options?.signal;
    if (
      signal !== undefined &&
      (typeof signal !== "object" ||
        signal === null ||
        typeof signal.aborted !== "boolean" ||
        typeof signal.addEventListener !== "function")
    ) {
      throw new DrillInvalidOptionError("signal", "must be an AbortSignal");
    }
    if (signal?.aborted) throw new TokenRequestAbortedError(signal.reason);
    if (!force) {
      const cached = await this.#readFresh(subject);
      if (cached !== undefined) return cached;
    }
    if (signal?.aborted) throw new TokenRequestAbortedError(signal.reason);
    return this.#wait(subject, this.#join(subject, force), signal);
  }

  peekToken(subject?: string): AccessToken | undefined {
    if (this.#asyncCache) return undefined;
    const held = this.#held.get(subject === undefined ? this.#options.subject : subject);
    if (held === undefined || !this.#isFresh(held.token)) return undefined;
    // The store decides: a token replaced or dropped there (by another provider
    // sharing it, or after a 401) is not handed out from here.
    let stored: unknown;
    try {
      stored = this.#options.cache.get(held.key);
    } catch {
      // A failing store: `stored` stays undefined, which matches no held token.
    }
    if (typeof (stored as Promise<unknown> | undefined)?.then === "function") {
      // An asynchronous store cannot be read synchronously; getToken reads it.
      this.#asyncCache = true;
      (stored as Promise<unknown>).then(undefined, () => undefined);
      return undefined;
    }
    return stored === held.stored ? held.token : undefined;
  }

  async invalidate(subject?: string): Promise<void> {
    this.#held.delete(this.#subject(subject));
    const key = await this.#cacheKey(this.#subject(subject));
    await this.#cacheCall("delete", () => this.#options.cache.delete(key));
  }

  /** The token endpoint in use (given, or discovered and cached). */
  tokenEndpoint(): Promise<string> {
    const { tokenEndpoint, baseUrl } = this.#options;
    if (tokenEndpoint !== undefined) return Promise.resolve(tokenEndpoint);
    if (this.#discovery === undefined) {
      const discovery = discoverTokenEndpoint(baseUrl as string, this.#http);
      this.#discovery = discovery;
      // A failed discovery is not remembered: the next call tries again.
      discovery.catch(() => {
        if (this.#discovery === discovery) this.#discovery = undefined;
      });
    }
    return this.#discovery;
  }

  #subject(subject: unknown): string {
    return subject === undefined ? this.#options.subject : nonEmptyString("subject", subject);
  }

  #join(subject: string, force: boolean): Flight {
    const existing = this.#flights.get(subject);
    // A forced refresh may join a flight only if that flight will not answer from the cache.
    if (existing !== undefined && (existing.forced || !force)) {
      existing.waiters++;
      return existing;
    }
    const controller = new AbortController();
    const promise = (async () => {
      if (!force) {
        // Another process (shared cache) or an earlier flight may have stored one meanwhile.
        const cached = await this.#readFresh(subject);
        if (cached !== undefined) return cached;
      }
      return this.#exchangeOnce(subject, controller.signal, force);
    })();
    const flight: Flight = { forced: force, promise, controller, waiters: 1 };
    this.#flights.set(subject, flight);
    const settle = () => {
      if (this.#flights.get(subject) === flight) this.#flights.delete(subject);
    };
    promise.then(settle, settle);
    return flight;
  }

  /** One caller's wait for a flight, which it can leave when its signal fires. */
  #wait(subject: string, flight: Flight, signal: AbortSignal | undefined): Promise<AccessToken> {
    if (signal === undefined) return flight.promise;
    return new Promise<AccessToken>((resolve, reject) => {
      const leave = () => {
        flight.waiters--;
        if (flight.waiters === 0) {
          // Nobody wants this token any more: stop the exchange, and let the next caller start afresh.
          if (this.#flights.get(subject) === flight) this.#flights.delete(subject);
          flight.controller.abort(signal.reason);
        }
        reject(new TokenRequestAbortedError(signal.reason));
      };
      signal.addEventListener("abort", leave, { once: true });
      flight.promise.then(
        (token) => {
          signal.removeEventListener("abort", leave);
          resolve(token);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", leave);
          reject(error);
        },
      );
    });
  }

  /** A store shared by several processes may let only one of them exchange (see `TokenCache.coordinate`). */
  async #exchangeOnce(subject: string, signal: AbortSignal, force: boolean): Promise<AccessToken> {
    const { cache } = this.#options;
    if (force || cache.coordinate === undefined) return this.#exchange(subject, signal);
    const key = await this.#cacheKey(subject);
    return cache.coordinate(key, {
      lookup: () => this.#readFresh(subject),
      refresh: () => this.#exchange(subject, signal),
      signal,
    });
  }

  async #exchange(subject: string, signal: AbortSignal): Promise<AccessToken> {
    const options = this.#options;
    const endpoint = await this.tokenEndpoint();
    if (signal.aborted) throw new TokenRequestAbortedError(signal.reason);
    let result: Awaited<ReturnType<typeof exchangeAssertion>>;
    try {
      result = await exchangeAssertion({
        endpoint,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        http: this.#http,
        signal,
        createAssertion: () =>
          signAssertion({
            key: options.key,
            subject,
            audience: endpoint,
            now: this.#serverClock.now(),
            lifetimeSeconds: options.assertionLifetimeSeconds,
          }),
      });
    } catch (error) {
      // The endpoint may have moved; the metadata document is the place that says so.
      if (error instanceof TokenExchangeError && (error.status === 404 || error.status === 410)) {
        this.#discovery = undefined;
      }
      throw error;
    }
    // Every caller has gone: the token is not stored.
    if (signal.aborted) throw new TokenRequestAbortedError(signal.reason);
    const token = new AccessToken({ response: result.response, subject, receivedAt: result.receivedAt });
    const ttl = Math.max(1, token.secondsLeft(this.#serverClock.localNow()));
    const key = await this.#cacheKey(subject);
    const stored = serializeToken(token);
    await this.#cacheCall("set", () => options.cache.set(key, stored, ttl));
    this.#hold(token, key, stored);
    return token;
  }

  async #readFresh(subject: string): Promise<AccessToken | undefined> {
    const key = await this.#cacheKey(subject);
    const stored = await this.#cacheCall("get", () => this.#options.cache.get(key));
    const token = deserializeToken(stored);
    if (token === undefined || token.subject !== subject || !this.#isFresh(token)) return undefined;
    this.#hold(token, key, stored as string);
    return token;
  }

  #hold(token: AccessToken, key: string, stored: string): void {
    if (this.#held.size >= MAX_REMEMBERED_CACHE_KEYS) this.#held.clear();
    this.#held.set(token.subject, { token, key, stored });
  }

  #isFresh(token: AccessToken): boolean {
    // Short-lived tokens get at most half their lifetime as margin, so they are still reused.
    const lifetimeMs = token.expiresAt - token.receivedAt;
    const marginMs = Math.min(this.#options.refreshMarginSeconds * 1000, lifetimeMs / 2);
    return this.#serverClock.localNow() < token.expiresAt - marginMs;
  }

  /**
   * Cache keys by subject: the digest is the same every time, and computing it
   * on each `getToken` was a measurable share of a cached call. Bounded, since
   * subjects may be many (one per managed user).
   */
  readonly #cacheKeys = new Map<string, Promise<string>>();

  #cacheKey(subject: string): Promise<string> {
    let key = this.#cacheKeys.get(subject);
    if (key === undefined) {
      if (this.#cacheKeys.size >= MAX_REMEMBERED_CACHE_KEYS) this.#cacheKeys.clear();
      key = this.#computeCacheKey(subject);
      this.#cacheKeys.set(subject, key);
    }
    return key;
  }

  async #computeCacheKey(subject: string): Promise<string> {
    const { tokenEndpoint, baseUrl, clientId, key, cacheKeyPrefix } = this.#options;
    // Hashed, so a shared store holds neither email addresses nor client IDs in clear.
    const identity = JSON.stringify([
      tokenEndpoint ?? baseUrl,
      clientId,
      key.serviceAccountId,
      key.keyId,
      subject,
    ]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(identity));
    return `${cacheKeyPrefix}${hex(digest)}`;
  }

  async #cacheCall<T>(
    operation: "get" | "set" | "delete",
    call: () => Promise<T> | T,
  ): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      this.#options.onCacheError?.(error, operation);
      return undefined;
    }
  }

  toJSON(): { serviceAccountId: string; keyId: string; subject: string } {
    const { key, subject } = this.#options;
    return { serviceAccountId: key.serviceAccountId, keyId: key.keyId, subject };
  }

  toString(): string {
    const { key, subject } = this.#options;
    return `TokenProvider(serviceAccountId=${key.serviceAccountId}, keyId=${key.keyId}, subject=${subject})`;
  }

  [inspectCustom](): string {
    return this.toString();
  }
}

/**
 * A {@link TokenProvider} made by {@link createTokenProvider}, which can also report its token endpoint.
 *
 * @example
 * ```ts
 * import { createTokenProvider, type ServiceAccountTokenProviderApi, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider: ServiceAccountTokenProviderApi = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * console.log(await provider.tokenEndpoint()); // from discovery, e.g. https://drill.example/daas/oauth/token
 * ```
 */
export interface ServiceAccountTokenProviderApi extends TokenProvider {
  /** The token endpoint in use: `tokenEndpoint`, or the discovered one (cached after the first success). */
  tokenEndpoint(): Promise<string>;
  /** A fresh token this provider holds for the subject, synchronously, or `undefined`. */
  peekToken(subject?: string): AccessToken | undefined;
}

/**
 * Creates a token provider for a service account.
 *
 * @example
 * ```ts
 * import { createTokenProvider } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await readServiceAccountKey("./service-account.json"),
 * });
 * const token = await provider.getToken(); // for the service account
 * const userToken = await provider.getToken({ subject: "pat@example.com" }); // for a managed user
 * ```
 */
export function createTokenProvider(options: TokenProviderOptions): ServiceAccountTokenProviderApi {
  assertServerRuntime();
  const resolved = resolveOptions(options);
  return new ServiceAccountTokenProvider(resolved, resolved.clock);
}
