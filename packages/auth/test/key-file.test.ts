import {
  createPrivateKey,
  generateKeyPairSync,
  createSign as nodeCreateSign,
  verify as nodeVerify,
} from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { exportPKCS8, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { type DrillError, KeyFileError, parseServiceAccountKey, ServiceAccountKey } from "../src/index.js";
import { MAX_KEY_FILE_LENGTH } from "../src/key-file.js";
import { readServiceAccountKey } from "../src/node.js";
import { KEY_ID, keyFileObject, rsaKeyPair, SERVICE_ACCOUNT_ID } from "./helpers.js";

/** Every 16-character run of the base64 body of a PEM: none may appear in a message. */
function materialFragments(pem: string): string[] {
  const body = pem
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("-----"))
    .join("");
  const fragments: string[] = [];
  for (let i = 0; i + 16 <= body.length; i += 16) fragments.push(body.slice(i, i + 16));
  return fragments;
}

async function failure(
  input: Parameters<typeof parseServiceAccountKey>[0],
  pem?: string,
): Promise<DrillError> {
  const error = await parseServiceAccountKey(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyFileError);
  const authError = error as DrillError;
  const material = pem ?? rsaKeyPair().pkcs8;
  for (const fragment of materialFragments(material)) {
    expect(authError.message).not.toContain(fragment);
    expect(String(authError.stack)).not.toContain(fragment);
  }
  return authError;
}

async function signWith(key: ServiceAccountKey, data: string): Promise<Uint8Array> {
  const signature = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    key.privateKey,
    new TextEncoder().encode(data),
  );
  return new Uint8Array(signature);
}

describe("parseServiceAccountKey: valid key files", () => {
  it("finds the private key and key type by content, whatever the field names", async () => {
    const key = await parseServiceAccountKey(keyFileObject());
    expect(key.keyId).toBe(KEY_ID);
    expect(key.serviceAccountId).toBe(SERVICE_ACCOUNT_ID);
    expect(key.keyType).toBe("RSA_2048");
    expect(key.privateKey.type).toBe("private");
    expect(key.privateKey.extractable).toBe(false);
    expect(key.privateKey.usages).toEqual(["sign"]);
    expect(key.privateKey.algorithm).toMatchObject({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048 });
    // Signatures made with the imported key verify against the matching public key.
    const signature = await signWith(key, "hello");
    expect(nodeVerify("sha256", Buffer.from("hello"), rsaKeyPair().publicKey, signature)).toBe(true);
  });

  it("accepts the key nested in an object and a file without a key-type field", async () => {
    const { material, kind: _kind, ...rest } = keyFileObject();
    const key = await parseServiceAccountKey({ ...rest, credentials: { pem: material } });
    expect(key.keyId).toBe(KEY_ID);
  });

  it("accepts JSON text, bytes and a byte-order mark", async () => {
    const text = JSON.stringify(keyFileObject());
    expect((await parseServiceAccountKey(text)).keyId).toBe(KEY_ID);
    expect((await parseServiceAccountKey(new TextEncoder().encode(text))).keyId).toBe(KEY_ID);
    expect((await parseServiceAccountKey(`\uFEFF${text}`)).keyId).toBe(KEY_ID);
  });

  it("accepts a key generated and exported by jose", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256", {
      modulusLength: 2048,
      extractable: true,
    });
    const pem = await exportPKCS8(privateKey);
    const key = await parseServiceAccountKey(keyFileObject({ material: pem }));
    const data = new TextEncoder().encode("jose");
    const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key.privateKey, data);
    expect(await crypto.subtle.verify("RSASSA-PKCS1-v1_5", publicKey, signature, data)).toBe(true);
  });

  it("accepts literal \\n sequences instead of line breaks", async () => {
    const escaped = rsaKeyPair().pkcs8.replace(/\n/g, "\\n");
    expect(escaped).not.toContain("\n");
    const key = await parseServiceAccountKey(keyFileObject({ material: escaped }));
    expect(key.keyId).toBe(KEY_ID);
    // The same through JSON text, where the file holds "\\n".
    const text = JSON.stringify(keyFileObject({ material: escaped }));
    expect((await parseServiceAccountKey(text)).keyId).toBe(KEY_ID);
  });

  it("accepts CRLF line endings", async () => {
    const crlf = rsaKeyPair().pkcs8.replace(/\n/g, "\r\n");
    expect((await parseServiceAccountKey(keyFileObject({ material: crlf }))).keyId).toBe(KEY_ID);
  });

  it("accepts PKCS#1 (BEGIN RSA PRIVATE KEY) by converting it, and signs identically", async () => {
    const pair = rsaKeyPair();
    const pkcs1 = pair.privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    expect(pkcs1).toContain("BEGIN RSA PRIVATE KEY");
    const fromPkcs1 = await parseServiceAccountKey(keyFileObject({ material: pkcs1 }));
    const fromPkcs8 = await parseServiceAccountKey(keyFileObject());
    // RSASSA-PKCS1-v1_5 is deterministic: same key, same signature.
    expect(await signWith(fromPkcs1, "x")).toEqual(await signWith(fromPkcs8, "x"));
  });

  it("picks the private key when a certificate or public key sits in another field", async () => {
    const key = await parseServiceAccountKey(keyFileObject({ publicPart: rsaKeyPair().spki }));
    expect(key.serviceAccountId).toBe(SERVICE_ACCOUNT_ID);
  });

  it("cannot be constructed directly", () => {
    const Ctor = ServiceAccountKey as unknown as new (...args: unknown[]) => unknown;
    expect(() => new Ctor(Symbol("x"), "k", "s", {})).toThrow(
      new TypeError("use parseServiceAccountKey() to create a ServiceAccountKey"),
    );
  });
});

describe("parseServiceAccountKey: the key file's JSON", () => {
  const SOURCE = "vault:drill/sa";
  async function refusal(input: Parameters<typeof parseServiceAccountKey>[0], source?: string) {
    const error = await parseServiceAccountKey(input, source === undefined ? {} : { source }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KeyFileError);
    return error as DrillError & { field?: string };
  }

  it("refuses text longer than MAX_KEY_FILE_LENGTH before parsing it", async () => {
    const text = " ".repeat(MAX_KEY_FILE_LENGTH + 1);
    const error = await refusal(text);
    expect(error.code).toBe("ERR_KEY_FILE_NOT_JSON");
    expect(error.message).toBe(
      `service account key file: is ${MAX_KEY_FILE_LENGTH + 1} characters long, far too large to be a key file`,
    );
  });

  it("accepts a key file of exactly MAX_KEY_FILE_LENGTH characters after a byte-order mark", async () => {
    const base = JSON.stringify(keyFileObject({ padding: "" }));
    const text = base.replace('"padding":""', `"padding":"${"x".repeat(MAX_KEY_FILE_LENGTH - base.length)}"`);
    expect(text).toHaveLength(MAX_KEY_FILE_LENGTH);
    expect((await parseServiceAccountKey(`\uFEFF${text}`)).keyId).toBe(KEY_ID);
  });

  it("reads a PEM whose lines end in a bare carriage return, or hold spaces inside the base64", async () => {
    const lines = rsaKeyPair().pkcs8.trim().split("\n");
    // Classic Mac OS line ends, as some editors still save them.
    const carriageReturns = lines.join("\r");
    // Base64 split inside a line, as hand-edited or re-wrapped text sometimes is.
    const inner = (lines[1] as string).length >> 1;
    const spaced = [
      lines[0],
      `${lines[1]?.slice(0, inner)} \t ${lines[1]?.slice(inner)}`,
      ...lines.slice(2),
    ].join("\n");
    for (const material of [carriageReturns, spaced]) {
      expect((await parseServiceAccountKey(keyFileObject({ material }))).keyId).toBe(KEY_ID);
    }
  });

  it("keeps a byte-order mark that is not at the start of the text", async () => {
    const keyId = "key\uFEFF3f9a";
    const key = await parseServiceAccountKey(JSON.stringify(keyFileObject({ keyId })));
    expect(key.keyId).toBe(keyId);
  });

  it("decodes bytes that are not valid UTF-8 leniently", async () => {
    const text = JSON.stringify(keyFileObject({ note: "caf@" }));
    const bytes = new TextEncoder().encode(text);
    bytes[text.indexOf("caf@") + 3] = 0xff; // a lone byte that is never valid UTF-8
    const key = await parseServiceAccountKey(bytes);
    expect(key.keyId).toBe(KEY_ID);
  });

  it("names the source in every refusal of the text", async () => {
    const where = `key file ${SOURCE}: `;
    expect((await refusal(" ".repeat(MAX_KEY_FILE_LENGTH + 1), SOURCE)).message).toBe(
      `${where}is ${MAX_KEY_FILE_LENGTH + 1} characters long, far too large to be a key file`,
    );
    expect((await refusal(" \n", SOURCE)).message).toBe(`${where}is empty; expected a JSON object`);
    expect((await refusal("{", SOURCE)).message).toBe(`${where}is not valid JSON`);
    expect((await refusal("42", SOURCE)).message).toBe(
      `${where}must be a JSON object at the top level, found a number`,
    );
    const { keyId: _keyId, ...noKeyId } = keyFileObject();
    expect(await refusal(noKeyId, SOURCE)).toMatchObject({
      source: SOURCE,
      field: "keyId",
      message: `${where}field "keyId" is missing; it must be a non-empty string (it becomes the assertion header kid)`,
    });
    const { material: _material, ...noKey } = keyFileObject();
    expect(await refusal(noKey, SOURCE)).toMatchObject({
      source: SOURCE,
      message:
        `${where}no field holds a PEM private key (text starting with -----BEGIN PRIVATE KEY-----); ` +
        "use the JSON key file issued for the service account",
    });
    expect(await refusal(keyFileObject({ material: "-----BEGIN PRIVATE KEY-----\n" }), SOURCE)).toMatchObject(
      {
        source: SOURCE,
        field: "material",
      },
    );
  });

  it("says what serviceAccountId becomes", async () => {
    expect((await refusal(keyFileObject({ serviceAccountId: "" }))).message).toBe(
      'service account key file: field "serviceAccountId" is empty; it must be a non-empty string (it becomes the assertion claim iss)',
    );
  });

  it.each([
    ["text that is not JSON", "keyId=k", ""],
    [
      "a bare PEM after blank lines",
      `\n\n${rsaKeyPair().pkcs8}`,
      "; it looks like a bare PEM, but the JSON key file (with keyId and serviceAccountId) is expected",
    ],
  ])("refuses %s with the matching hint", async (_name, text, hint) => {
    expect((await refusal(text)).message).toBe(`service account key file: is not valid JSON${hint}`);
  });

  it.each([
    ["42", "a number"],
    ["true", "a boolean"],
    ['"keyId"', "a string"],
  ])("refuses the top-level JSON value %s", async (text, found) => {
    const error = await refusal(text);
    expect(error.code).toBe("ERR_KEY_FILE_NOT_JSON");
    expect(error.message).toBe(
      `service account key file: must be a JSON object at the top level, found ${found}`,
    );
  });

  it("does not read keyId and serviceAccountId as key-type fields", async () => {
    const key = await parseServiceAccountKey(
      keyFileObject({ keyId: "EC_P256", serviceAccountId: "RSA_4096" }),
    );
    expect(key.keyId).toBe("EC_P256");
    expect(key.serviceAccountId).toBe("RSA_4096");
  });

  it("ignores extra fields that hold null, numbers or booleans", async () => {
    const key = await parseServiceAccountKey(keyFileObject({ comment: null, version: 2, active: true }));
    expect(key.keyId).toBe(KEY_ID);
  });

  it("looks inside arrays and names array elements by index", async () => {
    const { material, kind: _kind, ...rest } = keyFileObject();
    expect((await parseServiceAccountKey({ ...rest, keys: ["RSA_2048", material] })).keyId).toBe(KEY_ID);
    const error = await refusal({ ...rest, keys: [{ type: "RSA_2048" }, { type: "EC_P256" }], material });
    expect(error).toMatchObject({ code: "ERR_KEY_FILE_KEY_TYPE", field: "keys[1].type" });
    expect(error.message).toBe(
      'service account key file: field "keys[1].type" gives the key type EC_P256; only RSA_2048 keys (RS256) are supported',
    );
  });

  it("finds the key nested eight levels deep but not nine", async () => {
    const { material, kind: _kind, ...rest } = keyFileObject();
    const nest = (levels: number): unknown => {
      let value: unknown = material;
      for (let i = levels; i > 1; i--) value = { [`l${i}`]: value };
      return value;
    };
    // depth 8: l1.l2.l3.l4.l5.l6.l7.l8 holds the PEM
    expect((await parseServiceAccountKey({ ...rest, l1: nest(8) })).keyId).toBe(KEY_ID);
    expect((await refusal({ ...rest, l1: nest(9) })).code).toBe("ERR_KEY_FILE_NO_PRIVATE_KEY");
  });

  it("describes a public key in place of the private key exactly", async () => {
    const error = await refusal(keyFileObject({ material: rsaKeyPair().spki }));
    expect(error.message).toBe(
      'service account key file: field "material" holds a PUBLIC KEY (-----BEGIN PUBLIC KEY-----), not a private key; ' +
        "the key file must contain the service account's PEM private key (-----BEGIN PRIVATE KEY-----)",
    );
  });
});

describe("parseServiceAccountKey: bad key files", () => {
  it("rejects text that is not JSON without quoting it", async () => {
    const text = `{"keyId": "k", "material": "${rsaKeyPair().pkcs8.slice(0, 200)}`;
    const error = await failure(text);
    expect(error.code).toBe("ERR_KEY_FILE_NOT_JSON");
    expect(error.message).toMatch(/not valid JSON/);
  });

  it("recognises a bare PEM passed instead of the JSON file", async () => {
    const error = await failure(rsaKeyPair().pkcs8);
    expect(error.code).toBe("ERR_KEY_FILE_NOT_JSON");
    expect(error.message).toMatch(/bare PEM/);
  });

  it("rejects empty text and non-object JSON", async () => {
    expect((await failure("  ")).message).toMatch(/empty/);
    expect((await failure("[1,2]")).message).toMatch(/must be a JSON object .* an array/);
    expect((await failure("null")).message).toMatch(/null/);
  });

  it.each([
    ["keyId", undefined, /"keyId" is missing/],
    ["keyId", "", /"keyId" is empty/],
    ["keyId", 42, /"keyId" is a number/],
    ["keyId", " k ", /"keyId" has leading or trailing white space/],
    ["serviceAccountId", undefined, /"serviceAccountId" is missing/],
    ["serviceAccountId", "   ", /"serviceAccountId" is empty/],
    ["serviceAccountId", null, /"serviceAccountId" is null/],
    ["serviceAccountId", ["sa"], /"serviceAccountId" is an array/],
  ])("rejects %s = %j", async (field, value, pattern) => {
    const file: Record<string, unknown> = keyFileObject();
    if (value === undefined) delete file[field];
    else file[field] = value;
    const error = await failure(file);
    expect(error.code).toBe("ERR_KEY_FILE_FIELD");
    expect(error).toMatchObject({ field });
    expect(error.message).toMatch(pattern);
    expect(error.message).toMatch(/must be a non-empty string/);
  });

  it("rejects a file without a private key", async () => {
    const { material: _material, ...rest } = keyFileObject();
    const error = await failure(rest);
    expect(error.code).toBe("ERR_KEY_FILE_NO_PRIVATE_KEY");
    expect(error.message).toMatch(/no field holds a PEM private key/);
  });

  it("rejects several candidate private keys, naming the fields", async () => {
    const other = rsaKeyPair(2048, "other").pkcs8;
    const error = await failure(keyFileObject({ backup: other }));
    expect(error.code).toBe("ERR_KEY_FILE_AMBIGUOUS_KEY");
    expect(error).toMatchObject({ candidates: ["material", "backup"] });
    expect(error.message).toMatch(/"material", "backup"/);

    const twoInOne = await failure(keyFileObject({ material: `${rsaKeyPair().pkcs8}\n${other}` }));
    expect(twoInOne.code).toBe("ERR_KEY_FILE_AMBIGUOUS_KEY");
    expect(twoInOne.message).toMatch(/"material" holds 2 PEM private keys/);
  });

  it("rejects a public key in place of the private key", async () => {
    const error = await failure(keyFileObject({ material: rsaKeyPair().spki }));
    expect(error.code).toBe("ERR_KEY_FILE_NOT_PRIVATE_KEY");
    expect(error).toMatchObject({ field: "material", pemLabel: "PUBLIC KEY" });
    expect(error.message).toMatch(/not a private key/);
  });

  it("rejects a certificate-looking PEM in place of the private key", async () => {
    const body = Buffer.from("not really a certificate, but labelled as one ".repeat(8)).toString("base64");
    const certificate = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`;
    const error = await failure(keyFileObject({ material: certificate }));
    expect(error.code).toBe("ERR_KEY_FILE_NOT_PRIVATE_KEY");
    expect(error).toMatchObject({ pemLabel: "CERTIFICATE" });
    expect(error.message).toMatch(/holds a certificate/);
  });

  it("rejects an encrypted PKCS#8 key with the command to decrypt it", async () => {
    const encrypted = rsaKeyPair()
      .privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pass-phrase" })
      .toString();
    expect(encrypted).toContain("BEGIN ENCRYPTED PRIVATE KEY");
    const error = await failure(keyFileObject({ material: encrypted }), encrypted);
    expect(error.code).toBe("ERR_KEY_FILE_ENCRYPTED_KEY");
    expect(error.message).toContain("openssl pkey -in encrypted.pem -out key.pem");
  });

  it("rejects a legacy encrypted PKCS#1 key", async () => {
    const encrypted = rsaKeyPair()
      .privateKey.export({ type: "pkcs1", format: "pem", cipher: "aes-256-cbc", passphrase: "pass-phrase" })
      .toString();
    expect(encrypted).toMatch(/Proc-Type: 4,ENCRYPTED/);
    const error = await failure(keyFileObject({ material: encrypted }), encrypted);
    expect(error.code).toBe("ERR_KEY_FILE_ENCRYPTED_KEY");
  });

  it("rejects an EC key in PKCS#8 and in SEC1 form", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pkcs8 = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const sec1 = privateKey.export({ type: "sec1", format: "pem" }).toString();
    const { kind: _kind, ...noKind } = keyFileObject();
    const fromPkcs8 = await failure({ ...noKind, material: pkcs8 }, pkcs8);
    expect(fromPkcs8.code).toBe("ERR_KEY_FILE_KEY_TYPE");
    expect(fromPkcs8.message).toMatch(/an EC private key; only RSA keys of type RSA_2048/);
    const fromSec1 = await failure({ ...noKind, material: sec1 }, sec1);
    expect(fromSec1.code).toBe("ERR_KEY_FILE_KEY_TYPE");
    expect(fromSec1.message).toMatch(/EC PRIVATE KEY/);
  });

  it("rejects Ed25519 and RSA-PSS keys", async () => {
    const ed = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect((await failure(keyFileObject({ material: ed, kind: undefined }), ed)).message).toMatch(
      /an Ed25519/,
    );
    const pss = generateKeyPairSync("rsa-pss", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const error = await failure(keyFileObject({ material: pss }), pss);
    expect(error.code).toBe("ERR_KEY_FILE_KEY_TYPE");
    expect(error.message).toMatch(/RSASSA-PSS/);
  });

  it.each([1024, 4096])("rejects an RSA key with a %i-bit modulus", async (bits) => {
    const pem = rsaKeyPair(bits).pkcs8;
    const error = await failure(keyFileObject({ material: pem }), pem);
    expect(error.code).toBe("ERR_KEY_FILE_KEY_SIZE");
    expect(error).toMatchObject({ modulusLength: bits, field: "material" });
    expect(error.message).toMatch(
      new RegExp(`${bits}-bit modulus; key type RSA_2048 requires exactly 2048 bits`),
    );
  });

  it("rejects a key-type field that names another type", async () => {
    const error = await failure(keyFileObject({ kind: "RSA_4096" }));
    expect(error.code).toBe("ERR_KEY_FILE_KEY_TYPE");
    expect(error).toMatchObject({ field: "kind" });
    expect(error.message).toMatch(/"kind" gives the key type RSA_4096; only RSA_2048/);
    expect((await failure(keyFileObject({ kind: "EC_P256" }))).code).toBe("ERR_KEY_FILE_KEY_TYPE");
  });

  it("rejects a PEM cut off before its END line", async () => {
    const pem = rsaKeyPair().pkcs8;
    const error = await failure(keyFileObject({ material: pem.slice(0, Math.floor(pem.length / 2)) }));
    expect(error.code).toBe("ERR_KEY_FILE_MALFORMED_PEM");
    expect(error.message).toMatch(/no -----END PRIVATE KEY----- line .* truncated/);
  });

  it("rejects a PEM whose body lost lines", async () => {
    const lines = rsaKeyPair().pkcs8.trim().split("\n");
    const shortened = [...lines.slice(0, 5), ...lines.slice(-3)].join("\n");
    const error = await failure(keyFileObject({ material: shortened }));
    expect(error.code).toBe("ERR_KEY_FILE_MALFORMED_PEM");
    expect(error.message).toMatch(/DER structure|not complete base64/);
  });

  it("rejects a PEM body that is not base64 at all", async () => {
    const error = await failure(
      keyFileObject({
        material: "-----BEGIN PRIVATE KEY-----\n!!!! not base64 ????\n-----END PRIVATE KEY-----",
      }),
    );
    expect(error.code).toBe("ERR_KEY_FILE_MALFORMED_PEM");
    expect(error.message).toMatch(/not complete base64/);
  });

  it("rejects a well-formed DER that is not a private key", async () => {
    // A valid SEQUENCE { INTEGER 1 } labelled as a private key.
    const material = `-----BEGIN PRIVATE KEY-----\n${Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]).toString("base64")}\n-----END PRIVATE KEY-----`;
    const error = await failure(keyFileObject({ material }));
    expect(error.code).toBe("ERR_KEY_FILE_MALFORMED_PEM");
    expect(error.message).toMatch(/not a PKCS#8 PrivateKeyInfo/);
  });
});

describe("readServiceAccountKey", () => {
  const dir = scratchDirForAll("drill-auth-key-");

  it("reads and parses a key file", async () => {
    const path = join(dir(), "sa.json");
    await writeFile(path, JSON.stringify(keyFileObject(), null, 2));
    const key = await readServiceAccountKey(path);
    expect(key.keyId).toBe(KEY_ID);
    // The imported key signs like the original.
    const signer = nodeCreateSign("sha256").update("abc");
    const expected = new Uint8Array(signer.sign(createPrivateKey(rsaKeyPair().pkcs8)));
    expect(await signWith(key, "abc")).toEqual(expected);
  });

  it("names the path in read and parse errors", async () => {
    const missing = join(dir(), "missing.json");
    await expect(readServiceAccountKey(missing)).rejects.toMatchObject({
      code: "ERR_KEY_FILE_READ",
      source: missing,
      message: `key file ${missing}: cannot be read: no such file`,
    });
    await expect(readServiceAccountKey(dir())).rejects.toMatchObject({ code: "ERR_KEY_FILE_READ" });
    const bad = join(dir(), "bad.json");
    await writeFile(bad, JSON.stringify(keyFileObject({ keyId: "" })));
    await expect(readServiceAccountKey(bad)).rejects.toMatchObject({
      code: "ERR_KEY_FILE_FIELD",
      field: "keyId",
      message: expect.stringContaining(`key file ${bad}: field "keyId" is empty`),
    });
  });
});
