/**
 * The single-flight lock across processes: a Redis key set with `NX PX` to a random
 * owner token. Only the owner releases or extends it (compare-and-delete and
 * compare-and-expire in Lua, atomic on the server); a holder that dies simply lets it
 * expire, after at most the lock TTL.
 */
import type { RedisConnection } from "./connection.js";

// Deletes the lock only if it still holds our token, and tells the waiters in the same
// round trip; an expired lock taken over by another process is left alone.
const RELEASE_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("DEL", KEYS[1])
  redis.call("PUBLISH", ARGV[2], KEYS[1])
  return 1
end
return 0`;

// Extends the lock only if it still holds our token.
const RENEW_SCRIPT = `if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`;

/**
 * A random owner token (128 bits, base64url): proof of ownership of one acquisition.
 */
export function newOwnerToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Tries once to take the lock; `true` when this owner now holds it.
 */
export async function acquireLock(
  connection: RedisConnection,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<boolean> {
  const reply = await connection.command(["SET", name, owner, "NX", "PX", String(ttlMs)]);
  return reply === "OK";
}

/**
 * Extends the lock if this owner still holds it; `false` when it has been lost.
 */
export async function renewLock(
  connection: RedisConnection,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<boolean> {
  const reply = await connection.command(["EVAL", RENEW_SCRIPT, "1", name, owner, String(ttlMs)]);
  return Number(reply) === 1;
}

/**
 * Releases the lock if this owner still holds it and publishes its name on `channel`,
 * so the processes waiting for it look again at once; `false` when it was not ours any more.
 */
export async function releaseLock(
  connection: RedisConnection,
  name: string,
  owner: string,
  channel: string,
): Promise<boolean> {
  const reply = await connection.command(["EVAL", RELEASE_SCRIPT, "1", name, owner, channel]);
  return Number(reply) === 1;
}
