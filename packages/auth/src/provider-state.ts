/**
 * The token provider's one state object, and the small reads of it that every step shares: which
 * subject, which cache key, whether a token is still fresh, a store call that never throws.
 */
import { LRUCache } from "lru-cache";
import type { AccessToken } from "./access-token.js";
import type { AuthHttp } from "./auth-request.js";
import { type Clock, ServerClock } from "./clock.js";
import { nonEmptyString, type ResolvedOptions } from "./provider-settings.js";

/** How many subjects' cache keys and tokens a provider remembers (the least recently used go first). */
const MAX_REMEMBERED_SUBJECTS = 10_000;

/** One exchange that concurrent callers for the same subject share. */
export interface Flight {
  readonly forced: boolean;
  readonly promise: Promise<AccessToken>;
  /** Aborts the exchange once every caller waiting for it has given up. */
  readonly controller: AbortController;
  waiters: number;
}

/** A token seen for a subject, with its cache key and stored text, for `peekToken`. */
export interface HeldToken {
  readonly token: AccessToken;
  readonly key: string;
  readonly stored: string;
}

/** Everything one provider keeps between calls; each concern's functions take it as their first argument. */
export interface ProviderState {
  readonly options: ResolvedOptions;
  readonly serverClock: ServerClock;
  readonly http: AuthHttp;
  /** The exchange under way per subject. */
  readonly flights: Map<string, Flight>;
  readonly held: LRUCache<string, HeldToken>;
  /**
   * Cache keys by subject: the digest is the same every time, and computing it on each
   * `getToken` was a measurable share of a cached call. Bounded, since subjects may be many
   * (one per managed user).
   */
  readonly cacheKeys: LRUCache<string, Promise<string>>;
  /** Set once the store answered `get` with a promise: then there is nothing to peek at. */
  asyncCache: boolean;
  discovery: Promise<string> | undefined;
}

/** A provider's state before its first call. */
export function createProviderState(options: ResolvedOptions, clock: Clock): ProviderState {
  const serverClock = new ServerClock(clock);
  return {
    options,
    serverClock,
    http: { fetch: options.fetch, timeoutMs: options.timeoutMs, retry: options.retry, serverClock },
    flights: new Map(),
    held: new LRUCache({ max: MAX_REMEMBERED_SUBJECTS }),
    cacheKeys: new LRUCache({ max: MAX_REMEMBERED_SUBJECTS }),
    asyncCache: false,
    discovery: undefined,
  };
}

/** The subject a call names, or the provider's own. */
export function subjectOf(state: ProviderState, subject: unknown): string {
  return subject === undefined ? state.options.subject : nonEmptyString("subject", subject);
}

/** Whether a token is still good to hand out: short-lived ones get at most half their lifetime as margin. */
export function isFresh(state: ProviderState, token: AccessToken): boolean {
  const lifetimeMs = token.expiresAt - token.receivedAt;
  const marginMs = Math.min(state.options.refreshMarginSeconds * 1000, lifetimeMs / 2);
  return state.serverClock.localNow() < token.expiresAt - marginMs;
}

/** The store key of a subject's token, computed once per subject. */
export function cacheKey(state: ProviderState, subject: string): Promise<string> {
  let key = state.cacheKeys.get(subject);
  if (key === undefined) {
    key = computeCacheKey(state.options, subject);
    state.cacheKeys.set(subject, key);
  }
  return key;
}

async function computeCacheKey(options: ResolvedOptions, subject: string): Promise<string> {
  const { tokenEndpoint, baseUrl, clientId, key, cacheKeyPrefix } = options;
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

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A store call that reports its failure to `onCacheError` and carries on without it. */
export async function cacheCall<T>(
  state: ProviderState,
  operation: "get" | "set" | "delete",
  call: () => Promise<T> | T,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    state.options.onCacheError?.(error, operation);
    return undefined;
  }
}
