/**
 * Names of the Redis keys of one cache entry.
 *
 * The provider's cache key already hashes the subject together with the endpoint,
 * client and service account; here it is hashed once more with a key derived from
 * the client secret, so that the names in Redis cannot be matched against a list of
 * likely email addresses by anyone who lacks the secret.
 */
import type { webcrypto } from "node:crypto";
import { keyedDigest } from "./seal.js";

/**
 * Default prefix of every key and channel the store uses.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache, DEFAULT_REDIS_PREFIX } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * // Staging and production share one Redis: keep their keys apart.
 * const cache = await createRedisTokenCache({
 *   url: "redis://127.0.0.1:6379",
 *   clientSecret,
 *   keyId: key.keyId,
 *   prefix: `${DEFAULT_REDIS_PREFIX}staging:`,
 * });
 * ```
 */
export const DEFAULT_REDIS_PREFIX = "drill-practice:tokens:";

/**
 * The Redis names of one entry.
 */
export interface EntryNames {
  /** Key of the sealed token. */
  readonly value: string;
  /** Key of the single-flight lock. */
  readonly lock: string;
}

/**
 * Key names of the entry stored under the provider's `cacheKey`.
 */
export async function entryNames(
  nameKey: webcrypto.CryptoKey,
  prefix: string,
  cacheKey: string,
): Promise<EntryNames> {
  const digest = await keyedDigest(nameKey, cacheKey);
  return { value: `${prefix}t:${digest}`, lock: `${prefix}l:${digest}` };
}

/**
 * The pub/sub channel on which a lock holder announces that it is done; the message
 * is the entry's lock key name.
 */
export function releaseChannel(prefix: string): string {
  return `${prefix}released`;
}
