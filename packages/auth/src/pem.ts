/**
 * Just enough PEM and DER handling to find a private key in a string, tell what kind
 * of key it is, and hand PKCS#8 bytes to Web Crypto. Nothing here ever puts key bytes
 * into an error; callers turn the `PemProblem` results into key-file errors.
 */
import {
  derChildren,
  derObjectIdentifier,
  derProblem,
  readDerElement,
} from "@drill-practice/client/internal";

/**
 * One `-----BEGIN X-----` block found in a string.
 */
export interface PemBlock {
  /** The label between `BEGIN ` and the dashes, e.g. `PRIVATE KEY`. */
  readonly label: string;
  /** Text between the BEGIN line and the END line (or the end of the input when truncated). */
  readonly body: string;
  /** True when no matching END line follows. */
  readonly truncated: boolean;
}

const BEGIN = /-----BEGIN ([A-Z0-9 ]+)-----/g;

/**
 * Undoes JSON-in-JSON and environment-variable damage: literal `\n` (backslash, n)
 * sequences become real line breaks and CRLF becomes LF.
 */
export function normalizePemText(text: string): string {
  return text.replace(/\\r\\n|\\n|\\r/g, "\n").replace(/\r\n?/g, "\n");
}

/**
 * Finds all PEM blocks in a string (after {@link normalizePemText}).
 */
export function findPemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const starts = [...text.matchAll(BEGIN)];
  starts.forEach((match, index) => {
    const label = match[1] as string; // the group is not optional
    const bodyStart = (match.index ?? 0) + match[0].length;
    const nextBegin = starts[index + 1]?.index ?? text.length;
    const endLine = `-----END ${label}-----`;
    const end = text.indexOf(endLine, bodyStart);
    const truncated = end === -1 || end > nextBegin;
    blocks.push({ label, body: text.slice(bodyStart, truncated ? nextBegin : end), truncated });
  });
  return blocks;
}

/**
 * Labels that announce a private key of some kind.
 */
export function isPrivateKeyLabel(label: string): boolean {
  return label.endsWith("PRIVATE KEY");
}

/**
 * Why a PEM body could not be turned into usable bytes.
 */
export type PemProblem = { kind: "encrypted" } | { kind: "headers" } | { kind: "base64" };

/**
 * Result of decoding a PEM body.
 */
export type DecodedPem = { ok: true; der: Uint8Array } | { ok: false; problem: PemProblem };

/**
 * Decodes the base64 body of a PEM block. Legacy `Proc-Type`/`DEK-Info` headers are
 * recognised so an OpenSSL-encrypted PKCS#1 key is reported as encrypted, not as junk.
 */
export function decodePemBody(body: string): DecodedPem {
  const lines = body.split("\n").map((line) => line.trim());
  const headers = lines.filter((line) => line.includes(":"));
  if (headers.some((line) => /^Proc-Type:.*ENCRYPTED/i.test(line))) {
    return { ok: false, problem: { kind: "encrypted" } };
  }
  if (headers.length > 0) return { ok: false, problem: { kind: "headers" } };
  const base64 = lines.join("").replace(/\s+/g, "");
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    return { ok: false, problem: { kind: "base64" } };
  }
  const binary = atob(base64);
  return { ok: true, der: Uint8Array.from(binary, (char) => char.charCodeAt(0)) };
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OID = 0x06;
const OCTET_STRING = 0x04;

/**
 * Object identifier of `rsaEncryption`, the algorithm of a plain RSA key.
 */
export const RSA_ENCRYPTION_OID = "1.2.840.113549.1.1.1";

const ALGORITHM_NAMES: Record<string, string> = {
  [RSA_ENCRYPTION_OID]: "RSA",
  "1.2.840.113549.1.1.10": "RSASSA-PSS",
  "1.2.840.10045.2.1": "EC",
  "1.3.101.110": "X25519",
  "1.3.101.111": "X448",
  "1.3.101.112": "Ed25519",
  "1.3.101.113": "Ed448",
  "1.2.840.10040.4.1": "DSA",
  "1.2.840.113549.1.3.1": "DH",
  "1.2.840.113549.1.5.13": "PBES2 (encrypted)",
};

/**
 * Human name of a key algorithm object identifier.
 */
export function algorithmName(oid: string): string {
  return ALGORITHM_NAMES[oid] ?? `algorithm ${oid}`;
}

/**
 * What the outer structure of a DER private key says.
 */
export type Pkcs8Info =
  | { ok: true; kind: "pkcs8"; algorithmOid: string }
  | { ok: true; kind: "encrypted-pkcs8" }
  | { ok: false; detail: string };

/**
 * Reads the outer structure of a PKCS#8 `PrivateKeyInfo` and returns its algorithm.
 * An `EncryptedPrivateKeyInfo` (which has no version number) is recognised too.
 */
export function inspectPkcs8(der: Uint8Array): Pkcs8Info {
  try {
    const outer = readDerElement(der, 0, der.length);
    if (outer.tag !== SEQUENCE) return { ok: false, detail: "does not start with a DER SEQUENCE" };
    if (outer.end !== der.length) return { ok: false, detail: "has trailing bytes after the key" };
    const [first, second, third] = derChildren(der, outer);
    if (first?.tag === SEQUENCE && second?.tag === OCTET_STRING && third === undefined) {
      return { ok: true, kind: "encrypted-pkcs8" };
    }
    if (first?.tag !== INTEGER || second?.tag !== SEQUENCE || third?.tag !== OCTET_STRING) {
      return { ok: false, detail: "is not a PKCS#8 PrivateKeyInfo structure" };
    }
    const [oid] = derChildren(der, second);
    if (oid?.tag !== OID) return { ok: false, detail: "has no algorithm identifier" };
    return { ok: true, kind: "pkcs8", algorithmOid: derObjectIdentifier(der, oid) };
  } catch (error) {
    const detail = derProblem(error);
    if (detail === undefined) throw error;
    return { ok: false, detail };
  }
}

/**
 * Result of checking a PKCS#1 `RSAPrivateKey`.
 */
export type Pkcs1Check = { ok: true } | { ok: false; detail: string };

/**
 * Checks that DER bytes are a complete PKCS#1 `RSAPrivateKey` (a SEQUENCE of nine INTEGERs).
 */
export function checkPkcs1(der: Uint8Array): Pkcs1Check {
  try {
    const outer = readDerElement(der, 0, der.length);
    if (outer.tag !== SEQUENCE) return { ok: false, detail: "does not start with a DER SEQUENCE" };
    if (outer.end !== der.length) return { ok: false, detail: "has trailing bytes after the key" };
    const parts = derChildren(der, outer);
    if (parts.length < 9 || parts.some((part) => part.tag !== INTEGER)) {
      return { ok: false, detail: "is not a PKCS#1 RSAPrivateKey structure" };
    }
    return { ok: true };
  } catch (error) {
    const detail = derProblem(error);
    if (detail === undefined) throw error;
    return { ok: false, detail };
  }
}

function encodeLength(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return [0x80 | bytes.length, ...bytes];
}

function encodeTlv(tag: number, value: Uint8Array): Uint8Array {
  const header = [tag, ...encodeLength(value.length)];
  const out = new Uint8Array(header.length + value.length);
  out.set(header, 0);
  out.set(value, header.length);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// version 0, AlgorithmIdentifier { rsaEncryption, NULL }
const PKCS8_RSA_PREFIX = new Uint8Array([
  0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
]);

/**
 * Wraps a PKCS#1 `RSAPrivateKey` into a PKCS#8 `PrivateKeyInfo`, which is what Web
 * Crypto imports. The key itself is unchanged; only the envelope is added.
 */
export function pkcs1ToPkcs8(pkcs1: Uint8Array): Uint8Array {
  return encodeTlv(SEQUENCE, concat(PKCS8_RSA_PREFIX, encodeTlv(OCTET_STRING, pkcs1)));
}
