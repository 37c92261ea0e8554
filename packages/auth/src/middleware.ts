/**
 * openapi-fetch middleware that authenticates requests with a bearer token and, when
 * the service answers 401, replaces the token and sends the request once more.
 *
 * The interface does not name the header that carries the token; the standard
 * `Authorization: Bearer …` header (RFC 6750) is used.
 */

import { DrillInvalidOptionError, inspectCustom, KEEPS_REQUEST_BODY } from "@drill-practice/client/internal";
import type { Middleware } from "openapi-fetch";
import type { TokenProvider } from "./token-provider.js";

type OnRequest = NonNullable<Middleware["onRequest"]>;
type OnResponse = NonNullable<Middleware["onResponse"]>;

/**
 * Options of {@link authMiddleware}.
 *
 * @example
 * ```ts
 * import { type AuthMiddlewareOptions, authMiddleware, createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 * import type { paths } from "@drill-practice/client";
 * import createClient from "openapi-fetch";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 * // A client that acts for one managed user.
 * const options: AuthMiddlewareOptions = { subject: "pat@example.com" };
 * const client = createClient<paths>({ baseUrl: "https://drill.example" });
 * client.use(authMiddleware(provider, options));
 * ```
 */
export interface AuthMiddlewareOptions {
  /** Subject to request tokens for; default: the provider's subject. */
  readonly subject?: string | undefined;
}

/**
 * The middleware returned by {@link authMiddleware}.
 *
 * @example
 * ```ts
 * import { type AuthMiddleware, authMiddleware, createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 * import type { paths } from "@drill-practice/client";
 * import createClient from "openapi-fetch";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 * const middleware: AuthMiddleware = authMiddleware(provider);
 * createClient<paths>({ baseUrl: "https://drill.example" }).use(middleware);
 * ```
 */
export interface AuthMiddleware {
  readonly onRequest: OnRequest;
  readonly onResponse: OnResponse;
}

const BEARER = "Bearer ";

/**
 * Creates an openapi-fetch middleware that sets `Authorization: Bearer <token>` on
 * every request. A fresh token the provider already holds is set synchronously
 * (`peekToken`), so a cached call costs no extra promise. On a 401 it re-sends the
 * request once through the client's own `fetch` (so the client's retry and timeout
 * still apply) with a newer token: if the provider still hands out the token that
 * was rejected, that token is dropped and one fresh token is exchanged for all
 * requests rejected with it; if the provider has a newer one already, that is used.
 * A request is re-sent as it is, since the client's fetch leaves it readable; only behind
 * a fetch that consumes the request's body (a plain openapi-fetch client with the
 * platform fetch) does a request with a body keep one copy, weakly held, for the
 * re-send. A second 401 is returned to the caller.
 *
 * @example
 * ```ts
 * import { authMiddleware, createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 * import type { paths } from "@drill-practice/client";
 * import createClient from "openapi-fetch";
 *
 * const client = createClient<paths>({ baseUrl: "https://drill.example" });
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 * client.use(authMiddleware(provider));
 * const { data } = await client.GET("/api/2.1/version");
 * ```
 */
export function authMiddleware(provider: TokenProvider, options: AuthMiddlewareOptions = {}): AuthMiddleware {
  if (typeof provider?.getToken !== "function" || typeof provider.invalidate !== "function") {
    throw new DrillInvalidOptionError("provider", "must have getToken() and invalidate() methods");
  }
  const { subject } = options;
  if (subject !== undefined && (typeof subject !== "string" || subject === "")) {
    throw new DrillInvalidOptionError("subject", "must be a non-empty string");
  }
  const getOptions = { subject };
  const peek = typeof provider.peekToken === "function" ? provider.peekToken.bind(provider) : undefined;
  // Replacements under way, keyed by the rejected token: 401s for the same token that
  // arrive while one is being replaced wait for that replacement.
  const replacing = new Map<string, Promise<string>>();
  const replacementFor = (rejected: string): Promise<string> => {
    let replacement = replacing.get(rejected);
    if (replacement === undefined) {
      const running = (async () => {
        const current = await provider.getToken(getOptions);
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
  // A copy of a request with a body, for the re-send, only where the fetch consumes
  // the original's body: the client's own fetch sends a copy and keeps the original
  // readable. Weak, so nothing outlives its request.
  const copies = new WeakMap<Request, Request>();
  const authorize = (request: Request, token: string, fetch: unknown): Request => {
    request.headers.set("Authorization", `${BEARER}${token}`);
    if (request.body !== null && (fetch as { [KEEPS_REQUEST_BODY]?: boolean })[KEEPS_REQUEST_BODY] !== true) {
      copies.set(request, request.clone());
    }
    return request;
  };

  const resend = async (again: Request, rejected: string, fetch: typeof globalThis.fetch) => {
    again.headers.set("Authorization", `${BEARER}${await replacementFor(rejected)}`);
    return fetch(again);
  };

  const middleware: AuthMiddleware = {
    onRequest({ request, options: clientOptions }) {
      const fresh = peek?.(subject);
      if (fresh !== undefined) return authorize(request, fresh.value, clientOptions.fetch);
      return provider
        .getToken(getOptions)
        .then((token) => authorize(request, token.value, clientOptions.fetch));
    },
    onResponse({ request, response, options: clientOptions }) {
      // Not async: every other answer goes on without a promise of its own.
      if (response.status !== 401) return undefined;
      const again = copies.get(request) ?? request;
      if (again.bodyUsed) return undefined;
      const sent = request.headers.get("Authorization");
      if (sent === null || !sent.startsWith(BEARER)) return undefined;
      response.body?.cancel().catch(() => undefined);
      return resend(again, sent.slice(BEARER.length), clientOptions.fetch);
    },
  };
  const describe = () => `AuthMiddleware(${subject === undefined ? "default subject" : "subject set"})`;
  Object.defineProperties(middleware, {
    toString: { value: describe, enumerable: false },
    [inspectCustom]: { value: describe, enumerable: false },
  });
  return middleware;
}
