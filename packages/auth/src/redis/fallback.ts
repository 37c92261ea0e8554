/**
 * What keeps Redis from being a single point of failure: after a failed call the store
 * stops asking Redis for `retryAfterMs` (so a dead or stalled Redis costs one timeout,
 * not one per request), warns once per outage, and tries again afterwards; the first
 * call that succeeds ends the outage and sharing resumes.
 */
import { TokenCacheUnavailableError, type TokenCacheWarning } from "./errors.js";

/**
 * The store's view of whether Redis is worth asking right now.
 */
export class RedisHealth {
  readonly #retryAfterMs: number;
  readonly #warn: (warning: TokenCacheWarning) => void;
  readonly #redact: readonly string[];
  #down = false;
  #retryAt = 0;

  constructor(options: {
    retryAfterMs: number;
    warn: (warning: TokenCacheWarning) => void;
    /** Text never repeated in a warning (the password of a Redis URL). */
    redact: readonly string[];
  }) {
    this.#retryAfterMs = options.retryAfterMs;
    this.#warn = options.warn;
    this.#redact = options.redact.filter((text) => text !== "");
  }

  /** `false` while a recent failure says Redis should be left alone. */
  usable(): boolean {
    return !this.#down || Date.now() >= this.#retryAt;
  }

  /** `true` while an outage is going on (after a failure, before the next success). */
  get down(): boolean {
    return this.#down;
  }

  succeeded(): void {
    this.#down = false;
  }

  failed(error: unknown): void {
    this.#retryAt = Date.now() + this.#retryAfterMs;
    if (this.#down) return;
    this.#down = true;
    let detail = error instanceof Error ? `${error.name}: ${error.message}` : "unknown error";
    for (const secret of this.#redact) detail = detail.replaceAll(secret, "[redacted]");
    const warning = new TokenCacheUnavailableError(detail, { cause: error });
    try {
      this.#warn(warning);
    } catch {
      // A throwing logger must not turn a Redis outage into a failed request.
    }
  }

  report(warning: TokenCacheWarning): void {
    try {
      this.#warn(warning);
    } catch {
      // As above.
    }
  }
}
