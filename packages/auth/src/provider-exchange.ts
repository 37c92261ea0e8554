/**
 * Getting a new token: the token endpoint (given, or discovered once and remembered), one signed
 * assertion per attempt, the exchange, and the token stored for the next caller.
 */
import { AccessToken } from "./access-token.js";
import { signAssertion } from "./assertion.js";
import { discoverTokenEndpoint } from "./discovery.js";
import { TokenExchangeError, TokenRequestAbortedError } from "./errors.js";
import { cacheCall, cacheKey, type ProviderState } from "./provider-state.js";
import { hold, readFresh } from "./provider-store.js";
import { serializeToken } from "./token-cache.js";
import { exchangeAssertion } from "./token-exchange.js";

/** The token endpoint in use (given, or discovered and remembered until it fails). */
export function tokenEndpoint(state: ProviderState): Promise<string> {
  const { tokenEndpoint: given, baseUrl } = state.options;
  if (given !== undefined) return Promise.resolve(given);
  if (state.discovery === undefined) {
    const discovery = discoverTokenEndpoint(baseUrl as string, state.http);
    state.discovery = discovery;
    // A failed discovery is not remembered: the next call tries again.
    discovery.catch(() => {
      if (state.discovery === discovery) state.discovery = undefined;
    });
  }
  return state.discovery;
}

/** A store shared by several processes may let only one of them exchange (see `TokenCache.coordinate`). */
export async function exchangeOnce(
  state: ProviderState,
  subject: string,
  signal: AbortSignal,
  force: boolean,
): Promise<AccessToken> {
  const { cache } = state.options;
  if (force || cache.coordinate === undefined) return exchange(state, subject, signal);
  const key = await cacheKey(state, subject);
  return cache.coordinate(key, {
    lookup: () => readFresh(state, subject),
    refresh: () => exchange(state, subject, signal),
    signal,
  });
}

async function exchange(state: ProviderState, subject: string, signal: AbortSignal): Promise<AccessToken> {
  const { options, serverClock } = state;
  const endpoint = await tokenEndpoint(state);
  if (signal.aborted) throw new TokenRequestAbortedError(signal.reason);
  let result: Awaited<ReturnType<typeof exchangeAssertion>>;
  try {
    result = await exchangeAssertion({
      endpoint,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      http: state.http,
      signal,
      createAssertion: () =>
        signAssertion({
          key: options.key,
          subject,
          audience: endpoint,
          now: serverClock.now(),
          lifetimeSeconds: options.assertionLifetimeSeconds,
        }),
    });
  } catch (error) {
    // The endpoint may have moved; the metadata document is the place that says so.
    if (error instanceof TokenExchangeError && (error.status === 404 || error.status === 410)) {
      state.discovery = undefined;
    }
    throw error;
  }
  // Every caller has gone: the token is not stored.
  if (signal.aborted) throw new TokenRequestAbortedError(signal.reason);
  const token = new AccessToken({ response: result.response, subject, receivedAt: result.receivedAt });
  const ttl = Math.max(1, token.secondsLeft(serverClock.localNow()));
  const key = await cacheKey(state, subject);
  const stored = serializeToken(token);
  await cacheCall(state, "set", () => options.cache.set(key, stored, ttl));
  hold(state, token, key, stored);
  return token;
}
