/**
 * Parsing of the service account's JSON key file.
 *
 * The service names only two of the file's fields, `keyId` and `serviceAccountId`.
 * The file also states the key type (`RSA_2048`) and carries the private key, but the
 * names of those fields are not given, so nothing here relies on them: the private key
 * is whichever field holds a PEM private key, and the key type is whichever field has a
 * value that names a key type. The key itself is then checked to really be RSA with a
 * 2048-bit modulus.
 *
 * This module uses only Web-standard APIs (Web Crypto, `atob`); reading the file from
 * disk lives in `read-key-file.ts`.
 */
// Types only (erased at runtime): Node's declarations of the Web Crypto interfaces.
import type { webcrypto } from "node:crypto";
import { inspectCustom, REDACTED } from "@drill-practice/client/internal";
import {
  KeyFileAmbiguousKeyError,
  KeyFileEncryptedKeyError,
  type KeyFileErrorDetails,
  KeyFileFieldError,
  KeyFileKeySizeError,
  KeyFileKeyTypeError,
  KeyFileMalformedPemError,
  KeyFileMissingKeyError,
  KeyFileNotPrivateKeyError,
  KeyFileSyntaxError,
} from "./errors.js";
import {
  algorithmName,
  checkPkcs1,
  decodePemBody,
  findPemBlocks,
  inspectPkcs8,
  isPrivateKeyLabel,
  normalizePemText,
  type PemBlock,
  type PemProblem,
  pkcs1ToPkcs8,
  RSA_ENCRYPTION_OID,
} from "./pem.js";
import { assertServerRuntime } from "./runtime.js";

/**
 * The only key type the service documents.
 */
export const SUPPORTED_KEY_TYPE = "RSA_2048";
/**
 * Modulus size, in bits, of an `RSA_2048` key.
 */
export const REQUIRED_MODULUS_LENGTH = 2048;
/**
 * Key files larger than this are refused before parsing (a real one is a few kilobytes).
 */
export const MAX_KEY_FILE_LENGTH = 1024 * 1024;

type CryptoKey = webcrypto.CryptoKey;

const SIGNING_ALGORITHM = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
// A value that names a key type, such as RSA_2048 or EC_P256. Upper case only, so
// ordinary identifiers are not mistaken for one.
const KEY_TYPE_VALUE = /^(?:RSA|EC|ECDSA|DSA|ED25519|ED448|EDDSA)(?:_[A-Z0-9]+)*$/;
const NAMED_FIELDS = ["keyId", "serviceAccountId"] as const;
const MAX_DEPTH = 8;

const constructToken: unique symbol = Symbol("ServiceAccountKey");

/**
 * A parsed service account key: the two identifiers the assertion needs and the
 * private key, imported into Web Crypto as non-extractable so it cannot be exported
 * again. Printing, stringifying or inspecting the object never shows the key.
 *
 * Obtain one with {@link parseServiceAccountKey} or `readServiceAccountKey`.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey, type ServiceAccountKey } from "@drill-practice/auth";
 *
 * const key: ServiceAccountKey = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * console.log(key.keyId, key.serviceAccountId); // safe to log
 * console.log(JSON.stringify(key)); // privateKey shows as "[redacted]"
 * ```
 */
export class ServiceAccountKey {
  /** Goes into the assertion header `kid`. */
  readonly keyId: string;
  /** Goes into the assertion claim `iss` (and `sub` when the token is for the service account). */
  readonly serviceAccountId: string;
  /** The key type; always `RSA_2048` once parsing succeeded. */
  readonly keyType: typeof SUPPORTED_KEY_TYPE = SUPPORTED_KEY_TYPE;
  /** The JWS algorithm used with this key. */
  readonly algorithm = "RS256" as const;
  readonly #privateKey: CryptoKey;

  /** @internal Use {@link parseServiceAccountKey} or `readServiceAccountKey`. */
  constructor(token: typeof constructToken, keyId: string, serviceAccountId: string, privateKey: CryptoKey) {
    if (token !== constructToken)
      throw new TypeError("use parseServiceAccountKey() to create a ServiceAccountKey");
    this.keyId = keyId;
    this.serviceAccountId = serviceAccountId;
    this.#privateKey = privateKey;
  }

  /** The non-extractable Web Crypto key used to sign assertions. */
  get privateKey(): CryptoKey {
    return this.#privateKey;
  }

  /** A JSON view without key material. */
  toJSON(): {
    keyId: string;
    serviceAccountId: string;
    keyType: string;
    algorithm: string;
    privateKey: string;
  } {
    return {
      keyId: this.keyId,
      serviceAccountId: this.serviceAccountId,
      keyType: this.keyType,
      algorithm: this.algorithm,
      privateKey: REDACTED,
    };
  }

  toString(): string {
    return `ServiceAccountKey(keyId=${this.keyId}, serviceAccountId=${this.serviceAccountId}, privateKey=${REDACTED})`;
  }

  [inspectCustom](): string {
    return this.toString();
  }
}

/**
 * Whether a value is a {@link ServiceAccountKey} produced by this package.
 */
export function isServiceAccountKey(value: unknown): value is ServiceAccountKey {
  return value instanceof ServiceAccountKey;
}

/**
 * Options of {@link parseServiceAccountKey}.
 *
 * @example
 * ```ts
 * import { type ParseServiceAccountKeyOptions, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const options: ParseServiceAccountKeyOptions = { source: "vault:drill/service-account" }; // named in errors
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "", options);
 * ```
 */
export interface ParseServiceAccountKeyOptions {
  /** Where the JSON came from (a path); only used in error messages. */
  readonly source?: string;
}

/**
 * The key file as text, as raw bytes, or already parsed.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey, type ServiceAccountKeyInput } from "@drill-practice/auth";
 *
 * const input: ServiceAccountKeyInput = JSON.parse(process.env.DRILL_KEY_JSON ?? "{}"); // text, bytes or object
 * const key = await parseServiceAccountKey(input);
 * ```
 */
export type ServiceAccountKeyInput = string | Uint8Array | Readonly<Record<string, unknown>>;

/**
 * Parses and validates a service account JSON key file and imports its private key.
 *
 * Accepted private key forms: PKCS#8 (`BEGIN PRIVATE KEY`) and PKCS#1 (`BEGIN RSA
 * PRIVATE KEY`, converted to PKCS#8 on the fly), with real line breaks or with
 * literal `\n` sequences. Everything else gets a specific {@link KeyFileError}.
 *
 * @example
 * ```ts
 * import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
 *
 * const key = await parseServiceAccountKey(await (await fetch("https://secrets.example/drill-key")).text());
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key,
 * });
 * ```
 */
export async function parseServiceAccountKey(
  input: ServiceAccountKeyInput,
  options: ParseServiceAccountKeyOptions = {},
): Promise<ServiceAccountKey> {
  assertServerRuntime();
  const source = options.source;
  const json = toJsonObject(input, source);

  const keyId = requireIdentifier(json, "keyId", "the assertion header kid", source);
  const serviceAccountId = requireIdentifier(json, "serviceAccountId", "the assertion claim iss", source);

  const strings = collectStrings(json);
  checkKeyTypeFields(strings, source);
  const { field, block } = selectPrivateKey(strings, source);
  const pkcs8 = toPkcs8(block, { source, field });
  const privateKey = await importRsaKey(pkcs8, { source, field });
  return new ServiceAccountKey(constructToken, keyId, serviceAccountId, privateKey);
}

function toJsonObject(input: ServiceAccountKeyInput, source: string | undefined): Record<string, unknown> {
  let value: unknown = input;
  if (input instanceof Uint8Array) value = new TextDecoder().decode(input);
  if (typeof value === "string") {
    const text = value.replace(/^\uFEFF/, "");
    if (text.length > MAX_KEY_FILE_LENGTH) {
      throw new KeyFileSyntaxError(`is ${text.length} characters long, far too large to be a key file`, {
        source,
      });
    }
    if (text.trim() === "") throw new KeyFileSyntaxError("is empty; expected a JSON object", { source });
    try {
      value = JSON.parse(text);
    } catch {
      // The parser's own message quotes the input, which may contain the key.
      const hint = text.trimStart().startsWith("-----BEGIN")
        ? "; it looks like a bare PEM, but the JSON key file (with keyId and serviceAccountId) is expected"
        : "";
      throw new KeyFileSyntaxError(`is not valid JSON${hint}`, { source });
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new KeyFileSyntaxError(`must be a JSON object at the top level, found ${describeType(value)}`, {
      source,
    });
  }
  return value as Record<string, unknown>;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function requireIdentifier(
  json: Record<string, unknown>,
  field: (typeof NAMED_FIELDS)[number],
  use: string,
  source: string | undefined,
): string {
  const value = json[field];
  const rule = `it must be a non-empty string (it becomes ${use})`;
  if (value === undefined)
    throw new KeyFileFieldError(`field "${field}" is missing; ${rule}`, { source, field });
  if (typeof value !== "string") {
    throw new KeyFileFieldError(`field "${field}" is ${describeType(value)}; ${rule}`, { source, field });
  }
  if (value.trim() === "")
    throw new KeyFileFieldError(`field "${field}" is empty; ${rule}`, { source, field });
  if (value !== value.trim()) {
    throw new KeyFileFieldError(`field "${field}" has leading or trailing white space; ${rule} without it`, {
      source,
      field,
    });
  }
  return value;
}

interface StringLeaf {
  readonly path: string;
  readonly value: string;
}

function collectStrings(json: Record<string, unknown>): StringLeaf[] {
  const leaves: StringLeaf[] = [];
  const walk = (value: unknown, path: string, depth: number): void => {
    if (typeof value === "string") {
      leaves.push({ path, value });
    } else if (depth < MAX_DEPTH && typeof value === "object" && value !== null) {
      const entries = Array.isArray(value)
        ? value.map((item, i) => [`${path}[${i}]`, item] as const)
        : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item] as const);
      for (const [childPath, item] of entries) walk(item, childPath, depth + 1);
    }
  };
  for (const [key, value] of Object.entries(json)) {
    if (!(NAMED_FIELDS as readonly string[]).includes(key)) walk(value, key, 1);
  }
  return leaves;
}

function checkKeyTypeFields(strings: readonly StringLeaf[], source: string | undefined): void {
  for (const { path, value } of strings) {
    if (KEY_TYPE_VALUE.test(value) && value !== SUPPORTED_KEY_TYPE) {
      throw new KeyFileKeyTypeError(
        `field "${path}" gives the key type ${value}; only ${SUPPORTED_KEY_TYPE} keys (RS256) are supported`,
        { source, field: path },
      );
    }
  }
}

interface FoundBlock {
  readonly field: string;
  readonly block: PemBlock;
}

function selectPrivateKey(strings: readonly StringLeaf[], source: string | undefined): FoundBlock {
  const found: FoundBlock[] = [];
  for (const { path, value } of strings) {
    for (const block of findPemBlocks(normalizePemText(value))) found.push({ field: path, block });
  }
  const privateKeys = found.filter(({ block }) => isPrivateKeyLabel(block.label));
  if (privateKeys.length > 1) {
    const candidates = [...new Set(privateKeys.map(({ field }) => field))];
    const where =
      candidates.length === 1
        ? `field "${candidates[0]}" holds ${privateKeys.length} PEM private keys`
        : `fields ${candidates.map((c) => `"${c}"`).join(", ")} each hold a PEM private key`;
    throw new KeyFileAmbiguousKeyError(`${where}; exactly one private key is expected`, {
      source,
      field: candidates[0],
      candidates,
    });
  }
  const [only] = privateKeys;
  if (only !== undefined) return only;
  const [other] = found;
  if (other !== undefined) {
    const what = other.block.label.includes("CERTIFICATE") ? "a certificate" : `a ${other.block.label}`;
    throw new KeyFileNotPrivateKeyError(
      `field "${other.field}" holds ${what} (-----BEGIN ${other.block.label}-----), not a private key; ` +
        "the key file must contain the service account's PEM private key (-----BEGIN PRIVATE KEY-----)",
      { source, field: other.field, pemLabel: other.block.label },
    );
  }
  throw new KeyFileMissingKeyError(
    "no field holds a PEM private key (text starting with -----BEGIN PRIVATE KEY-----); " +
      "use the JSON key file issued for the service account",
    { source },
  );
}

const DECRYPT_HINT = "decrypt it first, e.g. `openssl pkey -in encrypted.pem -out key.pem` (PKCS#8 output)";

function describePemProblem(problem: PemProblem, label: string): string {
  switch (problem.kind) {
    case "encrypted":
      return `holds an encrypted private key; ${DECRYPT_HINT}`;
    case "headers":
      return `has unexpected header lines inside the -----BEGIN ${label}----- block`;
    case "base64":
      return "has a PEM body that is not complete base64 (damaged or truncated key)";
  }
}

function toPkcs8(block: PemBlock, details: KeyFileErrorDetails & { field: string }): Uint8Array {
  const { label } = block;
  const at = `field "${details.field}"`;
  if (block.truncated) {
    throw new KeyFileMalformedPemError(
      `${at} has no -----END ${label}----- line after -----BEGIN ${label}-----; the key looks truncated`,
      details,
    );
  }
  if (label === "ENCRYPTED PRIVATE KEY") {
    throw new KeyFileEncryptedKeyError(
      `${at} holds an encrypted PKCS#8 private key; ${DECRYPT_HINT}`,
      details,
    );
  }
  if (label !== "PRIVATE KEY" && label !== "RSA PRIVATE KEY") {
    const kind = label === "OPENSSH PRIVATE KEY" ? "an OpenSSH-format private key" : `a ${label}`;
    throw new KeyFileKeyTypeError(
      `${at} holds ${kind}; an RSA 2048-bit key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) is required`,
      details,
    );
  }
  const decoded = decodePemBody(block.body);
  if (!decoded.ok) {
    const message = `${at} ${describePemProblem(decoded.problem, label)}`;
    if (decoded.problem.kind === "encrypted") throw new KeyFileEncryptedKeyError(message, details);
    throw new KeyFileMalformedPemError(message, details);
  }
  if (label === "RSA PRIVATE KEY") {
    const check = checkPkcs1(decoded.der);
    if (!check.ok)
      throw new KeyFileMalformedPemError(
        `${at} holds a PKCS#1 key whose DER structure ${check.detail}`,
        details,
      );
    return pkcs1ToPkcs8(decoded.der);
  }
  const info = inspectPkcs8(decoded.der);
  if (!info.ok)
    throw new KeyFileMalformedPemError(`${at} holds a key whose DER structure ${info.detail}`, details);
  if (info.kind === "encrypted-pkcs8") {
    throw new KeyFileEncryptedKeyError(
      `${at} holds an encrypted PKCS#8 private key; ${DECRYPT_HINT}`,
      details,
    );
  }
  if (info.algorithmOid !== RSA_ENCRYPTION_OID) {
    throw new KeyFileKeyTypeError(
      `${at} holds ${withArticle(algorithmName(info.algorithmOid))} private key; ` +
        `only RSA keys of type ${SUPPORTED_KEY_TYPE} (RS256) are supported`,
      details,
    );
  }
  return decoded.der;
}

function withArticle(name: string): string {
  // Upper case: acronyms read letter by letter ("an RSA", "an X25519"); lower case: words ("an algorithm …").
  return /^[AEFHILMNORSX]|^[aeio]/.test(name) ? `an ${name}` : `a ${name}`;
}

async function importRsaKey(
  pkcs8: Uint8Array,
  details: KeyFileErrorDetails & { field: string },
): Promise<CryptoKey> {
  let key: CryptoKey;
  try {
    // Copy into a fresh ArrayBuffer: Web Crypto wants a BufferSource it owns outright.
    key = await crypto.subtle.importKey("pkcs8", pkcs8.slice().buffer, SIGNING_ALGORITHM, false, ["sign"]);
  } catch (error) {
    const reason = error instanceof Error && error.name !== "Error" ? ` (${error.name})` : "";
    throw new KeyFileMalformedPemError(
      `field "${details.field}" holds a private key that Web Crypto cannot import as an RSA key${reason}`,
      details,
    );
  }
  const modulusLength = (key.algorithm as webcrypto.RsaHashedKeyAlgorithm).modulusLength;
  if (modulusLength !== REQUIRED_MODULUS_LENGTH) {
    throw new KeyFileKeySizeError(
      `field "${details.field}" holds an RSA key with a ${modulusLength}-bit modulus; ` +
        `key type ${SUPPORTED_KEY_TYPE} requires exactly ${REQUIRED_MODULUS_LENGTH} bits`,
      { ...details, modulusLength },
    );
  }
  return key;
}
