/**
 * An issued access token, wrapped so that it cannot leak by accident: logging,
 * stringifying or inspecting it shows metadata only.
 */
import type { AccessTokenResponse } from "@drill-practice/client/internal";
import { inspectCustom, REDACTED } from "@drill-practice/client/internal";

/**
 * What an {@link AccessToken} is made from.
 *
 * @example
 * ```ts
 * import { AccessToken, type AccessTokenInit, type TokenProvider } from "@drill-practice/auth";
 *
 * // A fixed token for tests of code that takes a TokenProvider.
 * const init: AccessTokenInit = {
 *   response: { access_token: "test-token", token_type: "bearer", expires_in: 3599 },
 *   subject: "user-42",
 *   receivedAt: Date.now(),
 * };
 * const fixed: TokenProvider = { getToken: async () => new AccessToken(init), invalidate: async () => {} };
 * ```
 */
export interface AccessTokenInit {
  /** The validated token endpoint response. */
  readonly response: AccessTokenResponse;
  /** Who the token was issued for (the assertion's `sub`). */
  readonly subject: string;
  /** Local epoch ms at which the token response arrived. */
  readonly receivedAt: number;
}

/**
 * An access token and what is known about it. Read the bearer value with
 * {@link AccessToken.value}; `String(token)`, `JSON.stringify(token)` and
 * `util.inspect(token)` never show it.
 *
 * @example
 * ```ts
 * import { type AccessToken, createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 * });
 *
 * const token: AccessToken = await provider.getToken();
 * await fetch("https://drill.example/api/2.1/version", { headers: { authorization: `Bearer ${token.value}` } });
 * console.log(`${token}`); // AccessToken(subject=…, expiresAt=…, value=[redacted])
 * ```
 */
export class AccessToken {
  readonly #value: string;
  readonly #response: AccessTokenResponse;
  /** Who the token was issued for. */
  readonly subject: string;
  /** The `token_type` the server sent (`bearer` when absent). */
  readonly tokenType: string;
  /** The `scope` the server sent, if any. */
  readonly scope: string | undefined;
  /** The token identifier (`jti`) the server sent, if any. */
  readonly jti: string | undefined;
  /** Local epoch ms at which the token response arrived. */
  readonly receivedAt: number;
  /** Local epoch ms at which the token runs out: arrival plus `expires_in`. */
  readonly expiresAt: number;

  constructor(init: AccessTokenInit) {
    const response = init.response as unknown as Record<string, unknown>;
    this.#value = String(response.access_token);
    this.#response = { ...init.response };
    this.subject = init.subject;
    this.tokenType = typeof response.token_type === "string" ? response.token_type : "bearer";
    this.scope = typeof response.scope === "string" ? response.scope : undefined;
    this.jti = typeof response.jti === "string" ? response.jti : undefined;
    this.receivedAt = init.receivedAt;
    this.expiresAt = init.receivedAt + Number(response.expires_in) * 1000;
  }

  /** The bearer token. Treat it as a secret. */
  get value(): string {
    return this.#value;
  }

  /**
   * Seconds of validity left at `now` (local epoch ms), never negative.
   *
   * @example
   * ```ts
   * import { AccessToken } from "@drill-practice/auth";
   *
   * const token = new AccessToken({
   *   response: { access_token: "test-token", token_type: "bearer", expires_in: 3600 },
   *   subject: "user-42",
   *   receivedAt: 1_700_000_000_000,
   * });
   * token.secondsLeft(1_700_000_060_000); // 3540
   * ```
   */
  secondsLeft(now: number): number {
    return Math.max(0, Math.floor((this.expiresAt - now) / 1000));
  }

  /**
   * A copy of the token endpoint response as received, including `access_token`.
   * Only for callers that need the raw response (such as `drill-token --json`).
   *
   * @example
   * ```ts
   * import { AccessToken } from "@drill-practice/auth";
   *
   * const token = new AccessToken({
   *   response: { access_token: "test-token", token_type: "bearer", expires_in: 3600 },
   *   subject: "user-42",
   *   receivedAt: 1_700_000_000_000,
   * });
   * const { access_token, expires_in } = token.toResponse(); // "test-token", 3600
   * ```
   */
  toResponse(): AccessTokenResponse {
    return { ...this.#response };
  }

  /** A JSON view without the token value. */
  toJSON(): {
    subject: string;
    tokenType: string;
    scope: string | undefined;
    jti: string | undefined;
    expiresAt: string;
    value: string;
  } {
    return {
      subject: this.subject,
      tokenType: this.tokenType,
      scope: this.scope,
      jti: this.jti,
      expiresAt: new Date(this.expiresAt).toISOString(),
      value: REDACTED,
    };
  }

  toString(): string {
    return `AccessToken(subject=${this.subject}, expiresAt=${new Date(this.expiresAt).toISOString()}, value=${REDACTED})`;
  }

  [inspectCustom](): string {
    return this.toString();
  }
}
