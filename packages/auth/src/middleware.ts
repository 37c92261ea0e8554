/**
 * openapi-fetch middleware that authenticates requests with a bearer token and, when
 * the service answers 401, replaces the token and sends the request once more.
 *
 * The interface does not name the header that carries the token; the standard
 * `Authorization: Bearer …` header (RFC 6750) is used.
 */
import type { Middleware } from "openapi-fetch";
import { OptionsError } from "./errors.js";
import { inspectCustom } from "./redact.js";
import type { TokenProvider } from "./token-provider.js";

type OnRequest = NonNullable<Middleware["onRequest"]>;
type OnResponse = NonNullable<Middleware["onResponse"]>;
type OnError = NonNullable<Middleware["onError"]>;

/**
 * Default bound of {@link AuthMiddlewareOptions.maxPendingRequests}.
 *
 * @example
 * ```ts
 * authMiddleware(provider, { maxPendingRequests: DEFAULT_MAX_PENDING_REQUESTS * 4 });
 * ```
 */
export const DEFAULT_MAX_PENDING_REQUESTS = 1000;

/**
 * Options of {@link authMiddleware}.
 *
 * @example
 * ```ts
 * client.use(authMiddleware(provider, { subject: "pat@example.com" }));
 * ```
 */
export interface AuthMiddlewareOptions {
  /** Subject to request tokens for; default: the provider's subject. */
  readonly subject?: string | undefined;
  /**
   * Most requests whose copy (kept for a re-send after 401) is held at once. Copies are
   * dropped when the response or error arrives; this bound only matters when another
   * middleware answers a request itself, in which case neither hook is called.
   * Default 1000.
   */
  readonly maxPendingRequests?: number | undefined;
}

/**
 * The middleware returned by {@link authMiddleware}.
 *
 * @example
 * ```ts
 * const middleware: AuthMiddleware = authMiddleware(provider);
 * client.use(middleware);
 * console.log(middleware.pendingRequests);
 * ```
 */
export interface AuthMiddleware {
  readonly onRequest: OnRequest;
  readonly onResponse: OnResponse;
  readonly onError: OnError;
  /** How many request copies are currently held for a possible re-send. */
  readonly pendingRequests: number;
}

/**
 * Creates an openapi-fetch middleware that sets `Authorization: Bearer <token>` on
 * every request. On a 401 it re-sends the request once through the client's own
 * `fetch` (so the client's retry and timeout wrapping still apply) with a newer token:
 * if the provider still hands out the token that was rejected, that token is dropped
 * and one fresh token is exchanged for all requests rejected with it; if the provider
 * has a newer one already, that is used and nothing is dropped. A second 401 is
 * returned to the caller.
 *
 * @example
 * ```ts
 * import createClient from "openapi-fetch";
 * const client = createClient<paths>({ baseUrl: "https://drill.example" });
 * client.use(authMiddleware(createTokenProvider({ baseUrl: "https://drill.example", clientId, clientSecret, key })));
 * ```
 */
export function authMiddleware(provider: TokenProvider, options: AuthMiddlewareOptions = {}): AuthMiddleware {
  if (typeof provider?.getToken !== "function" || typeof provider.invalidate !== "function") {
    throw new OptionsError("provider", "must have getToken() and invalidate() methods");
  }
  const { subject } = options;
  if (subject !== undefined && (typeof subject !== "string" || subject === "")) {
    throw new OptionsError("subject", "must be a non-empty string");
  }
  const maxPending = options.maxPendingRequests ?? DEFAULT_MAX_PENDING_REQUESTS;
  if (!Number.isInteger(maxPending) || maxPending < 1) {
    throw new OptionsError("maxPendingRequests", "must be a whole number ≥ 1");
  }
  // Copies of requests in flight, keyed by openapi-fetch's per-request id, so that a
  // 401 can be answered by sending the same request (with its body) again; with each
  // copy, the token it was sent with.
  const pending = new Map<string, { copy: Request; token: string }>();
  const take = (id: string) => {
    const entry = pending.get(id);
    pending.delete(id);
    return entry;
  };
  // Replacements under way, keyed by the rejected token: 401s for the same token that
  // arrive while one is being replaced wait for that replacement.
  const replacing = new Map<string, Promise<string>>();
  const replacementFor = (rejected: string): Promise<string> => {
    let replacement = replacing.get(rejected);
    if (replacement === undefined) {
      const running = (async () => {
        const current = await provider.getToken({ subject });
        // The provider already moved on (an earlier 401, a refresh): use its token and
        // leave it alone. Only the token that was rejected is dropped.
        if (current.value !== rejected) return current.value;
        await provider.invalidate(subject);
        return (await provider.getToken({ subject, forceRefresh: true })).value;
      })();
      replacement = running;
      replacing.set(rejected, running);
      const settle = () => {
        if (replacing.get(rejected) === running) replacing.delete(rejected);
      };
      running.then(settle, settle);
    }
    return replacement;
  };

  const middleware: AuthMiddleware = {
    async onRequest({ request, id }) {
      const token = (await provider.getToken({ subject })).value;
      request.headers.set("Authorization", `Bearer ${token}`);
      if (!request.bodyUsed) {
        while (pending.size >= maxPending) {
          const oldest = pending.keys().next().value;
          if (oldest === undefined) break;
          pending.delete(oldest);
        }
        pending.set(id, { copy: request.clone(), token });
      }
      return request;
    },
    async onResponse({ response, options: clientOptions, id }) {
      const entry = take(id);
      if (response.status !== 401 || entry === undefined) return undefined;
      const { copy, token } = entry;
      await response.body?.cancel().catch(() => undefined);
      copy.headers.set("Authorization", `Bearer ${await replacementFor(token)}`);
      return clientOptions.fetch(copy);
    },
    onError({ id }) {
      take(id);
      return undefined;
    },
    get pendingRequests() {
      return pending.size;
    },
  };
  Object.defineProperties(middleware, {
    toString: { value: () => `AuthMiddleware(pendingRequests=${pending.size})`, enumerable: false },
    [inspectCustom]: { value: () => `AuthMiddleware(pendingRequests=${pending.size})`, enumerable: false },
  });
  return middleware;
}
