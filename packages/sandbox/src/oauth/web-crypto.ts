/**
 * The few cryptographic helpers the sandbox needs, on Web Crypto only (`crypto.getRandomValues`,
 * `crypto.randomUUID`), so the same code runs in Node, Bun, Deno, Workers and browsers.
 */

/**
 * Base64url without padding (RFC 4648 §5).
 *
 * @example
 * ```ts
 * import { base64url } from "./web-crypto.js";
 *
 * base64url(new Uint8Array([251, 255])); // "-_8"
 * ```
 */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * `count` random bytes, base64url encoded: a URL-safe token (IDs, secrets, access tokens).
 *
 * @example
 * ```ts
 * import { randomToken } from "./web-crypto.js";
 *
 * const secret = randomToken(32); // 43 characters
 * ```
 */
export function randomToken(count: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(count)));
}

/**
 * A random (version 4) UUID.
 *
 * @example
 * ```ts
 * import { randomUuid } from "./web-crypto.js";
 *
 * const jti = randomUuid(); // e.g. "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed"
 * ```
 */
export function randomUuid(): string {
  return crypto.randomUUID();
}

/**
 * Compares two byte arrays in time that depends on their length only, not on where they differ.
 *
 * @example
 * ```ts
 * import { sha256 } from "./sha256.js";
 * import { sameBytes } from "./web-crypto.js";
 *
 * const given = "s3cr3t";
 * const expected = "s3cr3t";
 * sameBytes(sha256(given), sha256(expected)); // true
 * ```
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
