/**
 * The token exchange (`POST /daas/oauth/token`, JWT bearer grant of RFC 7523): form checks, client
 * authentication, assertion verification, token issue.
 */
import type { Reply } from "../http/replies.js";
import { oauthError } from "../http/replies.js";
import type { AccessTokens } from "./access-tokens.js";
import type { AssertionContext } from "./assertion.js";
import { verifyAssertion } from "./assertion.js";
import type { SandboxCredentials } from "./credentials.js";
import { sameBytes, sha256Text } from "./web-crypto.js";

/**
 * The grant type the interface requires.
 */
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * The scope every sandbox token carries (a value the interface shows).
 */
export const TOKEN_SCOPE = "ROLE_USER";

const REQUIRED_FIELDS = ["grant_type", "client_id", "client_secret", "assertion"] as const;

/**
 * What the token endpoint needs from the sandbox.
 */
export interface TokenEndpointContext {
  readonly credentials: SandboxCredentials;
  readonly tokens: AccessTokens;
  readonly lifetimeSeconds: number;
  readonly assertion: AssertionContext;
}

/** Compares digests so neither the length nor the content of the secret leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  return sameBytes(sha256Text(given), sha256Text(expected));
}

/**
 * Handles one token request whose form body has already been parsed.
 */
export async function exchangeToken(form: URLSearchParams, ctx: TokenEndpointContext): Promise<Reply> {
  for (const field of REQUIRED_FIELDS) {
    const values = form.getAll(field);
    if (values.length === 0 || values[0] === "") {
      return oauthError("invalid_request", `form parameter ${field}: is required`);
    }
    if (values.length > 1)
      return oauthError("invalid_request", `form parameter ${field}: must be given once`);
  }
  if (form.get("grant_type") !== JWT_BEARER_GRANT) {
    return oauthError("unsupported_grant_type", `form parameter grant_type: must be ${JWT_BEARER_GRANT}`);
  }
  // Both compared, always, so the time taken does not tell which of the two was wrong.
  const idOk = sameSecret(form.get("client_id") ?? "", ctx.credentials.clientId);
  const secretOk = sameSecret(form.get("client_secret") ?? "", ctx.credentials.clientSecret);
  if (!(idOk && secretOk)) {
    return oauthError(
      "invalid_client",
      "client_id and client_secret: do not match a registered client application",
    );
  }
  const result = await verifyAssertion(form.get("assertion") ?? "", ctx.assertion);
  if (!result.ok) return oauthError("invalid_grant", result.description);

  const issued = await ctx.tokens.issue(
    {
      userId: result.userId,
      organizationId: result.account.organizationId,
      serviceAccountId: result.account.serviceAccountId,
    },
    ctx.lifetimeSeconds,
  );
  return {
    status: 200,
    body: {
      access_token: issued.accessToken,
      token_type: "bearer",
      expires_in: issued.expiresIn,
      scope: TOKEN_SCOPE,
      jti: issued.jti,
    },
    headers: { "cache-control": "no-store", pragma: "no-cache" },
  };
}
