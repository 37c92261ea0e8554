/**
 * The token request itself: a form-encoded POST of the signed assertion with the
 * client credentials, retried where that is safe, and strict reading of the answer.
 */
import type { AccessTokenResponse } from "@drill-practice/client";
import type { ServerClock } from "./clock.js";
import { describeNetworkError, plural } from "./discovery.js";
import { TokenExchangeError, type TokenRequestAbortedError, TokenResponseError } from "./errors.js";
import { containsSecret, scrubSecrets, serverText } from "./redact.js";
import { type RetryPolicy, sendWithRetry } from "./retry.js";

/**
 * The `grant_type` of the JWT bearer grant (RFC 7523).
 *
 * @example
 * ```ts
 * new URLSearchParams({ grant_type: JWT_BEARER_GRANT_TYPE, client_id, client_secret, assertion });
 * ```
 */
export const JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * What {@link exchangeAssertion} needs.
 *
 * @example
 * ```ts
 * await exchangeAssertion({ endpoint, clientId, clientSecret, createAssertion, fetch, retry, serverClock });
 * ```
 */
export interface TokenExchangeRequest {
  /** The token endpoint URL (also the assertion's `aud`). */
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Builds a freshly signed assertion; called once per attempt so `exp` is always current. */
  readonly createAssertion: () => Promise<string>;
  readonly fetch: typeof globalThis.fetch;
  readonly retry: RetryPolicy;
  readonly serverClock: ServerClock;
  /** Ends the exchange early with {@link TokenRequestAbortedError}. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A successful exchange.
 *
 * @example
 * ```ts
 * const { response, receivedAt, attempts }: TokenExchangeResult = await exchangeAssertion(request);
 * ```
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
 * Network errors, 429 and 5xx are retried within the retry policy; any other non-2xx
 * is final. Failures become {@link TokenExchangeError} (with the OAuth `error` and
 * `error_description` when the server sent them); a 2xx body that is not JSON or lacks
 * `access_token` / `expires_in` becomes {@link TokenResponseError}. Redirects are not
 * followed, so the client secret is never re-posted to another location.
 *
 * @example
 * ```ts
 * const { response, receivedAt } = await exchangeAssertion({
 *   endpoint, clientId, clientSecret, fetch, retry: resolveRetryPolicy(), serverClock,
 *   createAssertion: () => signAssertion({ key, subject, audience: endpoint, now: serverClock.now(), lifetimeSeconds: 300 }),
 * });
 * ```
 */
export async function exchangeAssertion(request: TokenExchangeRequest): Promise<TokenExchangeResult> {
  const { endpoint, serverClock } = request;
  // Every assertion sent is remembered so that server text echoing one can be scrubbed.
  const secrets: string[] = [request.clientSecret];
  let assertion = "";
  const outcome = await sendWithRetry(
    (signal) => {
      const body = new URLSearchParams({
        grant_type: JWT_BEARER_GRANT_TYPE,
        client_id: request.clientId,
        client_secret: request.clientSecret,
        assertion,
      });
      return request.fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: body.toString(),
        redirect: "manual",
        signal,
      });
    },
    {
      policy: request.retry,
      signal: request.signal,
      clock: { now: () => serverClock.localNow() },
      onResponse: (response) => serverClock.observe(response.headers.get("date"), response.receivedAt),
      beforeAttempt: async () => {
        assertion = await request.createAssertion();
        secrets.push(assertion);
      },
    },
  );
  const { attempts } = outcome;
  if (!outcome.ok) {
    const reason = outcome.error instanceof Error ? describeNetworkError(outcome.error) : "request failed";
    throw new TokenExchangeError(
      `could not reach the token endpoint (${serverText(reason, secrets)}) after ${plural(attempts)}`,
      { endpoint, attempts, cause: safeCause(outcome.error, secrets) },
    );
  }
  const { status, body, receivedAt } = outcome.response;
  if (status >= 200 && status <= 299) {
    return { response: readTokenResponse(body, endpoint, status), receivedAt, attempts };
  }
  const oauth = readOAuthError(body, secrets);
  const parts = [`HTTP ${status}`];
  if (oauth.error !== undefined) parts.push(oauth.error);
  if (oauth.description !== undefined) parts.push(`"${oauth.description}"`);
  let problem = parts.join(" ");
  if (status >= 300 && status <= 399) problem += " (redirects are not followed for token requests)";
  if (outcome.gaveUp !== undefined) {
    problem += ` after ${plural(attempts)}`;
    if (outcome.gaveUp === "retry-after" && outcome.retryAfterMs !== undefined) {
      problem += `; the server asked to wait ${Math.ceil(outcome.retryAfterMs / 1000)} s, beyond the retry budget`;
    }
  }
  throw new TokenExchangeError(problem, {
    endpoint,
    status,
    attempts,
    oauthError: oauth.error,
    oauthErrorDescription: oauth.description,
    retryAfterSeconds:
      outcome.gaveUp === "retry-after" && outcome.retryAfterMs !== undefined
        ? Math.ceil(outcome.retryAfterMs / 1000)
        : undefined,
  });
}

/**
 * The network error to attach as `cause`. A custom fetch could put request details
 * (and so a secret) into its error; such an error is replaced by a scrubbed copy.
 */
function safeCause(error: unknown, secrets: readonly string[]): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  const texts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    texts.push(e.message, e.stack ?? "");
  }
  // Any spelling counts: an error quoting the request body shows the form-encoded secret.
  if (!texts.some((text) => containsSecret(text, secrets))) return error;
  const clean = new Error(scrubSecrets(error.message, secrets));
  clean.name = error.name;
  clean.stack = `${clean.name}: ${clean.message}`;
  return clean;
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
  const { error, error_description: description } = parsed as Record<string, unknown>;
  return {
    error: typeof error === "string" && error !== "" ? serverText(error, secrets, 80) : undefined,
    description:
      typeof description === "string" && description !== "" ? serverText(description, secrets) : undefined,
  };
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
