/**
 * The token provider: builds and signs assertions, exchanges them, caches the tokens
 * per subject, refreshes them shortly before they run out, and makes concurrent
 * callers share one exchange. Each concern has its file (`provider-*.ts`); they all
 * work on one explicit state object, which this file's class only holds.
 */

import { inspectCustom } from "@drill-practice/client/internal";
import type { AccessToken } from "./access-token.js";
import { tokenEndpoint } from "./provider-exchange.js";
import { getToken } from "./provider-flights.js";
import type { TokenProviderOptions } from "./provider-options.js";
import { resolveOptions } from "./provider-settings.js";
import { createProviderState, type ProviderState } from "./provider-state.js";
import { invalidate, peekToken } from "./provider-store.js";
import { assertServerRuntime } from "./runtime.js";

export type { TokenProviderOptions } from "./provider-options.js";

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

/** Only holds the state: every method is one of the concern files' functions. */
class ServiceAccountTokenProvider implements TokenProvider {
  readonly #state: ProviderState;

  constructor(state: ProviderState) {
    this.#state = state;
  }

  getToken(options?: GetTokenOptions): Promise<AccessToken> {
    return getToken(this.#state, options);
  }

  peekToken(subject?: string): AccessToken | undefined {
    return peekToken(this.#state, subject);
  }

  invalidate(subject?: string): Promise<void> {
    return invalidate(this.#state, subject);
  }

  /** The token endpoint in use (given, or discovered and cached). */
  tokenEndpoint(): Promise<string> {
    return tokenEndpoint(this.#state);
  }

  toJSON(): { serviceAccountId: string; keyId: string; subject: string } {
    const { key, subject } = this.#state.options;
    return { serviceAccountId: key.serviceAccountId, keyId: key.keyId, subject };
  }

  toString(): string {
    const { key, subject } = this.#state.options;
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
  return new ServiceAccountTokenProvider(createProviderState(resolved, resolved.clock));
}
