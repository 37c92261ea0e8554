/**
 * Time keeping: the local clock, and an estimate of the authorization server's clock.
 *
 * Token expiry is measured on the local clock from the moment a response arrived, so
 * it does not depend on clocks agreeing. The assertion's `exp`, however, is judged by
 * the server's clock; when the server sends a `Date` header we learn its offset and
 * use it for `exp`.
 */
import { parseHttpDate } from "@drill-practice/client/internal";

/**
 * A source of the current time in milliseconds since the epoch. Inject one to test
 * time-dependent behaviour; the default reads `Date.now()`.
 *
 * @example
 * ```ts
 * import { type Clock, createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const frozen: Clock = { now: () => Date.parse("2030-01-01T00:00:00Z") };
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: "my-app",
 *   clientSecret: "test-secret",
 *   key: await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? ""),
 *   clock: frozen,
 * });
 * ```
 */
export interface Clock {
  now(): number;
}

/**
 * The local system clock.
 */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * Largest server clock offset we apply, in milliseconds (15 minutes). A `Date`
 * header further off than that is clamped: it covers real-world drift of a host
 * without working time sync, while a broken or hostile header can move `exp` by at
 * most this much (with the default 300 s assertion lifetime an `exp` can then still
 * never land more than 3600 s ahead of the true time).
 */
export const MAX_CLOCK_OFFSET_MS = 15 * 60 * 1000;

/**
 * Local clock plus the learned offset of the authorization server's clock.
 */
export class ServerClock {
  readonly #local: Clock;
  #offsetMs = 0;

  constructor(local: Clock) {
    this.#local = local;
  }

  /** The local time, in epoch milliseconds. */
  localNow(): number {
    return this.#local.now();
  }

  /** The estimated server time, in epoch milliseconds. */
  now(): number {
    return this.#local.now() + this.#offsetMs;
  }

  /** Current offset (server minus local), in milliseconds. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Learns the server's offset from a `Date` header that arrived at `receivedAt`
   * (local epoch ms). The header has one-second resolution and was stamped before
   * the response travelled, so the estimate errs towards the past: an `exp` built
   * from it is never later than intended, which keeps the 3600 s upper bound safe.
   */
  observe(dateHeader: string | null | undefined, receivedAt: number): void {
    const serverMs = parseHttpDate(dateHeader, receivedAt);
    if (serverMs === undefined) return;
    const offset = serverMs - receivedAt;
    this.#offsetMs = Math.max(-MAX_CLOCK_OFFSET_MS, Math.min(MAX_CLOCK_OFFSET_MS, offset));
  }
}
