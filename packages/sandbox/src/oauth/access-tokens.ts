/**
 * Issued access tokens. Tokens are opaque random strings; the store keeps only their SHA-256 digests,
 * so the tokens themselves are never held after they are handed out.
 */
import { base64url, randomToken, randomUuid, sha256Text } from "./web-crypto.js";

/**
 * Who a token acts for.
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
 */
export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly jti: string;
}

/**
 * Result of looking a bearer token up.
 */
export type TokenLookup =
  | { readonly kind: "valid"; readonly session: TokenSession }
  | { readonly kind: "expired" }
  | { readonly kind: "unknown" };

function digest(token: string): string {
  return base64url(sha256Text(token));
}

/** Keep expired entries this long so that a late request learns "expired" rather than "unknown". */
const EXPIRED_GRACE_MS = 10 * 60 * 1000;
const SWEEP_EVERY = 256;

/**
 * The token store of one sandbox.
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
