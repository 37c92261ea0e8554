/**
 * `@drill-practice/auth/redis`: a token cache in Redis, shared by processes, sealed at
 * rest, with single flight across processes. Node.js only; needs the `redis` package
 * (node-redis v5 or v6) installed next to `@drill-practice/auth`.
 *
 * @example
 * ```ts
 * import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 * import { createRedisTokenCache } from "@drill-practice/auth/redis";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const clientSecret = process.env.DRILL_CLIENT_SECRET ?? "";
 * const cache = await createRedisTokenCache({ url: "redis://127.0.0.1:6379", clientSecret, keyId: key.keyId });
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret,
 *   key,
 *   cache,
 * });
 * ```
 *
 * @packageDocumentation
 */
export type { RedisClientLike } from "./connection.js";
export { TokenCacheTamperedError, TokenCacheUnavailableError, type TokenCacheWarning } from "./errors.js";
export { DEFAULT_REDIS_PREFIX } from "./key-names.js";
export {
  createRedisTokenCache,
  REDIS_TOKEN_CACHE_DEFAULTS,
  RedisTokenCache,
  type RedisTokenCacheOptions,
} from "./store.js";
