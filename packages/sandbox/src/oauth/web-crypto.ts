/**
 * The few cryptographic helpers the sandbox needs, on Web Crypto only (`crypto.getRandomValues`,
 * `crypto.randomUUID`, `crypto.subtle`), so the same code runs in Node, Bun, Deno, Workers and browsers.
 */

/**
 * Base64url without padding (RFC 4648 §5).
 *
 * @example
 * base64url(new Uint8Array([251, 255])); // "-_8"
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
 * const secret = randomToken(32); // 43 characters
 */
export function randomToken(count: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(count)));
}

/**
 * A random (version 4) UUID.
 *
 * @example
 * const jti = randomUuid();
 */
export function randomUuid(): string {
  return crypto.randomUUID();
}

const encoder = new TextEncoder();

/**
 * SHA-256 of a string's UTF-8 bytes.
 *
 * @example
 * const digest = await sha256("token");
 */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * Compares two byte arrays in time that depends on their length only, not on where they differ.
 *
 * @example
 * sameBytes(await sha256(given), await sha256(expected));
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
