/**
 * Reads the outline of a PEM public key (SubjectPublicKeyInfo, RFC 5280 §4.1.2.7): its algorithm and,
 * for RSA, the modulus length. Plain DER reading with Web APIs only, so a data file given as an object
 * is checked the same way in every runtime, synchronously, before any key is imported.
 */

const ALGORITHMS: Readonly<Record<string, string>> = {
  "1.2.840.113549.1.1.1": "rsa",
  "1.2.840.113549.1.1.10": "rsa-pss",
  "1.2.840.10045.2.1": "ec",
  "1.2.840.10040.4.1": "dsa",
  "1.2.840.10046.2.1": "dh",
  "1.3.101.110": "x25519",
  "1.3.101.111": "x448",
  "1.3.101.112": "ed25519",
  "1.3.101.113": "ed448",
};

/**
 * What a public key is: its algorithm name (`rsa`, `ec`, `ed25519`, …, `unknown`) and, for RSA, the
 * modulus length in bits.
 */
export interface PublicKeyOutline {
  readonly type: string;
  readonly bits?: number;
}

interface Element {
  readonly tag: number;
  readonly start: number;
  readonly end: number;
}

/** One DER element at `at`, within `limit`; throws on anything malformed. */
function element(der: Uint8Array, at: number, limit: number): Element {
  if (at + 2 > limit) throw new Error("truncated");
  const tag = der[at] as number;
  let length = der[at + 1] as number;
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || start + count > limit) throw new Error("bad length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] as number);
    start += count;
  }
  const end = start + length;
  if (end > limit) throw new Error("truncated");
  return { tag, start, end };
}

function objectIdentifier(der: Uint8Array, { start, end }: Element): string {
  const first = der[start] as number;
  const parts = [Math.floor(first / 40), first % 40];
  let value = 0;
  for (let i = start + 1; i < end; i++) {
    const byte = der[i] as number;
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}

function unsignedBits(der: Uint8Array, { start, end }: Element): number {
  let at = start;
  while (at < end && der[at] === 0) at++;
  if (at === end) return 0;
  return (end - at - 1) * 8 + (32 - Math.clz32(der[at] as number));
}

/**
 * The outline of a PEM `PUBLIC KEY` block, or `undefined` when the text is not a readable one.
 */
export function readPublicKeyPem(pem: string): PublicKeyOutline | undefined {
  const match = /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]*)-----END PUBLIC KEY-----/.exec(pem);
  if (!match) return undefined;
  let der: Uint8Array;
  try {
    der = Uint8Array.from(atob((match[1] ?? "").replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
  try {
    const info = element(der, 0, der.length);
    if (info.tag !== 0x30 || info.end !== der.length) return undefined;
    const algorithm = element(der, info.start, info.end);
    if (algorithm.tag !== 0x30) return undefined;
    const oid = element(der, algorithm.start, algorithm.end);
    if (oid.tag !== 0x06 || oid.end === oid.start) return undefined;
    const key = element(der, algorithm.end, info.end);
    if (key.tag !== 0x03 || key.end !== info.end || der[key.start] !== 0) return undefined;
    const type = ALGORITHMS[objectIdentifier(der, oid)] ?? "unknown";
    if (type !== "rsa") return { type };
    const rsa = element(der, key.start + 1, key.end);
    if (rsa.tag !== 0x30) return undefined;
    const modulus = element(der, rsa.start, rsa.end);
    const exponent = element(der, modulus.end, rsa.end);
    if (modulus.tag !== 0x02 || exponent.tag !== 0x02 || exponent.end !== rsa.end) return undefined;
    return { type, bits: unsignedBits(der, modulus) };
  } catch {
    return undefined;
  }
}
