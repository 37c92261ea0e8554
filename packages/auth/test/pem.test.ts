/**
 * PEM armour and DER structure of the private key inside a key file, as a user sees
 * them through parseServiceAccountKey: which texts are accepted and, for the others,
 * the exact refusal. Bodies are built here byte by byte so each case has exactly one
 * defect.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type DrillError, KeyFileError, parseServiceAccountKey } from "../src/index.js";
import { KEY_ID, keyFileObject, rsaKeyPair } from "./helpers.js";

const PREFIX = "service account key file: ";
const DECRYPT_HINT = "decrypt it first, e.g. `openssl pkey -in encrypted.pem -out key.pem` (PKCS#8 output)";

/** DER length octets (short form below 128, else long form with the fewest bytes). */
function derLength(length: number): number[] {
  if (length < 128) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return [0x80 | bytes.length, ...bytes];
}
const tlv = (tag: number, ...content: number[][]): number[] => {
  const value = content.flat();
  return [tag, ...derLength(value.length), ...value];
};
const seq = (...content: number[][]) => tlv(0x30, ...content);
const int0 = [0x02, 0x01, 0x00];
const octets = (...content: number[][]) => tlv(0x04, ...content);
const RSA_OID = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
const NULL = [0x05, 0x00];

/** A PEM block with the given label around the given DER bytes. */
function pem(label: string, der: readonly number[]): string {
  const body = Buffer.from(der).toString("base64");
  return `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END ${label}-----\n`;
}

/** The refusal of a key file whose private key field holds `material`; never echoes the key. */
async function refusal(material: string): Promise<DrillError> {
  const error = await parseServiceAccountKey(keyFileObject({ material })).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyFileError);
  const body = rsaKeyPair().pkcs8.split("\n").slice(1, -2).join("");
  for (let i = 0; i + 16 <= body.length; i += 16) {
    expect((error as Error).message).not.toContain(body.slice(i, i + 16));
  }
  return error as DrillError;
}

async function expectRefusal(material: string, code: string, problem: string): Promise<void> {
  const error = await refusal(material);
  expect({ code: error.code, message: error.message, field: (error as { field?: string }).field }).toEqual({
    code,
    message: `${PREFIX}field "material" ${problem}`,
    field: "material",
  });
}

/** A legacy OpenSSL-encrypted PKCS#1 PEM ("Proc-Type: 4,ENCRYPTED" header). */
function legacyEncrypted(): string {
  return rsaKeyPair()
    .privateKey.export({ type: "pkcs1", format: "pem", cipher: "aes-256-cbc", passphrase: "pass-phrase" })
    .toString();
}

/** A small but mathematically valid RSA key (PKCS#1 DER) from two primes, e = 65537. */
function smallRsaKey(p: bigint, q: bigint): number[] {
  const e = 65537n;
  const inverse = (a: bigint, m: bigint): bigint => {
    let [g, x, h, y] = [a, 1n, m, 0n];
    while (h !== 0n) {
      const t = g / h;
      [g, h] = [h, g - t * h];
      [x, y] = [y, x - t * y];
    }
    return ((x % m) + m) % m;
  };
  const d = inverse(e, (p - 1n) * (q - 1n));
  const integer = (v: bigint): number[] => {
    let hex = v.toString(16);
    if (hex.length % 2 === 1) hex = `0${hex}`;
    const bytes = [...Buffer.from(hex, "hex")];
    return tlv(0x02, (bytes[0] ?? 0) & 0x80 ? [0, ...bytes] : bytes);
  };
  const parts = [0n, p * q, e, d, p, q, d % (p - 1n), d % (q - 1n), inverse(q, p)];
  return seq(...parts.map(integer));
}
const bitLength = (v: bigint) => v.toString(2).length;

describe("PEM armour", () => {
  it("ignores text before the BEGIN line, such as openssl pkcs12 bag attributes", async () => {
    const material = `Bag Attributes\n    localKeyID: 01 00 00 00\nKey Attributes: <No Attributes>\n${rsaKeyPair().pkcs8}`;
    expect((await parseServiceAccountKey(keyFileObject({ material }))).keyId).toBe(KEY_ID);
  });

  it("accepts the private key after a public key in the same field", async () => {
    const material = `${rsaKeyPair().spki}${rsaKeyPair().pkcs8}`;
    expect((await parseServiceAccountKey(keyFileObject({ material }))).keyId).toBe(KEY_ID);
  });

  it("reports a private key interrupted by another PEM block as truncated", async () => {
    const lines = rsaKeyPair().pkcs8.trim().split("\n");
    const certificate = pem("CERTIFICATE", seq(int0));
    const material = [...lines.slice(0, 4), certificate.trim(), ...lines.slice(4)].join("\n");
    await expectRefusal(
      material,
      "ERR_KEY_FILE_MALFORMED_PEM",
      "has no -----END PRIVATE KEY----- line after -----BEGIN PRIVATE KEY-----; the key looks truncated",
    );
  });

  it("reports a legacy encrypted key, also when its lines are indented (YAML block)", async () => {
    const problem = `holds an encrypted private key; ${DECRYPT_HINT}`;
    await expectRefusal(legacyEncrypted(), "ERR_KEY_FILE_ENCRYPTED_KEY", problem);
    const indented = legacyEncrypted().replace(/^/gm, "    ");
    await expectRefusal(indented, "ERR_KEY_FILE_ENCRYPTED_KEY", problem);
  });

  it.each([
    ["literal \\n sequences", "\\n"],
    ["CRLF line breaks", "\r\n"],
  ])("finds the Proc-Type header after another header with %s", async (_name, lineBreak) => {
    const withComment = legacyEncrypted().replace(
      "-----\nProc-Type",
      "-----\nComment: exported for drill\nProc-Type",
    );
    expect(withComment).toContain("Comment: exported for drill\nProc-Type");
    await expectRefusal(
      withComment.replace(/\n/g, lineBreak),
      "ERR_KEY_FILE_ENCRYPTED_KEY",
      `holds an encrypted private key; ${DECRYPT_HINT}`,
    );
  });

  it.each([
    ["a comment header", "Comment: exported for drill"],
    ["a Proc-Type look-alike", "X-Proc-Type: 4,ENCRYPTED"],
  ])("refuses %s inside the block", async (_name, header) => {
    const material = rsaKeyPair().pkcs8.replace("-----\n", `-----\n${header}\n`);
    await expectRefusal(
      material,
      "ERR_KEY_FILE_MALFORMED_PEM",
      "has unexpected header lines inside the -----BEGIN PRIVATE KEY----- block",
    );
  });

  it.each([
    ["an empty body", ""],
    ["base64 without its = padding", Buffer.from(seq(int0)).toString("base64").replace(/=+$/, "")],
    [
      "base64url instead of base64",
      rsaKeyPair().pkcs8.split("\n").slice(1, -2).join("\n").replace(/\+/g, "-").replace(/\//g, "_"),
    ],
    ["a character outside base64 mid-line", "MA.CAQE="],
  ])("refuses %s", async (_name, body) => {
    await expectRefusal(
      `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`,
      "ERR_KEY_FILE_MALFORMED_PEM",
      "has a PEM body that is not complete base64 (damaged or truncated key)",
    );
  });

  it("checks that the base64url case above really differs from the key's base64", () => {
    const body = rsaKeyPair().pkcs8.split("\n").slice(1, -2).join("");
    expect(body).toMatch(/[+/]/);
  });

  it.each([
    ["OPENSSH PRIVATE KEY", "an OpenSSH-format private key"],
    ["DSA PRIVATE KEY", "a DSA PRIVATE KEY"],
  ])("refuses a %s block by its label", async (label, kind) => {
    await expectRefusal(
      pem(label, seq(int0)),
      "ERR_KEY_FILE_KEY_TYPE",
      `holds ${kind}; an RSA 2048-bit key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----) is required`,
    );
  });
});

describe("DER structure of a PKCS#8 key (BEGIN PRIVATE KEY)", () => {
  const notPkcs8 = "is not a PKCS#8 PrivateKeyInfo structure";
  it.each([
    ["an INTEGER instead of a SEQUENCE", int0, "does not start with a DER SEQUENCE"],
    ["a byte after the outer SEQUENCE", [...seq(int0), 0x00], "has trailing bytes after the key"],
    ["an element cut after its tag", [0x30, 0x01, 0x02], "ends in the middle of an element"],
    ["an indefinite length", [0x30, 0x80, 0x00, 0x00], "has an unsupported length encoding"],
    ["a length of five bytes", [0x30, 0x85, 0, 0, 0, 0, 0], "has an unsupported length encoding"],
    ["a length cut in the middle", [0x30, 0x82, 0x01], "ends in the middle of a length"],
    [
      "content shorter than its length",
      [0x30, 0x05, 0x02, 0x01],
      "is shorter than its length fields say (truncated or damaged)",
    ],
    ["an empty SEQUENCE in long form (one length byte)", [0x30, 0x81, 0x00], notPkcs8],
    ["a SEQUENCE with a four-byte length", [0x30, 0x84, 0, 0, 0, 3, ...int0], notPkcs8],
    ["an empty SEQUENCE", seq(), notPkcs8],
    ["a SEQUENCE holding only a SEQUENCE", seq(seq()), notPkcs8],
    ["version and algorithm but no key", seq(int0, seq(RSA_OID, NULL)), notPkcs8],
    ["an INTEGER and an OCTET STRING", seq(int0, octets()), notPkcs8],
    ["a SEQUENCE and an INTEGER", seq(seq(), int0), notPkcs8],
    ["a SEQUENCE and two OCTET STRINGs", seq(seq(), octets(), octets()), notPkcs8],
    ["a BOOLEAN instead of the version", seq([0x01, 0x01, 0xff], seq(RSA_OID, NULL), octets()), notPkcs8],
    ["an OCTET STRING instead of the algorithm", seq(int0, octets(), octets()), notPkcs8],
    ["an INTEGER instead of the key", seq(int0, seq(RSA_OID, NULL), int0), notPkcs8],
    ["an empty algorithm identifier", seq(int0, seq(), octets()), "has no algorithm identifier"],
    ["a NULL instead of the algorithm OID", seq(int0, seq(NULL), octets()), "has no algorithm identifier"],
  ])("refuses %s", async (_name, der, detail) => {
    await expectRefusal(
      pem("PRIVATE KEY", der),
      "ERR_KEY_FILE_MALFORMED_PEM",
      `holds a key whose DER structure ${detail}`,
    );
  });

  it("recognises an EncryptedPrivateKeyInfo labelled PRIVATE KEY", async () => {
    await expectRefusal(
      pem("PRIVATE KEY", seq(seq(), octets())),
      "ERR_KEY_FILE_ENCRYPTED_KEY",
      `holds an encrypted PKCS#8 private key; ${DECRYPT_HINT}`,
    );
  });

  it.each([
    // 1.2.840.10040.4.1
    ["DSA", [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01], "a DSA"],
    // 2.100.3: the first two arcs share one subidentifier, 2 * 40 + 100 = 180
    ["an unregistered OID", [0x06, 0x03, 0x81, 0x34, 0x03], "an algorithm 2.100.3"],
  ])("names the algorithm of a non-RSA key (%s)", async (_name, oid, named) => {
    await expectRefusal(
      pem("PRIVATE KEY", seq(int0, seq(oid), octets())),
      "ERR_KEY_FILE_KEY_TYPE",
      `holds ${named} private key; only RSA keys of type RSA_2048 (RS256) are supported`,
    );
  });

  it("passes on Web Crypto's reason when the RSA key itself is unusable", async () => {
    await expectRefusal(
      pem("PRIVATE KEY", seq(int0, seq(RSA_OID, NULL), octets(seq(int0)))),
      "ERR_KEY_FILE_MALFORMED_PEM",
      "holds a private key that Web Crypto cannot import as an RSA key (DataError)",
    );
  });

  it("gives a small but valid RSA key a size error", async () => {
    const p = 4294967291n;
    const q = 4294967279n;
    const der = seq(int0, seq(RSA_OID, NULL), octets(smallRsaKey(p, q)));
    const error = await refusal(pem("PRIVATE KEY", der));
    expect(error).toMatchObject({ code: "ERR_KEY_FILE_KEY_SIZE", modulusLength: bitLength(p * q) });
  });
});

describe("Web Crypto refusals", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ["a plain Error", new Error("no")],
    ["a non-Error value", "no"],
  ])("adds no reason when the import fails with %s", async (_name, thrown) => {
    vi.spyOn(crypto.subtle, "importKey").mockRejectedValue(thrown);
    await expectRefusal(
      rsaKeyPair().pkcs8,
      "ERR_KEY_FILE_MALFORMED_PEM",
      "holds a private key that Web Crypto cannot import as an RSA key",
    );
  });
});

describe("DER structure of a PKCS#1 key (BEGIN RSA PRIVATE KEY)", () => {
  const ints = (n: number) => Array.from({ length: n }, () => int0);
  it.each([
    ["an INTEGER instead of a SEQUENCE", int0, "does not start with a DER SEQUENCE"],
    ["a byte after the outer SEQUENCE", [...seq(...ints(9)), 0x00], "has trailing bytes after the key"],
    [
      "content shorter than its length",
      [0x30, 0x05, 0x02, 0x01],
      "is shorter than its length fields say (truncated or damaged)",
    ],
    ["eight INTEGERs", seq(...ints(8)), "is not a PKCS#1 RSAPrivateKey structure"],
    [
      "nine elements, one an OCTET STRING",
      seq(...ints(8), octets()),
      "is not a PKCS#1 RSAPrivateKey structure",
    ],
  ])("refuses %s", async (_name, der, detail) => {
    await expectRefusal(
      pem("RSA PRIVATE KEY", der),
      "ERR_KEY_FILE_MALFORMED_PEM",
      `holds a PKCS#1 key whose DER structure ${detail}`,
    );
  });

  it.each([
    // Every length in the PKCS#8 envelope fits the short form.
    ["a 64-bit", 4294967291n, 4294967279n],
    // The PKCS#1 key is 108 bytes, so the envelope's content is exactly 128 bytes (long form).
    ["a 72-bit", 4670120407495087024057n, 3984598441410654228691n],
  ])("wraps %s key into PKCS#8 so Web Crypto reads its modulus", async (_name, p, q) => {
    const der = smallRsaKey(p, q);
    const error = await refusal(pem("RSA PRIVATE KEY", der));
    expect(error).toMatchObject({ code: "ERR_KEY_FILE_KEY_SIZE", modulusLength: bitLength(p * q) });
  });

  it("has the 108-byte key the case above relies on", () => {
    expect(smallRsaKey(4670120407495087024057n, 3984598441410654228691n)).toHaveLength(108);
  });
});
