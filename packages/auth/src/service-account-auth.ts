/**
 * One call that wires key loading, the token provider and the middleware together,
 * in the shape `createDrillClient({ baseUrl, auth })` of `@drill-practice/client` accepts.
 */

import type { DrillAuthContext, DrillClientAuth } from "@drill-practice/client/internal";
import { DrillInvalidOptionError, inspectCustom } from "@drill-practice/client/internal";
import type { AccessToken } from "./access-token.js";
import {
  isServiceAccountKey,
  parseServiceAccountKey,
  type ServiceAccountKey,
  type ServiceAccountKeyInput,
} from "./key-file.js";
import { type AuthMiddleware, authMiddleware } from "./middleware.js";
import type { TokenProviderOptions } from "./provider-options.js";
import { type ProviderSettings, resolveProviderSettings } from "./provider-settings.js";
import { assertServerRuntime } from "./runtime.js";
import {
  createTokenProvider,
  type GetTokenOptions,
  type ServiceAccountTokenProviderApi,
  type TokenProvider,
} from "./token-provider.js";

/**
 * Options of {@link serviceAccountAuth}: those of `createTokenProvider`, with the key
 * given as key material (the key file's JSON text or parsed object), and `baseUrl`
 * taken from the client when omitted. To name a key file instead, use
 * `serviceAccountAuth` from `@drill-practice/auth/node`.
 *
 * @example
 * ```ts
 * import { type ServiceAccountAuthOptions, serviceAccountAuth } from "@drill-practice/auth";
 *
 * // In a Worker, from its environment bindings.
 * function authFor(env: Record<string, string>) {
 *   const options: ServiceAccountAuthOptions = {
 *     key: env.DRILL_KEY_JSON ?? "",
 *     clientId: env.DRILL_CLIENT_ID ?? "",
 *     clientSecret: env.DRILL_CLIENT_SECRET ?? "",
 *   };
 *   return serviceAccountAuth(options);
 * }
 * ```
 */
export interface ServiceAccountAuthOptions extends Omit<TokenProviderOptions, "key"> {
  /** The key: a parsed `ServiceAccountKey`, or the key file's JSON text, bytes or object. */
  readonly key: ServiceAccountKey | ServiceAccountKeyInput;
}

/**
 * Result of {@link serviceAccountAuth}: pass it as `auth` to `createDrillClient`, or use
 * `getToken` directly (for example to call the API with another HTTP client).
 *
 * @example
 * ```ts
 * import { type ServiceAccountAuth, serviceAccountAuth } from "@drill-practice/auth";
 *
 * const auth: ServiceAccountAuth = serviceAccountAuth({
 *   key: process.env.DRILL_KEY_JSON ?? "",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   baseUrl: "https://drill.example",
 * });
 * await auth.ready(); // fail fast on a bad key
 * const token = await auth.getToken({ subject: "pat@example.com" });
 * ```
 */
export interface ServiceAccountAuth extends DrillClientAuth {
  /** Makes the middleware for a client; called by `createDrillClient` with the client's base URL and fetch. */
  readonly middleware: (context: DrillAuthContext) => AuthMiddleware;
  /** A token from the provider bound to the first client (or to `baseUrl`/`tokenEndpoint` when none yet). */
  getToken(options?: GetTokenOptions): Promise<AccessToken>;
  /** Drops a subject's cached token. */
  invalidate(subject?: string): Promise<void>;
  /** Loads and checks the key now instead of on the first request. */
  ready(): Promise<void>;
}

/**
 * Service-account authentication in one call, with the key given as the key
 * file's JSON text or parsed object (every runtime). To read the key from a file
 * path, use `serviceAccountAuth` from `@drill-practice/auth/node`.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import { serviceAccountAuth } from "@drill-practice/auth";
 *
 * export default {
 *   async fetch(_request: Request, env: Record<string, string>) {
 *     const client = createDrillClient({
 *       baseUrl: env.DRILL_BASE_URL,
 *       auth: serviceAccountAuth({ key: env.DRILL_KEY_JSON, clientId: env.DRILL_CLIENT_ID, clientSecret: env.DRILL_CLIENT_SECRET }),
 *     });
 *     const { data } = await client.GET("/api/2.1/version");
 *     return Response.json(data);
 *   },
 * };
 * ```
 */
export function serviceAccountAuth(options: ServiceAccountAuthOptions): ServiceAccountAuth {
  assertServerRuntime();
  if (typeof options !== "object" || options === null)
    throw new DrillInvalidOptionError("options", "must be an object");
  const { key, keyFile, ...providerOptions } = options as ServiceAccountAuthOptions & { keyFile?: unknown };
  if (keyFile !== undefined) {
    throw new DrillInvalidOptionError(
      "keyFile",
      'reading a key file needs Node: import { serviceAccountAuth } from "@drill-practice/auth/node", ' +
        "or pass the file's JSON text as key",
    );
  }
  if (key === undefined || key === null) {
    throw new DrillInvalidOptionError("key", "required: the service account key file's JSON text or object");
  }
  const load = () => (isServiceAccountKey(key) ? Promise.resolve(key) : parseServiceAccountKey(key));
  return keyedServiceAccountAuth(providerOptions, load, "key given");
}

/**
 * {@link serviceAccountAuth} with the key coming from `load` (called on first use,
 * again after a failure), for the Node entry's `keyFile`.
 */
export function keyedServiceAccountAuth(
  providerOptions: Omit<TokenProviderOptions, "key">,
  load: () => Promise<ServiceAccountKey>,
  label: string,
): ServiceAccountAuth {
  const state: AuthState = {
    providerOptions,
    // Every option is checked now, so a mistake surfaces here rather than on the first API call.
    settings: resolveProviderSettings(providerOptions),
    load,
    key: undefined,
    providers: new Map(),
    firstContext: undefined,
  };
  const auth: ServiceAccountAuth = {
    middleware: (context: DrillAuthContext) => middlewareFor(state, context),
    getToken: (getOptions) => lazyProvider(state, state.firstContext).getToken(getOptions),
    invalidate: (subject) => lazyProvider(state, state.firstContext).invalidate(subject),
    ready: () => ready(state),
  };
  const describe = () => `ServiceAccountAuth(${label})`;
  Object.defineProperties(auth, {
    toString: { value: describe, enumerable: false },
    toJSON: { value: () => describe(), enumerable: false },
    [inspectCustom]: { value: describe, enumerable: false },
  });
  return auth;
}

/** Everything one {@link keyedServiceAccountAuth} holds, passed to the small functions below. */
interface AuthState {
  readonly providerOptions: Omit<TokenProviderOptions, "key">;
  /** The checked options; their `cache` is the one store of every provider made here, so clients with the same settings share tokens. */
  readonly settings: ProviderSettings;
  readonly load: () => Promise<ServiceAccountKey>;
  /** The key, loading or loaded; dropped after a failure so that the next call tries again. */
  key: Promise<ServiceAccountKey> | undefined;
  /**
   * Providers by fetch, then by base URL: two clients with different fetches (their own
   * retries, proxies, test doubles) must each have their requests go through their own.
   */
  readonly providers: Map<
    typeof globalThis.fetch | undefined,
    Map<string, Promise<ServiceAccountTokenProviderApi>>
  >;
  /** The context of the first client given the middleware: `getToken`, `invalidate` and `ready` use it. */
  firstContext: DrillAuthContext | undefined;
}

function loadKey(state: AuthState): Promise<ServiceAccountKey> {
  if (state.key === undefined) {
    const loading = state.load();
    state.key = loading;
    loading.catch(() => {
      if (state.key === loading) state.key = undefined;
    });
  }
  return state.key;
}

function providerFor(
  state: AuthState,
  context: DrillAuthContext | undefined,
): Promise<ServiceAccountTokenProviderApi> {
  const { providerOptions } = state;
  const baseUrl = providerOptions.baseUrl ?? (context?.baseUrl === "" ? undefined : context?.baseUrl);
  const fetchImpl = providerOptions.fetch ?? context?.fetch;
  let group = state.providers.get(fetchImpl);
  if (group === undefined) {
    group = new Map();
    state.providers.set(fetchImpl, group);
  }
  const id = baseUrl ?? "";
  const existing = group.get(id);
  if (existing !== undefined) return existing;
  const cache = state.settings.cache;
  const creating = loadKey(state).then((key) =>
    createTokenProvider({ ...providerOptions, baseUrl, fetch: fetchImpl, cache, key }),
  );
  const providers = group;
  providers.set(id, creating);
  creating.catch(() => {
    if (providers.get(id) === creating) providers.delete(id);
  });
  return creating;
}

/** A provider for `context` that is made on first use, and kept so that a fresh token can be read synchronously. */
function lazyProvider(state: AuthState, context: DrillAuthContext | undefined): TokenProvider {
  const lazy: { made: ServiceAccountTokenProviderApi | undefined } = { made: undefined };
  const provider = async () => {
    lazy.made = await providerFor(state, context);
    return lazy.made;
  };
  return {
    getToken: async (getOptions) => (await provider()).getToken(getOptions),
    invalidate: async (subject) => (await provider()).invalidate(subject),
    peekToken: (subject) => lazy.made?.peekToken(subject),
  };
}

function middlewareFor(state: AuthState, context: DrillAuthContext): AuthMiddleware {
  if (typeof context !== "object" || context === null) {
    throw new DrillInvalidOptionError("middleware context", "must be an object with baseUrl and fetch");
  }
  if (context.fetch !== undefined && typeof context.fetch !== "function") {
    throw new DrillInvalidOptionError("middleware context", "fetch must be a fetch function");
  }
  if (state.settings.baseUrl === undefined && state.settings.tokenEndpoint === undefined) {
    // The client's base URL is the one the provider will use: check it while the client is made.
    if (context.baseUrl === undefined || context.baseUrl === "") {
      throw new DrillInvalidOptionError("baseUrl", "is required unless tokenEndpoint is given");
    }
    resolveProviderSettings({ ...state.providerOptions, baseUrl: context.baseUrl });
  }
  state.firstContext ??= context;
  return authMiddleware(lazyProvider(state, context));
}

async function ready(state: AuthState): Promise<void> {
  await loadKey(state);
  // With a base URL at hand, make the provider too: it checks the key against the options.
  const { settings, firstContext } = state;
  if (settings.baseUrl !== undefined || settings.tokenEndpoint !== undefined || firstContext !== undefined) {
    await providerFor(state, firstContext);
  }
}
