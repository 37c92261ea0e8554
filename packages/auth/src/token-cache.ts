/**
 * Storage of issued tokens, one entry per subject.
 *
 * The provider stores an opaque string per key with a time-to-live; that makes a
 * shared store (Redis, Memcached, a database row) trivial to plug in, so several
 * processes can reuse one token instead of each exchanging its own.
 */
import type { AccessTokenResponse } from "@drill-practice/client/internal";
import { DrillInvalidOptionError, inspectCustom } from "@drill-practice/client/internal";
import { LRUCache } from "lru-cache";
import { AccessToken } from "./access-token.js";
import { type Clock, systemClock } from "./clock.js";

/**
 * Where tokens are kept. Values are opaque strings that contain the access token:
 * a shared store must be as private as the token itself. Methods may be sync or async.
 * `@drill-practice/auth/redis` is a ready-made shared store that seals its values and
 * lets only one process exchange at a time; the sketch below shares but does neither.
 *
 * @example
 * ```ts
 * import { createTokenProvider, parseServiceAccountKey, type TokenCache } from "@drill-practice/auth";
 *
 * // A cache over any key-value store with expiry; here a Map standing in for one.
 * const store = new Map<string, { value: string; expires: number }>();
 * const cache: TokenCache = {
 *   get: (key) => {
 *     const entry = store.get(key);
 *     return entry && entry.expires > Date.now() ? entry.value : undefined;
 *   },
 *   set: (key, value, ttlSeconds) => {
 *     store.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
 *   },
 *   delete: (key) => {
 *     store.delete(key);
 *   },
 * };
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 *   cache,
 * });
 * ```
 */
export interface TokenCache {
  /** The stored value, or `undefined` when there is none (or it has expired). */
  get(key: string): Promise<string | undefined> | string | undefined;
  /** Stores a value; it may be dropped after `ttlSeconds` (a whole number ≥ 1). */
  set(key: string, value: string, ttlSeconds: number): Promise<void> | void;
  /** Removes a value; removing a missing key is not an error. */
  delete(key: string): Promise<void> | void;
  /**
   * Optional single flight across processes that share the store. The provider calls
   * it instead of exchanging when the token of `key` is missing or due for refresh:
   * the store lets one process run `work.refresh()` (which exchanges and `set`s the
   * token) while the others wait and return `work.lookup()` once it finds a token.
   * A store that implements it must never fail because of its own backend: when in
   * doubt it runs `work.refresh()` itself.
   */
  coordinate?<T>(key: string, work: TokenCacheCoordination<T>): Promise<T>;
}

/**
 * What the provider hands to {@link TokenCache.coordinate}.
 *
 * @example
 * ```ts
 * import type { TokenCache, TokenCacheCoordination } from "@drill-practice/auth";
 *
 * // A cache that coordinates only within this process: one refresh per key at a time.
 * const running = new Map<string, Promise<unknown>>();
 * async function coordinate<T>(key: string, work: TokenCacheCoordination<T>): Promise<T> {
 *   const found = await work.lookup();
 *   if (found !== undefined) return found;
 *   const flight = running.get(key) ?? work.refresh().finally(() => running.delete(key));
 *   running.set(key, flight);
 *   return flight as Promise<T>;
 * }
 * const values = new Map<string, string>();
 * const cache: TokenCache = {
 *   get: (key) => values.get(key),
 *   set: (key, value) => void values.set(key, value),
 *   delete: (key) => void values.delete(key),
 *   coordinate,
 * };
 * ```
 */
export interface TokenCacheCoordination<T> {
  /** A usable stored token (present and not due for refresh), or `undefined`. */
  lookup(): Promise<T | undefined>;
  /** Exchanges a new token and stores it with `set`. */
  refresh(): Promise<T>;
  /** Fires when no caller waits any more. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Options of {@link MemoryTokenCache}.
 *
 * @example
 * ```ts
 * import { MemoryTokenCache, type MemoryTokenCacheOptions } from "@drill-practice/auth";
 *
 * // In a test: entries expire by a clock the test controls.
 * let now = Date.parse("2030-01-01T00:00:00Z");
 * const options: MemoryTokenCacheOptions = { clock: { now: () => now }, maxEntries: 10 };
 * const cache = new MemoryTokenCache(options);
 * now += 3_600_000; // an hour later, stored tokens have expired
 * ```
 */
export interface MemoryTokenCacheOptions {
  /** Clock that entries expire by. Default `Date.now()`; a provider's own default cache uses the provider's clock. */
  readonly clock?: Clock | undefined;
  /**
   * Most entries kept (one per subject); the least recently used goes first when a new
   * one would exceed it. Default {@link DEFAULT_MEMORY_CACHE_ENTRIES}.
   */
  readonly maxEntries?: number | undefined;
}

/**
 * Default `maxEntries` of {@link MemoryTokenCache}: 1000 subjects. An entry is one
 * token response (about 1–2 KB), so the default bounds the cache near 2 MB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MEMORY_CACHE_ENTRIES, MemoryTokenCache } from "@drill-practice/auth";
 *
 * // One process acting for many users: keep ten times as many tokens as by default.
 * const cache = new MemoryTokenCache({ maxEntries: DEFAULT_MEMORY_CACHE_ENTRIES * 10 });
 * ```
 */
export const DEFAULT_MEMORY_CACHE_ENTRIES = 1000;

/**
 * The default cache: a least-recently-used cache in this process (`lru-cache`),
 * bounded to `maxEntries` entries (default 1000), with expiry checked on read by the
 * given clock. Its contents are not visible through `util.inspect` or `JSON.stringify`.
 *
 * @example
 * ```ts
 * import { createTokenProvider, MemoryTokenCache, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const cache = new MemoryTokenCache();
 * const common = {
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   cache,
 * };
 * const a = createTokenProvider({ ...common, key: await parseServiceAccountKey(process.env.DRILL_KEY_A ?? "") });
 * const b = createTokenProvider({ ...common, key: await parseServiceAccountKey(process.env.DRILL_KEY_B ?? "") }); // separate keys, one store
 * ```
 */
export class MemoryTokenCache implements TokenCache {
  readonly #entries: LRUCache<string, { value: string; expiresAt: number }>;
  readonly #clock: Clock;

  constructor(options: MemoryTokenCacheOptions = {}) {
    if (typeof options !== "object" || options === null)
      throw new DrillInvalidOptionError("options", "must be an object");
    const clock = options.clock ?? systemClock;
    if (typeof clock?.now !== "function")
      throw new DrillInvalidOptionError("clock", "must have a now() method");
    const max = options.maxEntries ?? DEFAULT_MEMORY_CACHE_ENTRIES;
    if (typeof max !== "number" || !Number.isInteger(max) || max < 1) {
      throw new DrillInvalidOptionError("maxEntries", "must be a whole number ≥ 1");
    }
    this.#clock = clock;
    // Expiry is kept with each value and checked by the provider's clock, so that
    // lru-cache needs no timers of its own.
    this.#entries = new LRUCache({ max });
  }

  get(key: string): string | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#clock.now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: string, ttlSeconds: number): void {
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + ttlSeconds * 1000 });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Number of stored entries, expired ones included until they are read. */
  get size(): number {
    return this.#entries.size;
  }

  toJSON(): { size: number } {
    return { size: this.#entries.size };
  }

  toString(): string {
    return `MemoryTokenCache(size=${this.#entries.size})`;
  }

  [inspectCustom](): string {
    return this.toString();
  }
}

/**
 * Checks that a value has the three cache methods.
 */
export function isTokenCache(value: unknown): value is TokenCache {
  if (typeof value !== "object" || value === null) return false;
  const cache = value as Record<string, unknown>;
  return (
    typeof cache.get === "function" && typeof cache.set === "function" && typeof cache.delete === "function"
  );
}

const RECORD_VERSION = 1;

interface StoredToken {
  readonly v: typeof RECORD_VERSION;
  readonly subject: string;
  readonly receivedAt: number;
  readonly response: AccessTokenResponse;
}

/**
 * Turns a token into the string that is stored in a {@link TokenCache}.
 */
export function serializeToken(token: AccessToken): string {
  const record: StoredToken = {
    v: RECORD_VERSION,
    subject: token.subject,
    receivedAt: token.receivedAt,
    response: token.toResponse(),
  };
  return JSON.stringify(record);
}

/**
 * Reads a stored string back; anything unreadable (another version, a corrupt entry)
 * gives `undefined`, which the provider treats as a cache miss.
 */
export function deserializeToken(value: unknown): AccessToken | undefined {
  if (typeof value !== "string") return undefined;
  let record: unknown;
  try {
    record = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof record !== "object" || record === null) return undefined;
  const { v, subject, receivedAt, response } = record as Record<string, unknown>;
  if (v !== RECORD_VERSION || typeof subject !== "string" || typeof receivedAt !== "number") return undefined;
  if (typeof response !== "object" || response === null) return undefined;
  const fields = response as Record<string, unknown>;
  if (typeof fields.access_token !== "string" || fields.access_token === "") return undefined;
  if (typeof fields.expires_in !== "number" || !Number.isFinite(fields.expires_in)) return undefined;
  return new AccessToken({ response: response as AccessTokenResponse, subject, receivedAt });
}
