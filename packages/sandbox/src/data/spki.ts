/**
 * Reads the outline of a PEM public key (SubjectPublicKeyInfo, RFC 5280 §4.1.2.7): its algorithm and,
 * for RSA, the modulus length. Plain DER reading with Web APIs only, so a data file given as an object
 * is checked the same way in every runtime, synchronously, before any key is imported.
 */
import {
  type DerElement,
  derChildren,
  derObjectIdentifier,
  readDerElement,
} from "@drill-practice/client/internal";

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

function unsignedBits(der: Uint8Array, { valueStart, end }: DerElement): number {
  let at = valueStart;
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
    const info = readDerElement(der, 0, der.length);
    if (info.tag !== 0x30 || info.end !== der.length) return undefined;
    const [algorithm, key, ...rest] = derChildren(der, info);
    if (algorithm?.tag !== 0x30 || key?.tag !== 0x03 || rest.length > 0) return undefined;
    const oid = readDerElement(der, algorithm.valueStart, algorithm.end);
    if (oid.tag !== 0x06 || oid.end === oid.valueStart || der[key.valueStart] !== 0) return undefined;
    const type = ALGORITHMS[derObjectIdentifier(der, oid)] ?? "unknown";
    if (type !== "rsa") return { type };
    const rsa = readDerElement(der, key.valueStart + 1, key.end);
    if (rsa.tag !== 0x30) return undefined;
    const [modulus, exponent, ...more] = derChildren(der, rsa);
    if (modulus?.tag !== 0x02 || exponent?.tag !== 0x02 || more.length > 0) return undefined;
    return { type, bits: unsignedBits(der, modulus) };
  } catch {
    return undefined;
  }
}
