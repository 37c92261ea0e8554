/**
 * Encryption at rest of the values the Redis token store writes.
 *
 * Two keys come out of one HKDF: an AES-256-GCM key that seals values and an HMAC key
 * that names them. Both are bound to the client secret (input key material) and the
 * service account's key ID (salt), so whoever reads Redis without the client secret
 * learns nothing, and values written for another key or another client do not open.
 * Web Crypto only: the same code runs wherever the rest of the package runs.
 */

import type { webcrypto } from "node:crypto";

type CryptoKey = webcrypto.CryptoKey;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Format tag of sealed values; a value with another tag is not ours and is ignored. */
const SEAL_VERSION = "v1";
const IV_BYTES = 12;

/**
 * The keys of one store: `seal` encrypts values, `name` makes key names.
 */
export interface StoreKeys {
  readonly seal: CryptoKey;
  readonly name: CryptoKey;
}

/**
 * Derives the store keys from the client secret and the service account's key ID.
 * The keys are not extractable: nothing but Web Crypto ever sees their bytes.
 */
export async function deriveStoreKeys(clientSecret: string, keyId: string): Promise<StoreKeys> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(clientSecret), "HKDF", false, [
    "deriveKey",
  ]);
  const hkdf = (purpose: string) => ({
    name: "HKDF",
    hash: "SHA-256",
    salt: encoder.encode(`drill-practice token store\u0000${keyId}`),
    info: encoder.encode(`drill-practice token store ${SEAL_VERSION} ${purpose}`),
  });
  const [seal, name] = await Promise.all([
    crypto.subtle.deriveKey(hkdf("seal"), material, { name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]),
    crypto.subtle.deriveKey(hkdf("name"), material, { name: "HMAC", hash: "SHA-256", length: 256 }, false, [
      "sign",
    ]),
  ]);
  return { seal, name };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// Backed by a plain ArrayBuffer, as Web Crypto's BufferSource requires under every lib setting.
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = new Uint8Array(new ArrayBuffer(binary.length));
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/**
 * HMAC-SHA-256 of a text under the naming key, base64url: a stable name that says
 * nothing about the text to whoever lacks the key.
 */
export async function keyedDigest(key: CryptoKey, text: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(text));
  return toBase64Url(new Uint8Array(mac));
}

/**
 * Encrypts `plaintext` with a fresh random IV. `context` (the Redis key name) is
 * authenticated too, so a value copied under another key does not open.
 */
export async function seal(key: CryptoKey, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
    key,
    encoder.encode(plaintext),
  );
  return `${SEAL_VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ciphertext))}`;
}

/**
 * Decrypts a value written by {@link seal}; `undefined` for anything that was not
 * sealed under this key and context, or was changed since (GCM authenticates it).
 */
export async function unseal(key: CryptoKey, sealed: unknown, context: string): Promise<string | undefined> {
  if (typeof sealed !== "string") return undefined;
  const parts = sealed.split(".");
  if (parts.length !== 3 || parts[0] !== SEAL_VERSION) return undefined;
  const iv = fromBase64Url(parts[1] as string);
  const ciphertext = fromBase64Url(parts[2] as string);
  if (iv?.length !== IV_BYTES || ciphertext === undefined) return undefined;
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
      key,
      ciphertext,
    );
    return decoder.decode(plaintext);
  } catch {
    return undefined;
  }
}
