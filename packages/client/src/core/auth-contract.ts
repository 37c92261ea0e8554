/**
 * The contract between the client and an auth provider. It lives in the core
 * so that a provider (`@drill-practice/auth`) is typed without loading any
 * API version's types; the client's entries re-export it.
 */
import type { Middleware } from "openapi-fetch";

/**
 * What an auth provider gets from the client: the client's base URL and its
 * fetch, to reach the token endpoint. That fetch applies the client's
 * `timeoutMs` and User-Agent but not its retries: the provider retries its
 * own requests with its own `retry` option (same names and defaults, see the
 * README's "Shared options"), and stacking both would multiply the attempts.
 *
 * @example
 * ```ts
 * import type { DrillAuthContext } from "@drill-practice/client";
 *
 * function tokenUrl(context: DrillAuthContext): string {
 *   return `${context.baseUrl}/daas/oauth/token`;
 * }
 * ```
 */
export interface DrillAuthContext {
  /** The validated base URL, without trailing slash. */
  readonly baseUrl: string;
  /** The client's fetch with its timeout and User-Agent, without retries; call it unbound. */
  readonly fetch: typeof fetch;
}

/**
 * Contract between the client and an auth provider such as
 * `@drill-practice/auth`: a middleware, or a function the client calls once
 * with its base URL and fetch to get one. The client registers it after the
 * caller's own `middleware`, so it sees the final request.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillClientAuth } from "@drill-practice/client";
 *
 * // The interface does not name the token header; this uses the OAuth convention.
 * const staticToken: DrillClientAuth = {
 *   middleware: {
 *     onRequest({ request }) {
 *       request.headers.set("Authorization", "Bearer <token>");
 *       return request;
 *     },
 *   },
 * };
 * const client = createDrillClient({ baseUrl: "https://drill.example", auth: staticToken });
 * ```
 */
export interface DrillClientAuth {
  middleware: Middleware | ((context: DrillAuthContext) => Middleware);
}
