/**
 * One Redis connection as the token store uses it: every call bounded in time, and
 * no call ever waiting for a connection that is down.
 *
 * Only `sendCommand`, `subscribe`, `duplicate`, `connect` and `close`/`destroy` of
 * the client are used, all of which node-redis 5 and 6 share; the typed command
 * helpers are not, so the store does not depend on one major's generics.
 */

/**
 * The part of a node-redis client (`createClient()` of the `redis` package, v5 or v6)
 * the store needs. Pass your own client when it is set up already (TLS, ACL user,
 * Sentinel); a client made from a URL by the store itself is closed by `close()`.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, type RedisClientLike } from "@drill-practice/auth/redis";
 * import { createClient } from "redis";
 *
 * // Your own client (TLS, ACL user, Sentinel …); the cache leaves it open on close().
 * const client: RedisClientLike = createClient({ url: "rediss://cache.example:6380", disableOfflineQueue: true });
 * await client.connect();
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache = await createRedisTokenCache({ client, clientSecret, keyId: key.keyId });
 * ```
 */
export interface RedisClientLike {
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => unknown): Promise<unknown>;
  duplicate(): RedisClientLike;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "ready", listener: () => void): unknown;
  readonly isOpen: boolean;
  readonly isReady: boolean;
}

/**
 * Thrown (internally) when a Redis call does not answer within its bound; the store
 * turns it into a fallback, never into a failed request.
 */
export class RedisCallTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`Redis ${what} did not answer within ${ms} ms`);
    this.name = "RedisCallTimeout";
  }
}

/**
 * Thrown (internally) when the connection is known to be down, without waiting.
 */
export class RedisOffline extends Error {
  constructor() {
    super("Redis connection is down (reconnecting)");
    this.name = "RedisOffline";
  }
}

/**
 * Races a promise against a timer; the timer never keeps the process alive.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RedisCallTimeout(what, ms)), ms);
    (timer as { unref?: () => void }).unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * A client and its state: connected lazily on first use, waited for (within the call
 * bound) only until it has been ready once; after that a lost connection makes calls
 * fail at once while node-redis reconnects in the background.
 */
export class RedisConnection {
  readonly client: RedisClientLike;
  readonly #timeoutMs: number;
  readonly #owned: boolean;
  #everReady = false;
  #firstReady: Promise<void> | undefined;
  #resolveFirstReady: (() => void) | undefined;
  #rejectFirstReady: ((error: Error) => void) | undefined;
  #closed = false;

  constructor(client: RedisClientLike, options: { timeoutMs: number; owned: boolean }) {
    this.client = client;
    this.#timeoutMs = options.timeoutMs;
    this.#owned = options.owned;
    // node-redis reports every failed (re)connection as an "error" event; without a
    // listener Node would end the process. The store reports outages itself.
    client.on("error", (error) => {
      // Before the first connection, a refused or failed attempt ends the wait at once:
      // a Redis that is down costs no timeout, only one that is slow does.
      if (!this.#everReady) this.#rejectFirstReady?.(error);
    });
    client.on("ready", () => {
      this.#everReady = true;
      this.#resolveFirstReady?.();
    });
    this.#everReady = client.isReady;
  }

  /** Resolves once the client is ready, within the call bound. */
  async ready(): Promise<void> {
    if (this.#closed) throw new RedisOffline();
    if (this.client.isReady) return;
    if (this.#everReady) throw new RedisOffline();
    if (this.#firstReady === undefined) {
      const firstReady = new Promise<void>((resolve, reject) => {
        this.#resolveFirstReady = resolve;
        this.#rejectFirstReady = (error) => {
          // The next call waits afresh for the reconnection node-redis goes on with.
          if (this.#firstReady === firstReady) this.#firstReady = undefined;
          reject(error);
        };
      });
      firstReady.catch(() => {});
      this.#firstReady = firstReady;
      // connect() keeps retrying by the reconnect strategy until it succeeds or the
      // client is closed; its outcome arrives through the "ready" event.
      if (!this.client.isOpen) this.client.connect().catch(() => {});
    }
    await withTimeout(this.#firstReady, this.#timeoutMs, "connection");
  }

  /** Sends one command, bounded by the call timeout (connection wait included). */
  async command(args: string[]): Promise<unknown> {
    const started = Date.now();
    await this.ready();
    const left = Math.max(1, this.#timeoutMs - (Date.now() - started));
    return withTimeout(this.client.sendCommand(args, { timeout: left }), left, args[0] ?? "command");
  }

  /** Subscribes to a channel, bounded by the call timeout. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const started = Date.now();
    await this.ready();
    const left = Math.max(1, this.#timeoutMs - (Date.now() - started));
    await withTimeout(
      this.client.subscribe(channel, (message) => listener(message)),
      left,
      "SUBSCRIBE",
    );
  }

  /** Closes a client the store created; a client passed in is left to its owner. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#owned) return;
    if (this.client.isReady) {
      // Lets replies in flight arrive (a lock release, a token written), within the bound.
      await withTimeout(this.client.close(), this.#timeoutMs, "close").catch(() => {});
    }
    if (this.client.isOpen) this.client.destroy();
  }
}
