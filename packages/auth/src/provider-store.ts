/**
 * Reading and dropping tokens in the provider's store, and the synchronous look at the token a
 * provider last saw (`peekToken`), which the store still has the last word on.
 */
import type { AccessToken } from "./access-token.js";
import { cacheCall, cacheKey, isFresh, type ProviderState, subjectOf } from "./provider-state.js";
import { deserializeToken } from "./token-cache.js";

/** A fresh token for the subject from the store, or `undefined`. */
export async function readFresh(state: ProviderState, subject: string): Promise<AccessToken | undefined> {
  const key = await cacheKey(state, subject);
  const stored = await cacheCall(state, "get", () => state.options.cache.get(key));
  const token = deserializeToken(stored);
  if (token === undefined || token.subject !== subject || !isFresh(state, token)) return undefined;
  hold(state, token, key, stored as string);
  return token;
}

/** Remembers the token last seen for its subject, for {@link peekToken}. */
export function hold(state: ProviderState, token: AccessToken, key: string, stored: string): void {
  state.held.set(token.subject, { token, key, stored });
}

/** The held token of a subject if it is fresh and the store still holds it, synchronously. */
export function peekToken(state: ProviderState, subject: string | undefined): AccessToken | undefined {
  if (state.asyncCache) return undefined;
  const held = state.held.get(subject === undefined ? state.options.subject : subject);
  if (held === undefined || !isFresh(state, held.token)) return undefined;
  // The store decides: a token replaced or dropped there (by another provider
  // sharing it, or after a 401) is not handed out from here.
  let stored: unknown;
  try {
    stored = state.options.cache.get(held.key);
  } catch {
    // A failing store: `stored` stays undefined, which matches no held token.
  }
  if (typeof (stored as Promise<unknown> | undefined)?.then === "function") {
    // An asynchronous store cannot be read synchronously; getToken reads it.
    state.asyncCache = true;
    (stored as Promise<unknown>).then(undefined, () => undefined);
    return undefined;
  }
  return stored === held.stored ? held.token : undefined;
}

/** Drops the subject's token here and in the store. */
export async function invalidate(state: ProviderState, subject: unknown): Promise<void> {
  state.held.delete(subjectOf(state, subject));
  const key = await cacheKey(state, subjectOf(state, subject));
  await cacheCall(state, "delete", () => state.options.cache.delete(key));
}
