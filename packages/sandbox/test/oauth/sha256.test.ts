import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/oauth/sha256.js";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function subtleHex(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

describe("sha256 (the digest of access tokens and client credentials)", () => {
  it("gives the FIPS 180-4 example digests", () => {
    expect(hex(sha256("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(sha256(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("agrees with Web Crypto at every length around the block boundaries, and on non-ASCII text", async () => {
    const texts: string[] = [];
    for (let length = 0; length <= 200; length++) texts.push("t".repeat(length));
    texts.push("é".repeat(30), "drill ✓ 練習 🦊", "x".repeat(100_000));
    for (let i = 0; i < 50; i++) {
      texts.push(
        Array.from(crypto.getRandomValues(new Uint8Array(43)), (b) =>
          String.fromCharCode(33 + (b % 90)),
        ).join(""),
      );
    }
    for (const text of texts) expect(hex(sha256(text)), `length ${text.length}`).toBe(await subtleHex(text));
  });
});
