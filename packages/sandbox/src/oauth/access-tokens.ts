/**
 * Issued access tokens. Tokens are opaque random strings; the store keeps only their SHA-256 digests,
 * so the tokens themselves are never held after they are handed out.
 */
import { sha256 } from "./sha256.js";
import { base64url, randomToken, randomUuid } from "./web-crypto.js";

/**
 * Who a token acts for.
 *
 * @example
 * ```ts
 * import type { TokenSession } from "./access-tokens.js";
 *
 * const session: TokenSession = {
 *   userId: "u-ana",
 *   organizationId: "org-1",
 *   serviceAccountId: "sa-1",
 *   jti: crypto.randomUUID(),
 *   expiresAt: Date.now() + 3_599_000,
 * };
 * ```
 */
export interface TokenSession {
  /** The acting user: the service account itself or a user of its organization. */
  readonly userId: string;
  readonly organizationId: string;
  readonly serviceAccountId: string;
  readonly jti: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

/**
 * A token just issued, with what the token response needs.
 *
 * @example
 * ```ts
 * import { AccessTokens, type IssuedToken } from "./access-tokens.js";
 *
 * const tokens = new AccessTokens(() => Date.now());
 * const subject = { userId: "u-ana", organizationId: "org-1", serviceAccountId: "sa-1" };
 * const { accessToken, expiresIn, jti }: IssuedToken = await tokens.issue(subject, 3599);
 * ```
 */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly jti: string;
}

/**
 * Result of looking a bearer token up.
 *
 * @example
 * ```ts
 * import { errorReply } from "../http/replies.js";
 * import { AccessTokens, type TokenLookup } from "./access-tokens.js";
 *
 * const tokens = new AccessTokens(() => Date.now());
 * const found: TokenLookup = tokens.lookup("a-bearer-token-from-the-request");
 * if (found.kind === "expired") errorReply("unauthorized", "access token: has expired; request a new one");
 * ```
 */
export type TokenLookup =
  | { readonly kind: "valid"; readonly session: TokenSession }
  | { readonly kind: "expired" }
  | { readonly kind: "unknown" };

function digest(token: string): string {
  return base64url(sha256(token));
}

/** Keep expired entries this long so that a late request learns "expired" rather than "unknown". */
const EXPIRED_GRACE_MS = 10 * 60 * 1000;
const SWEEP_EVERY = 256;

/**
 * The token store of one sandbox.
 *
 * @example
 * ```ts
 * import { AccessTokens } from "./access-tokens.js";
 *
 * const tokens = new AccessTokens(() => Date.now());
 * const issued = await tokens.issue({ userId: "u-1", organizationId: "o", serviceAccountId: "sa" }, 3599);
 * tokens.lookup(issued.accessToken).kind; // "valid"
 * ```
 */
export class AccessTokens {
  readonly #now: () => number;
  readonly #sessions = new Map<string, TokenSession>();
  #issuedSinceSweep = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * Issues a new token valid for `lifetimeSeconds`.
   *
   * @example
   * ```ts
   * import { AccessTokens } from "./access-tokens.js";
   *
   * const tokens = new AccessTokens(() => Date.now());
   * await tokens.issue({ userId: "sa-1", organizationId: "org-1", serviceAccountId: "sa-1" }, 3599);
   * ```
   */
  async issue(
    subject: Omit<TokenSession, "jti" | "expiresAt">,
    lifetimeSeconds: number,
  ): Promise<IssuedToken> {
    if (++this.#issuedSinceSweep >= SWEEP_EVERY) this.#sweep();
    const accessToken = randomToken(32);
    const jti = randomUuid();
    this.#sessions.set(digest(accessToken), {
      ...subject,
      jti,
      expiresAt: this.#now() + lifetimeSeconds * 1000,
    });
    return { accessToken, expiresIn: lifetimeSeconds, jti };
  }

  /**
   * Looks a bearer token up.
   *
   * @example
   * ```ts
   * import { AccessTokens } from "./access-tokens.js";
   *
   * const tokens = new AccessTokens(() => Date.now());
   * tokens.lookup("not-a-token").kind; // "unknown"
   * ```
   */
  lookup(token: string): TokenLookup {
    const session = this.#sessions.get(digest(token));
    if (!session) return { kind: "unknown" };
    if (session.expiresAt <= this.#now()) return { kind: "expired" };
    return { kind: "valid", session };
  }

  /** Number of tokens held (valid or recently expired). */
  get size(): number {
    return this.#sessions.size;
  }

  #sweep(): void {
    this.#issuedSinceSweep = 0;
    const cutoff = this.#now() - EXPIRED_GRACE_MS;
    for (const [key, session] of this.#sessions) if (session.expiresAt < cutoff) this.#sessions.delete(key);
  }
}
