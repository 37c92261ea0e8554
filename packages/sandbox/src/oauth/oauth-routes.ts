/**
 * The OAuth endpoints as routes of the table: the token exchange and the discovery document. They pass
 * the same stages as every operation (faults, parameters, response rules); the token endpoint words its
 * refusals in OAuth's error format and reads its form body itself.
 */
import { parseContentType, readBody } from "../http/http-io.js";
import type { Refusals, Route } from "../http/operation-handler.js";
import type { Reply } from "../http/replies.js";
import { oauthError, oauthErrorBody } from "../http/replies.js";
import { MAX_BODY_BYTES, utf8Text } from "../http/request-body.js";
import type { AccessTokens } from "./access-tokens.js";
import type { TokenEndpointContext } from "./token-endpoint.js";
import { exchangeToken } from "./token-endpoint.js";

/**
 * What the token endpoint needs apart from the audiences (the URIs it is addressed by).
 *
 * @example
 * ```ts
 * import { AccessTokens } from "./access-tokens.js";
 * import { createServiceAccounts, SandboxCredentials } from "./credentials.js";
 * import type { TokenEndpointBase } from "./oauth-routes.js";
 *
 * const accounts = await createServiceAccounts([{ id: "org-1", serviceAccountId: "sa-1" }]);
 * const credentials = new SandboxCredentials("client-1", "s3cr3t", accounts);
 * const tokens = new AccessTokens(() => Date.now());
 * const nowSeconds = Math.floor(Date.now() / 1000);
 * // Here only the service account itself can be named as the subject.
 * const resolveUser = (subject: string, serviceAccountId: string) =>
 *   subject === serviceAccountId ? subject : undefined;
 * const lifetimeSeconds = 3599;
 * const base: TokenEndpointBase = {
 *   credentials,
 *   tokens,
 *   lifetimeSeconds,
 *   accounts,
 *   nowSeconds,
 *   resolveUser,
 * };
 * ```
 */
export interface TokenEndpointBase {
  readonly credentials: TokenEndpointContext["credentials"];
  readonly tokens: AccessTokens;
  readonly lifetimeSeconds: number;
  readonly accounts: TokenEndpointContext["assertion"]["accounts"];
  readonly nowSeconds: number;
  resolveUser(subject: string, serviceAccountId: string): string | undefined;
}

/**
 * What the OAuth routes need from the sandbox.
 *
 * @example
 * ```ts
 * import type { OAuthRoutesContext, TokenEndpointBase } from "./oauth-routes.js";
 *
 * declare const endpoint: TokenEndpointBase;
 * const context: OAuthRoutesContext = { baseUrl: () => "http://127.0.0.1:4010", tokenEndpoint: () => endpoint };
 * ```
 */
export interface OAuthRoutesContext {
  /** The sandbox's own base URL (the token endpoint accepts it as an audience). */
  baseUrl(): string;
  /**
   * The base URL clients reach the sandbox at (a proxy in front of it): discovery advertises it instead
   * of the one the request addressed, and the token endpoint accepts it as the audience first.
   */
  readonly publicUrl?: string;
  /** The token endpoint's context, except the accepted audiences, which depend on the request. */
  tokenEndpoint(): TokenEndpointBase;
}

/**
 * What the OAuth endpoints do: their rows of the support table.
 *
 * @example
 * ```ts
 * import { OAUTH_OPERATIONS } from "./oauth-routes.js";
 *
 * console.log(OAUTH_OPERATIONS.exchangeToken);
 * ```
 */
export const OAUTH_OPERATIONS = {
  getAuthorizationServerMetadata:
    "discovery document with `token_endpoint` and `issuer`, built from the request's Host",
  exchangeToken:
    "JWT bearer grant: checks client credentials and every assertion rule, issues an opaque token",
} as const satisfies Record<string, string>;

/** The token endpoint refuses what every operation refuses, in OAuth's error format. */
const OAUTH_REFUSALS: Refusals = {
  query: (problem) => oauthError("invalid_request", problem),
  params: (_operation, problems) => oauthError("invalid_request", problems.map((p) => p.message).join("; ")),
  faultBody: (message) => oauthErrorBody("temporarily_unavailable", message),
};

/** The base URL the client addressed: the origin of the request's URL. */
function addressedBase(request: Request): string {
  return new URL(request.url).origin;
}

/**
 * The routes of the token exchange and discovery, by operationId.
 *
 * @example
 * ```ts
 * import { oauthRoutes, type TokenEndpointBase } from "./oauth-routes.js";
 *
 * declare const endpoint: TokenEndpointBase;
 * const routes = oauthRoutes({ baseUrl: () => "http://127.0.0.1:4010", tokenEndpoint: () => endpoint });
 * routes.get("exchangeToken");
 * ```
 */
export function oauthRoutes(ctx: OAuthRoutesContext): Map<string, Route> {
  return new Map<string, Route>([
    [
      "exchangeToken",
      { handle: (_input, request) => tokenRequest(ctx, request), refusals: OAUTH_REFUSALS, ownBody: true },
    ],
    [
      "getAuthorizationServerMetadata",
      {
        handle: (_input, request) => {
          const base = ctx.publicUrl ?? addressedBase(request);
          return { status: 200, body: { issuer: base, token_endpoint: `${base}/daas/oauth/token` } };
        },
      },
    ],
  ]);
}

async function tokenRequest(ctx: OAuthRoutesContext, request: Request): Promise<Reply> {
  const contentType = parseContentType(request.headers.get("content-type"));
  if (contentType?.mediaType !== "application/x-www-form-urlencoded") {
    return oauthError("invalid_request", "Content-Type: must be application/x-www-form-urlencoded", 415);
  }
  const read = await readBody(request, MAX_BODY_BYTES);
  if (read.kind === "aborted") return oauthError("invalid_request", "request body: aborted");
  if (read.kind === "too_large")
    return oauthError("invalid_request", `request body: larger than ${read.limit} bytes`, 413);
  const text = utf8Text(read.bytes);
  if (text === undefined) return oauthError("invalid_request", "request body: not valid UTF-8");
  // The advertised URI first: it is the one a failure message names.
  const bases = [ctx.publicUrl, addressedBase(request), ctx.baseUrl()];
  const audiences = [...new Set(bases.filter((b) => b !== undefined).map((b) => `${b}/daas/oauth/token`))];
  const endpoint = ctx.tokenEndpoint();
  return exchangeToken(new URLSearchParams(text), {
    credentials: endpoint.credentials,
    tokens: endpoint.tokens,
    lifetimeSeconds: endpoint.lifetimeSeconds,
    assertion: {
      accounts: endpoint.accounts,
      audiences,
      nowSeconds: endpoint.nowSeconds,
      resolveUser: (subject, serviceAccountId) => endpoint.resolveUser(subject, serviceAccountId),
    },
  });
}
