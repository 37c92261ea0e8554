import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readPublicKeyPem } from "../../src/data/spki.js";

const pem = (key: { export(options: { type: "spki"; format: "pem" }): string | Buffer }) =>
  key.export({ type: "spki", format: "pem" }).toString();

describe("readPublicKeyPem (the data file's key check, without node:crypto)", () => {
  it("names the algorithm and the RSA modulus length as Node's own key parser does", () => {
    const cases = [
      [pem(generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey), { type: "rsa", bits: 2048 }],
      [pem(generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey), { type: "rsa", bits: 1024 }],
      [pem(generateKeyPairSync("rsa-pss", { modulusLength: 2048 }).publicKey), { type: "rsa-pss" }],
      [pem(generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey), { type: "ec" }],
      [pem(generateKeyPairSync("ed25519").publicKey), { type: "ed25519" }],
      [pem(generateKeyPairSync("x25519").publicKey), { type: "x25519" }],
    ] as const;
    for (const [text, expected] of cases) expect(readPublicKeyPem(text)).toEqual(expected);
  });

  it("refuses truncated, padded and foreign blocks", () => {
    const good = pem(generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey);
    const body = good.split("\n").slice(1, -2).join("");
    const wrap = (b64: string) => `-----BEGIN PUBLIC KEY-----\n${b64}\n-----END PUBLIC KEY-----\n`;
    expect(readPublicKeyPem(wrap(body.slice(0, 100)))).toBeUndefined();
    expect(readPublicKeyPem(wrap(`${body}AAAA`))).toBeUndefined();
    expect(readPublicKeyPem(wrap("not base64!"))).toBeUndefined();
    expect(readPublicKeyPem(good.replaceAll("PUBLIC KEY", "RSA PUBLIC KEY"))).toBeUndefined();
    expect(readPublicKeyPem("")).toBeUndefined();
  });
});
