/**
 * The Redis token store: a {@link TokenCache} whose entries are sealed in Redis and
 * shared by every process with the same client secret and service-account key, with
 * single flight across those processes, and a copy in memory for when Redis fails.
 */
import { DrillInvalidOptionError, inspectCustom } from "@drill-practice/client/internal";
import { MemoryTokenCache, type TokenCache, type TokenCacheCoordination } from "../token-cache.js";
import { type RedisClientLike, RedisConnection } from "./connection.js";
import { TokenCacheTamperedError, type TokenCacheWarning } from "./errors.js";
import { RedisHealth } from "./fallback.js";
import { DEFAULT_REDIS_PREFIX, type EntryNames, entryNames, releaseChannel } from "./key-names.js";
import { acquireLock, newOwnerToken, releaseLock, renewLock } from "./lock.js";
import { deriveStoreKeys, type StoreKeys, seal, unseal } from "./seal.js";

/**
 * Defaults of {@link RedisTokenCacheOptions}, in milliseconds.
 *
 * A process whose lock holder died takes over within `lockTtlMs + pollIntervalMs`
 * (5.25 s by default); a process never waits longer than `maxWaitMs` for another's
 * exchange before it exchanges on its own. That bound is one token request's own time
 * limit (30 s), so waiters do not give up on a live holder whose request is merely slow,
 * which is exactly when a stampede on the token endpoint would hurt most.
 *
 * `timeoutMs` is measured by the calling process, so it includes the time that process
 * spends waiting for a CPU: 20 cold `drill-token` processes on two busy cores spent
 * more than one second between sending a command and reading its reply. 5000 is
 * node-redis's own connect timeout (it has no command timeout: a command waits for as
 * long as the connection lives), and ioredis waits 10 s to connect and forever for a
 * reply; a stalled Redis costs at most one `timeoutMs` per `retryAfterMs` window here.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, REDIS_TOKEN_CACHE_DEFAULTS } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * // Token exchanges are slow behind this proxy: wait twice as long for another process's.
 * const cache = await createRedisTokenCache({
 *   url: "redis://127.0.0.1:6379",
 *   clientSecret,
 *   keyId: key.keyId,
 *   maxWaitMs: REDIS_TOKEN_CACHE_DEFAULTS.maxWaitMs * 2,
 * });
 * ```
 */
export const REDIS_TOKEN_CACHE_DEFAULTS = Object.freeze({
  timeoutMs: 5000,
  lockTtlMs: 5000,
  pollIntervalMs: 250,
  maxWaitMs: 30_000,
  retryAfterMs: 2000,
});

/**
 * Options of {@link createRedisTokenCache}. Give `url` or `client`, not both.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, type RedisTokenCacheOptions } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const options: RedisTokenCacheOptions = {
 *   url: process.env.REDIS_URL,
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   keyId: key.keyId,
 * };
 * const cache = await createRedisTokenCache(options);
 * ```
 */
export interface RedisTokenCacheOptions {
  /** `redis://` or `rediss://` URL; the store makes (and on `close()` closes) its own client. */
  readonly url?: string | undefined;
  /** A node-redis client of yours (v5 or v6); `close()` leaves it open. */
  readonly client?: RedisClientLike | undefined;
  /** The client secret the provider uses: the store's keys are derived from it. */
  readonly clientSecret: string;
  /** `keyId` of the service account key the provider uses (the other input of the key derivation). */
  readonly keyId: string;
  /** Prefix of every Redis key and channel. Default `drill-practice:tokens:`. */
  readonly prefix?: string | undefined;
  /** Bound of every Redis call, connecting included. Default 5000 (see {@link REDIS_TOKEN_CACHE_DEFAULTS}). */
  readonly timeoutMs?: number | undefined;
  /** Expiry of the single-flight lock; its holder extends it while it works. Default 5000. */
  readonly lockTtlMs?: number | undefined;
  /** How often a waiting process looks again if no release message arrives. Default 250. */
  readonly pollIntervalMs?: number | undefined;
  /** Longest wait for another process's exchange before exchanging here. Default 30000. */
  readonly maxWaitMs?: number | undefined;
  /** After a failed Redis call, how long Redis is left alone. Default 2000. */
  readonly retryAfterMs?: number | undefined;
  /**
   * Logging hook: Redis unavailable (once per outage) or a stored value that failed
   * authentication. Messages hold no secret, token, subject or Redis password.
   * Default: one line on `console.warn`.
   */
  readonly onWarning?: ((warning: TokenCacheWarning) => void) | undefined;
}

interface Envelope {
  /** The provider's value. */
  readonly v: string;
  /** When it expires, ms since the epoch (for the copy in memory). */
  readonly e: number;
}

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Envelope> | null;
    if (typeof parsed?.v === "string" && typeof parsed.e === "number") return { v: parsed.v, e: parsed.e };
  } catch {
    // Not ours.
  }
  return undefined;
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new DrillInvalidOptionError(name, "must be a positive number of milliseconds");
  }
  return value;
}

function nonEmpty(name: string, value: unknown): string {
  if (typeof value !== "string" || value === "")
    throw new DrillInvalidOptionError(name, "must be a non-empty string");
  return value;
}

function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.password, decodeURIComponent(parsed.password), parsed.username].filter(
      (s) => s.length > 3,
    );
  } catch {
    return [];
  }
}

/**
 * A {@link TokenCache} in Redis, shared by processes. Made by {@link createRedisTokenCache}.
 *
 * @example
 * ```ts
 * import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, type RedisTokenCache } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache: RedisTokenCache = await createRedisTokenCache({ url: "redis://127.0.0.1:6379", clientSecret, keyId: key.keyId });
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret,
 *   key,
 *   cache,
 * });
 * // … on shutdown:
 * await cache.close();
 * ```
 */
export class RedisTokenCache implements TokenCache {
  readonly #connection: RedisConnection;
  readonly #keys: StoreKeys;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #lockTtlMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxWaitMs: number;
  readonly #health: RedisHealth;
  /** Copy of every value read or written, used only while Redis is unavailable. */
  readonly #local = new MemoryTokenCache();
  readonly #names = new Map<string, Promise<EntryNames>>();
  /** Waiters per lock name, woken by a release message. */
  readonly #waiters = new Map<string, Set<() => void>>();
  #subscriber: RedisConnection | undefined;
  #subscribing: Promise<void> | undefined;
  #closed = false;

  /** @internal Use {@link createRedisTokenCache}. */
  constructor(
    connection: RedisConnection,
    keys: StoreKeys,
    settings: {
      prefix: string;
      timeoutMs: number;
      lockTtlMs: number;
      pollIntervalMs: number;
      maxWaitMs: number;
      health: RedisHealth;
    },
  ) {
    this.#connection = connection;
    this.#keys = keys;
    this.#prefix = settings.prefix;
    this.#timeoutMs = settings.timeoutMs;
    this.#lockTtlMs = settings.lockTtlMs;
    this.#pollIntervalMs = settings.pollIntervalMs;
    this.#maxWaitMs = settings.maxWaitMs;
    this.#health = settings.health;
  }

  async get(key: string): Promise<string | undefined> {
    if (!this.#redisUsable()) return this.#local.get(key);
    const names = await this.#entryNames(key);
    let stored: unknown;
    try {
      stored = await this.#connection.command(["GET", names.value]);
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
      return this.#local.get(key);
    }
    // Redis is the shared truth while it answers: a value deleted there (another
    // process invalidated it) is not resurrected from this process's copy.
    if (stored === null || stored === undefined) return undefined;
    const opened = await unseal(this.#keys.seal, stored, names.value);
    const envelope = opened === undefined ? undefined : parseEnvelope(opened);
    if (envelope === undefined) {
      this.#health.report(new TokenCacheTamperedError());
      return undefined;
    }
    const secondsLeft = Math.floor((envelope.e - Date.now()) / 1000);
    if (secondsLeft < 1) return undefined;
    this.#local.set(key, envelope.v, secondsLeft);
    return envelope.v;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.#local.set(key, value, ttlSeconds);
    if (!this.#redisUsable()) return;
    const names = await this.#entryNames(key);
    // PX takes whole milliseconds, at least one.
    const ttlMs = Math.max(1, Math.round(ttlSeconds * 1000));
    const envelope: Envelope = { v: value, e: Date.now() + ttlMs };
    const sealed = await seal(this.#keys.seal, JSON.stringify(envelope), names.value);
    try {
      await this.#connection.command(["SET", names.value, sealed, "PX", String(ttlMs)]);
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
    }
  }

  async delete(key: string): Promise<void> {
    this.#local.delete(key);
    if (!this.#redisUsable()) return;
    const names = await this.#entryNames(key);
    try {
      await this.#connection.command(["DEL", names.value]);
      this.#health.succeeded();
    } catch (error) {
      this.#health.failed(error);
    }
  }

  /**
   * Single flight across processes: one takes the lock and refreshes, the others
   * wait for its release message (or poll) and use what it stored. Without Redis,
   * after `maxWaitMs`, or when the lock cannot be had, the caller refreshes itself.
   */
  async coordinate<T>(key: string, work: TokenCacheCoordination<T>): Promise<T> {
    if (!this.#redisUsable()) return work.refresh();
    const names = await this.#entryNames(key);
    // Subscribed before the first look, so a release after that look is not missed.
    await this.#subscribe();
    const deadline = Date.now() + this.#maxWaitMs;
    for (;;) {
      if (work.signal?.aborted || !this.#redisUsable()) return work.refresh();
      const owner = newOwnerToken();
      let acquired: boolean;
      try {
        acquired = await acquireLock(this.#connection, names.lock, owner, this.#lockTtlMs);
        this.#health.succeeded();
      } catch (error) {
        this.#health.failed(error);
        return work.refresh();
      }
      if (acquired) return this.#refreshHoldingLock(names, owner, work);
      const found = await work.lookup();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0 || !this.#redisUsable()) return work.refresh();
      await this.#waitForRelease(names.lock, Math.min(this.#pollIntervalMs, left), work.signal);
    }
  }

  async #refreshHoldingLock<T>(
    names: EntryNames,
    owner: string,
    work: TokenCacheCoordination<T>,
  ): Promise<T> {
    // Extended while the exchange runs (retries can outlast the TTL); if this process
    // dies the renewals stop and the lock expires within lockTtlMs.
    const renewal = setInterval(
      () => {
        renewLock(this.#connection, names.lock, owner, this.#lockTtlMs).catch(() => {});
      },
      Math.max(1, Math.floor(this.#lockTtlMs / 3)),
    );
    (renewal as { unref?: () => void }).unref?.();
    try {
      // The previous holder may have stored a token between our miss and our lock.
      const found = await work.lookup();
      if (found !== undefined) return found;
      return await work.refresh();
    } finally {
      clearInterval(renewal);
      try {
        await releaseLock(this.#connection, names.lock, owner, releaseChannel(this.#prefix));
      } catch (error) {
        // Waiters then find the token by polling, or take over when the lock expires.
        this.#health.failed(error);
      }
    }
  }

  #waitForRelease(lock: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      let waiters = this.#waiters.get(lock);
      if (waiters === undefined) {
        waiters = new Set();
        this.#waiters.set(lock, waiters);
      }
      const set = waiters;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        set.delete(done);
        if (set.size === 0 && this.#waiters.get(lock) === set) this.#waiters.delete(lock);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  #onRelease(lock: string): void {
    const waiters = this.#waiters.get(lock);
    if (waiters === undefined) return;
    for (const wake of [...waiters]) wake();
  }

  /** Subscribes once; a failure leaves polling to do the work and is retried later. */
  async #subscribe(): Promise<void> {
    if (this.#subscriber !== undefined || this.#closed) return;
    if (this.#subscribing === undefined) {
      const attempt = (async () => {
        const subscriber = new RedisConnection(this.#connection.client.duplicate(), {
          timeoutMs: this.#timeoutMs,
          owned: true,
        });
        try {
          await subscriber.subscribe(releaseChannel(this.#prefix), (lock) => this.#onRelease(lock));
          if (this.#closed) await subscriber.close();
          else this.#subscriber = subscriber;
        } catch {
          await subscriber.close();
        }
      })();
      this.#subscribing = attempt;
      attempt.finally(() => {
        if (this.#subscribing === attempt) this.#subscribing = undefined;
      });
    }
    await this.#subscribing;
  }

  #redisUsable(): boolean {
    return !this.#closed && this.#health.usable();
  }

  #entryNames(key: string): Promise<EntryNames> {
    let names = this.#names.get(key);
    if (names === undefined) {
      if (this.#names.size >= 10_000) this.#names.clear();
      names = entryNames(this.#keys.name, this.#prefix, key);
      this.#names.set(key, names);
    }
    return names;
  }

  /** `true` between a failed Redis call and the next successful one. */
  get degraded(): boolean {
    return this.#health.down;
  }

  /**
   * Closes the connections the store opened (a client passed in stays open). The
   * store keeps working afterwards from its copy in memory, without Redis.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#subscribing;
    await Promise.all([this.#connection.close(), this.#subscriber?.close()]);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  toJSON(): { prefix: string } {
    return { prefix: this.#prefix };
  }

  toString(): string {
    return `RedisTokenCache(prefix=${this.#prefix})`;
  }

  [inspectCustom](): string {
    return this.toString();
  }
}

/**
 * Makes a Redis token store for one client secret and service-account key. Node.js
 * only (node-redis speaks TCP); `redis` (v5 or v6) must be installed next to
 * `@drill-practice/auth`. The connection opens on first use; nothing here waits
 * for it, so a Redis that is down at start-up costs nothing but sharing.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth";
 * import { createRedisTokenCache } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache = await createRedisTokenCache({ url: process.env.REDIS_URL, clientSecret, keyId: key.keyId });
 * const auth = serviceAccountAuth({ key, clientId: process.env.DRILL_CLIENT_ID ?? "", clientSecret, cache });
 * ```
 */
export async function createRedisTokenCache(options: RedisTokenCacheOptions): Promise<RedisTokenCache> {
  if (typeof options !== "object" || options === null)
    throw new DrillInvalidOptionError("options", "must be an object");
  const clientSecret = nonEmpty("clientSecret", options.clientSecret);
  const keyId = nonEmpty("keyId", options.keyId);
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  if (typeof prefix !== "string") throw new DrillInvalidOptionError("prefix", "must be a string");
  const d = REDIS_TOKEN_CACHE_DEFAULTS;
  const timeoutMs = positive("timeoutMs", options.timeoutMs, d.timeoutMs);
  const lockTtlMs = Math.ceil(positive("lockTtlMs", options.lockTtlMs, d.lockTtlMs));
  const pollIntervalMs = positive("pollIntervalMs", options.pollIntervalMs, d.pollIntervalMs);
  const maxWaitMs = positive("maxWaitMs", options.maxWaitMs, d.maxWaitMs);
  const retryAfterMs = positive("retryAfterMs", options.retryAfterMs, d.retryAfterMs);
  if (options.onWarning !== undefined && typeof options.onWarning !== "function") {
    throw new DrillInvalidOptionError("onWarning", "must be a function");
  }
  if ((options.url === undefined) === (options.client === undefined)) {
    throw new DrillInvalidOptionError(
      "url",
      "give either url or client (a node-redis client), not both and not neither",
    );
  }
  let client: RedisClientLike;
  let redact: string[] = [];
  if (options.url !== undefined) {
    if (typeof options.url !== "string" || !/^rediss?:\/\//.test(options.url)) {
      throw new DrillInvalidOptionError("url", "must be a redis:// or rediss:// URL");
    }
    redact = urlSecrets(options.url);
    client = await createOwnClient(options.url, timeoutMs);
  } else {
    const given = options.client as RedisClientLike;
    if (typeof given?.sendCommand !== "function" || typeof given.duplicate !== "function") {
      throw new DrillInvalidOptionError(
        "client",
        "must be a node-redis client (createClient() of the redis package)",
      );
    }
    client = given;
  }
  const warn =
    options.onWarning ??
    ((warning: TokenCacheWarning) => console.warn(`@drill-practice/auth/redis: ${warning.message}`));
  const keys = await deriveStoreKeys(clientSecret, keyId);
  return new RedisTokenCache(
    new RedisConnection(client, { timeoutMs, owned: options.url !== undefined }),
    keys,
    {
      prefix,
      timeoutMs,
      lockTtlMs,
      pollIntervalMs,
      maxWaitMs,
      health: new RedisHealth({ retryAfterMs, warn, redact }),
    },
  );
}

async function createOwnClient(url: string, timeoutMs: number): Promise<RedisClientLike> {
  let redis: typeof import("redis");
  try {
    redis = await import("redis");
  } catch (error) {
    throw new DrillInvalidOptionError(
      "url",
      `needs the redis package next to @drill-practice/auth (npm install redis): ${(error as Error).message}`,
    );
  }
  return redis.createClient({
    url,
    // Commands fail at once while the connection is down instead of queueing for a
    // Redis that may not come back: the caller falls back to its own exchange.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeoutMs,
      // Back off from 50 ms to 1 s (with jitter, so a fleet does not reconnect in step):
      // sharing resumes within about a second of Redis coming back.
      reconnectStrategy: (retries: number) =>
        Math.min(50 * 2 ** Math.min(retries, 5), 1000) + Math.floor(Math.random() * 50),
    },
  }) as unknown as RedisClientLike;
}
