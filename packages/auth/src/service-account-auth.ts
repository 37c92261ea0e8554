/**
 * One call that wires key loading, the token provider and the middleware together,
 * in the shape `createDrillClient({ baseUrl, auth })` of `@drill-practice/client` accepts.
 */
import type { Middleware } from "openapi-fetch";
import type { AccessToken } from "./access-token.js";
import { OptionsError } from "./errors.js";
import {
  isServiceAccountKey,
  parseServiceAccountKey,
  type ServiceAccountKey,
  type ServiceAccountKeyInput,
} from "./key-file.js";
import { type AuthMiddleware, authMiddleware } from "./middleware.js";
import { inspectCustom } from "./redact.js";
import { assertServerRuntime } from "./runtime.js";
import {
  createTokenProvider,
  type GetTokenOptions,
  resolveProviderSettings,
  type ServiceAccountTokenProviderApi,
  type TokenProvider,
  type TokenProviderOptions,
} from "./token-provider.js";

/**
 * What the API client hands to `auth.middleware` when it is a function: its base URL
 * and its `fetch` (the one wrapped with its retries and timeouts).
 *
 * @example
 * ```ts
 * const middleware = auth.middleware({ baseUrl: "https://drill.example", fetch: globalThis.fetch });
 * ```
 */
export interface DrillAuthContext {
  readonly baseUrl: string;
  readonly fetch: typeof globalThis.fetch;
}

/**
 * The `auth` option of `createDrillClient` (the client package exports the same
 * structural type as `DrillClientAuth`): a middleware, or a function the client calls
 * once with its base URL and fetch to make one.
 *
 * @example
 * ```ts
 * const auth: DrillAuth = serviceAccountAuth({ keyFile: "./sa.json", clientId, clientSecret });
 * const client = createDrillClient({ baseUrl: "https://drill.example", auth });
 * ```
 */
export interface DrillAuth {
  readonly middleware: Middleware | ((context: DrillAuthContext) => Middleware);
}

/**
 * Options of {@link serviceAccountAuth}: those of `createTokenProvider`, with the key
 * given as a file path or as key material, and `baseUrl` taken from the client when omitted.
 *
 * @example
 * ```ts
 * const options: ServiceAccountAuthOptions = {
 *   keyFile: process.env.DRILL_KEY_FILE,
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 * };
 * ```
 */
export interface ServiceAccountAuthOptions extends Omit<TokenProviderOptions, "key"> {
  /** Path of the JSON key file (read on first use; Node only). Give this or `key`. */
  readonly keyFile?: string | undefined;
  /** The key: a parsed `ServiceAccountKey`, or the key file's JSON text, bytes or object. Give this or `keyFile`. */
  readonly key?: ServiceAccountKey | ServiceAccountKeyInput | undefined;
}

/**
 * Result of {@link serviceAccountAuth}: pass it as `auth` to `createDrillClient`, or use
 * `getToken` directly (for example to call the API with another HTTP client).
 *
 * @example
 * ```ts
 * const auth = serviceAccountAuth({ keyFile: "./sa.json", clientId, clientSecret, baseUrl });
 * await auth.ready(); // fail fast on a bad key file
 * const token = await auth.getToken({ subject: "pat@example.com" });
 * ```
 */
export interface ServiceAccountAuth extends DrillAuth {
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
 * Service-account authentication in one call.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import { serviceAccountAuth } from "@drill-practice/auth";
 *
 * const client = createDrillClient({
 *   baseUrl: "https://drill.example",
 *   auth: serviceAccountAuth({
 *     keyFile: "./service-account.json",
 *     clientId: process.env.DRILL_CLIENT_ID ?? "",
 *     clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   }),
 * });
 * ```
 */
export function serviceAccountAuth(options: ServiceAccountAuthOptions): ServiceAccountAuth {
  assertServerRuntime();
  if (typeof options !== "object" || options === null) throw new OptionsError("options", "must be an object");
  const { keyFile, key, ...providerOptions } = options;
  if ((keyFile === undefined) === (key === undefined)) {
    throw new OptionsError("keyFile", "give exactly one of keyFile (a path) or key (the key material)");
  }
  if (keyFile !== undefined && (typeof keyFile !== "string" || keyFile.trim() === "")) {
    throw new OptionsError("keyFile", "must be a non-empty path");
  }
  // Every option is checked now, so a mistake surfaces here rather than on the first API call.
  const settings = resolveProviderSettings(providerOptions);
  // One store for every provider made here, so clients with the same settings share tokens.
  const cache = settings.cache;

  let keyPromise: Promise<ServiceAccountKey> | undefined;
  const loadKey = (): Promise<ServiceAccountKey> => {
    if (keyPromise === undefined) {
      const loading = (async () => {
        if (isServiceAccountKey(key)) return key;
        if (key !== undefined) return parseServiceAccountKey(key);
        // Loaded on demand so that this module stays free of Node built-ins.
        const { readServiceAccountKey } = await import("./read-key-file.js");
        return readServiceAccountKey(keyFile as string);
      })();
      keyPromise = loading;
      loading.catch(() => {
        if (keyPromise === loading) keyPromise = undefined;
      });
    }
    return keyPromise;
  };

  // Providers by fetch, then by base URL: two clients with different fetches (their own
  // retries, proxies, test doubles) must each have their requests go through their own.
  const providers = new Map<
    typeof globalThis.fetch | undefined,
    Map<string, Promise<ServiceAccountTokenProviderApi>>
  >();
  let firstContext: DrillAuthContext | undefined;
  const providerFor = (context: DrillAuthContext | undefined): Promise<ServiceAccountTokenProviderApi> => {
    const baseUrl = providerOptions.baseUrl ?? (context?.baseUrl === "" ? undefined : context?.baseUrl);
    const fetchImpl = providerOptions.fetch ?? context?.fetch;
    let byBaseUrl = providers.get(fetchImpl);
    if (byBaseUrl === undefined) {
      byBaseUrl = new Map();
      providers.set(fetchImpl, byBaseUrl);
    }
    const group = byBaseUrl;
    const id = baseUrl ?? "";
    let provider = group.get(id);
    if (provider === undefined) {
      const creating = loadKey().then((loaded) =>
        createTokenProvider({ ...providerOptions, baseUrl, fetch: fetchImpl, cache, key: loaded }),
      );
      provider = creating;
      group.set(id, creating);
      creating.catch(() => {
        if (group.get(id) === creating) group.delete(id);
      });
    }
    return provider;
  };
  const lazyProvider = (context: DrillAuthContext | undefined): TokenProvider => ({
    getToken: async (getOptions) => (await providerFor(context)).getToken(getOptions),
    invalidate: async (subject) => (await providerFor(context)).invalidate(subject),
  });

  const auth: ServiceAccountAuth = {
    middleware(context: DrillAuthContext) {
      if (typeof context !== "object" || context === null) {
        throw new OptionsError("middleware context", "must be an object with baseUrl and fetch");
      }
      if (context.fetch !== undefined && typeof context.fetch !== "function") {
        throw new OptionsError("middleware context", "fetch must be a fetch function");
      }
      if (settings.baseUrl === undefined && settings.tokenEndpoint === undefined) {
        // The client's base URL is the one the provider will use: check it while the client is made.
        if (context.baseUrl === undefined || context.baseUrl === "") {
          throw new OptionsError("baseUrl", "is required unless tokenEndpoint is given");
        }
        resolveProviderSettings({ ...providerOptions, baseUrl: context.baseUrl });
      }
      firstContext ??= context;
      return authMiddleware(lazyProvider(context));
    },
    getToken: (getOptions) => lazyProvider(firstContext).getToken(getOptions),
    invalidate: (subject) => lazyProvider(firstContext).invalidate(subject),
    ready: async () => {
      await loadKey();
      // With a base URL at hand, make the provider too: it checks the key against the options.
      if (
        settings.baseUrl !== undefined ||
        settings.tokenEndpoint !== undefined ||
        firstContext !== undefined
      ) {
        await providerFor(firstContext);
      }
    },
  };
  const describe = () => `ServiceAccountAuth(${keyFile === undefined ? "key given" : `keyFile=${keyFile}`})`;
  Object.defineProperties(auth, {
    toString: { value: describe, enumerable: false },
    toJSON: { value: () => describe(), enumerable: false },
    [inspectCustom]: { value: describe, enumerable: false },
  });
  return auth;
}
