/**
 * The token request itself: a form-encoded POST of the signed assertion with the
 * client credentials, retried where that is safe, and strict reading of the answer.
 */
import type { AccessTokenResponse } from "@drill-practice/client/internal";
import {
  DrillNetworkError,
  DrillTimeoutError,
  parseRetryAfter,
  redactedCause,
  serverText,
} from "@drill-practice/client/internal";
import { type AuthHttp, authRequest, type ReadResponse } from "./auth-request.js";
import { plural } from "./discovery.js";
import { TokenExchangeError, TokenRequestAbortedError, TokenResponseError } from "./errors.js";

/**
 * The `grant_type` of the JWT bearer grant (RFC 7523).
 */
export const JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * What {@link exchangeAssertion} needs.
 */
export interface TokenExchangeRequest {
  /** The token endpoint URL (also the assertion's `aud`). */
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Builds a freshly signed assertion; called once per attempt so `exp` is always current. */
  readonly createAssertion: () => Promise<string>;
  /** Fetch, timeout, retry policy and server clock. */
  readonly http: AuthHttp;
  /** Ends the exchange early with {@link TokenRequestAbortedError}. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A successful exchange.
 */
export interface TokenExchangeResult {
  /** The validated token response. */
  readonly response: AccessTokenResponse;
  /** Local epoch ms at which the response arrived; expiry counts from here. */
  readonly receivedAt: number;
  /** Number of requests made. */
  readonly attempts: number;
}

/**
 * Exchanges a signed assertion for an access token.
 *
 * Network errors and the policy's statuses (429, 502, 503, 504 by default) are
 * retried within the retry policy, each attempt with a fresh assertion; any other
 * non-2xx is final. Failures become {@link TokenExchangeError} (with the error's identifier and text
 * when the server sent them: the service's `id` and `description`, or RFC 6749's `error` and
 * `error_description`); a 2xx body that is not JSON or lacks
 * `access_token` / `expires_in` becomes {@link TokenResponseError}. Redirects are not
 * followed, so the client secret is never re-posted to another location.
 */
export async function exchangeAssertion(request: TokenExchangeRequest): Promise<TokenExchangeResult> {
  const { endpoint, http, signal } = request;
  // Every assertion sent is remembered so that server text echoing one can be redacted.
  const secrets: string[] = [request.clientSecret];
  const build = async () => {
    const assertion = await request.createAssertion();
    secrets.push(assertion);
    const body = new URLSearchParams({
      grant_type: JWT_BEARER_GRANT_TYPE,
      client_id: request.clientId,
      client_secret: request.clientSecret,
      assertion,
    });
    return new Request(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: body.toString(),
      redirect: "manual",
      ...(signal === undefined ? {} : { signal }),
    });
  };
  let attempts = 0;
  let response: ReadResponse;
  try {
    ({ response, attempts } = await authRequest(http, build, (attempt) => {
      attempts = attempt;
    }));
  } catch (error) {
    if (signal?.aborted) throw new TokenRequestAbortedError(signal.reason);
    if (!(error instanceof DrillNetworkError || error instanceof DrillTimeoutError)) throw error;
    const cause = redactedCause(error, secrets);
    throw new TokenExchangeError(
      `could not reach the token endpoint: ${serverText((cause as Error).message, secrets)}`,
      { endpoint, attempts, cause },
    );
  }
  const { status, body, receivedAt } = response;
  if (status >= 200 && status <= 299) {
    return { response: readTokenResponse(body, endpoint, status), receivedAt, attempts };
  }
  const oauth = readOAuthError(body, secrets);
  const parts = [`HTTP ${status}`];
  if (oauth.error !== undefined) parts.push(oauth.error);
  if (oauth.description !== undefined) parts.push(`"${oauth.description}"`);
  let problem = parts.join(" ");
  if (status >= 300 && status <= 399) problem += " (redirects are not followed for token requests)";
  if (attempts > 1) problem += ` after ${plural(attempts)}`;
  const retryAfterMs = beyondBudget(response, http);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  if (retryAfterSeconds !== undefined) {
    problem += `; the server asked to wait ${retryAfterSeconds} s, beyond the retry budget`;
  }
  throw new TokenExchangeError(problem, {
    endpoint,
    status,
    attempts,
    oauthError: oauth.error,
    oauthErrorDescription: oauth.description,
    retryAfterSeconds,
  });
}

/** The server's `Retry-After` of a retryable answer, when it asked for more than the policy would wait. */
function beyondBudget(response: ReadResponse, http: AuthHttp): number | undefined {
  const policy = http.retry;
  if (policy === undefined) return undefined;
  const retryable = typeof policy.retryOn === "function" ? true : policy.retryOn.includes(response.status);
  if (!retryable) return undefined;
  const wait = parseRetryAfter(
    response.headers.get("retry-after"),
    response.receivedAt,
    response.headers.get("date"),
  );
  if (wait === undefined || wait <= policy.maxDelayMs) return undefined;
  return wait;
}

function readOAuthError(
  body: string,
  secrets: readonly string[],
): { error: string | undefined; description: string | undefined } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { error: undefined, description: undefined };
  }
  if (typeof parsed !== "object" || parsed === null) return { error: undefined, description: undefined };
  // The service's reference writes its OAuthError as `id` and `description`; OAuth servers and RFC 6749
  // write `error` and `error_description`. The record's names come first, each field on its own.
  const fields = parsed as Record<string, unknown>;
  const error = nonEmptyString(fields.id) ?? fields.error;
  const description = nonEmptyString(fields.description) ?? fields.error_description;
  return {
    error: typeof error === "string" && error !== "" ? serverText(error, secrets, 80) : undefined,
    description:
      typeof description === "string" && description !== "" ? serverText(description, secrets) : undefined,
  };
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function readTokenResponse(body: string, endpoint: string, status: number): AccessTokenResponse {
  const fail = (problem: string) => new TokenResponseError(problem, { endpoint, status });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw fail(body.trim() === "" ? "the body is empty" : "the body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw fail("the body is not a JSON object");
  }
  const fields = parsed as Record<string, unknown>;
  const token = fields.access_token;
  if (token === undefined) throw fail('"access_token" is missing');
  if (typeof token !== "string" || token.trim() === "")
    throw fail('"access_token" is not a non-empty string');
  const expiresIn = fields.expires_in;
  if (expiresIn === undefined) throw fail('"expires_in" is missing');
  if (typeof expiresIn !== "number" || !Number.isInteger(expiresIn) || expiresIn <= 0) {
    throw fail('"expires_in" is not a positive whole number of seconds');
  }
  const tokenType = fields.token_type;
  if (tokenType !== undefined && typeof tokenType !== "string") throw fail('"token_type" is not a string');
  return fields as unknown as AccessTokenResponse;
}
