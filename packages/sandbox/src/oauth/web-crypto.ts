/**
 * The few cryptographic helpers the sandbox needs, on Web Crypto (`crypto.getRandomValues`,
 * `crypto.randomUUID`) and @noble/hashes, so the same code runs in Node, Bun, Deno, Workers and browsers.
 */
import { sha256 } from "@noble/hashes/sha2.js";

const utf8 = new TextEncoder();

/**
 * SHA-256 of a text's UTF-8 bytes, synchronously. Every bearer token a request carries is digested to
 * be looked up; `crypto.subtle.digest` would do the same work behind a promise and a trip to a worker
 * thread, which cost more than the hash itself and was the largest single cost of a request made in
 * process. @noble/hashes is plain JavaScript, so it runs wherever the sandbox does.
 */
export function sha256Text(text: string): Uint8Array {
  return sha256(utf8.encode(text));
}

/**
 * Base64url without padding (RFC 4648 §5).
 */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * `count` random bytes, base64url encoded: a URL-safe token (IDs, secrets, access tokens).
 */
export function randomToken(count: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(count)));
}

/**
 * A random (version 4) UUID.
 */
export function randomUuid(): string {
  return crypto.randomUUID();
}

/**
 * Compares two byte arrays in time that depends on their length only, not on where they differ.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
