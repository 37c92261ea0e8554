/**
 * `getToken`: a fresh token from the store, else one exchange per subject that concurrent callers
 * share, which each caller may leave with its own signal (the last one to leave stops it).
 */
import { DrillInvalidOptionError } from "@drill-practice/client/internal";
import type { AccessToken } from "./access-token.js";
import { TokenRequestAbortedError } from "./errors.js";
import { exchangeOnce } from "./provider-exchange.js";
import { type Flight, type ProviderState, subjectOf } from "./provider-state.js";
import { readFresh } from "./provider-store.js";
import type { GetTokenOptions } from "./token-provider.js";

/** A valid token for the subject, from the store or a new (shared) exchange. */
export async function getToken(state: ProviderState, options: GetTokenOptions = {}): Promise<AccessToken> {
  const subject = subjectOf(state, options?.subject);
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
    const cached = await readFresh(state, subject);
    if (cached !== undefined) return cached;
  }
  if (signal?.aborted) throw new TokenRequestAbortedError(signal.reason);
  return wait(state, subject, join(state, subject, force), signal);
}

function join(state: ProviderState, subject: string, force: boolean): Flight {
  const existing = state.flights.get(subject);
  // A forced refresh may join a flight only if that flight will not answer from the cache.
  if (existing !== undefined && (existing.forced || !force)) {
    existing.waiters++;
    return existing;
  }
  const controller = new AbortController();
  const promise = (async () => {
    if (!force) {
      // Another process (shared cache) or an earlier flight may have stored one meanwhile.
      const cached = await readFresh(state, subject);
      if (cached !== undefined) return cached;
    }
    return exchangeOnce(state, subject, controller.signal, force);
  })();
  const flight: Flight = { forced: force, promise, controller, waiters: 1 };
  state.flights.set(subject, flight);
  const settle = () => {
    if (state.flights.get(subject) === flight) state.flights.delete(subject);
  };
  promise.then(settle, settle);
  return flight;
}

/** One caller's wait for a flight, which it can leave when its signal fires. */
function wait(
  state: ProviderState,
  subject: string,
  flight: Flight,
  signal: AbortSignal | undefined,
): Promise<AccessToken> {
  if (signal === undefined) return flight.promise;
  return new Promise<AccessToken>((resolve, reject) => {
    const leave = () => {
      flight.waiters--;
      if (flight.waiters === 0) {
        // Nobody wants this token any more: stop the exchange, and let the next caller start afresh.
        if (state.flights.get(subject) === flight) state.flights.delete(subject);
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
