/**
 * verifyAssertion on its own: every rule of the token exchange's assertion, each at
 * its edge. A client author sees these as the `error_description` of a 400
 * invalid_grant, so each failure must name the rule it broke. Times are derived from
 * the sandbox's stated limits (MAX_ASSERTION_LIFETIME_SECONDS, CLOCK_LEEWAY_SECONDS).
 */
import { CompactSign, generateKeyPair, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AssertionContext,
  CLOCK_LEEWAY_SECONDS,
  MAX_ASSERTION_LIFETIME_SECONDS,
  verifyAssertion,
} from "../../src/oauth/assertion.js";
import { ServiceAccount } from "../../src/oauth/credentials.js";

const NOW = 1_800_000_000;
const AUDIENCE = "http://127.0.0.1:4010/daas/oauth/token";
const ACCOUNT_ID = "svc-1";
const KEY_ID = "key-1";
const MANAGED = { "ana@example.test": "user-ana", "hr-7": "user-dieter" } as Record<string, string>;

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let privateKey: PrivateKey;
let otherPrivateKey: PrivateKey;
let ctx: AssertionContext;
const resolved: [string, string][] = [];

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { modulusLength: 2048 });
  const other = await generateKeyPair("RS256", { modulusLength: 2048 });
  privateKey = pair.privateKey;
  otherPrivateKey = other.privateKey;
  const account = new ServiceAccount({
    organizationId: "org-1",
    serviceAccountId: ACCOUNT_ID,
    keyId: KEY_ID,
    publicKey: pair.publicKey,
    privateKeyPem: undefined,
  });
  ctx = {
    accounts: [account],
    audiences: [AUDIENCE, `${AUDIENCE}/`],
    nowSeconds: NOW,
    resolveUser(subject, serviceAccountId) {
      resolved.push([subject, serviceAccountId]);
      return serviceAccountId === ACCOUNT_ID ? MANAGED[subject] : undefined;
    },
  };
});

const goodClaims = () => ({ iss: ACCOUNT_ID, sub: ACCOUNT_ID, aud: AUDIENCE, exp: NOW + 300 });
const goodHeader = () => ({ alg: "RS256", typ: "JWT", kid: KEY_ID });

function sign(
  claims: Record<string, unknown> = goodClaims(),
  header: Record<string, unknown> = goodHeader(),
  key = privateKey,
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
}

async function rejection(assertion: string | Promise<string>): Promise<string> {
  const result = await verifyAssertion(await assertion, ctx);
  if (result.ok) throw new Error("expected the assertion to be refused");
  return result.description;
}

const base64url = (text: string) => Buffer.from(text).toString("base64url");

describe("verifyAssertion accepts", () => {
  it("the service account acting as itself, without asking who the subject is", async () => {
    resolved.length = 0;
    const result = await verifyAssertion(await sign(), ctx);
    expect(result).toMatchObject({ ok: true, userId: ACCOUNT_ID });
    expect(result.ok && result.account.keyId).toBe(KEY_ID);
    expect(resolved).toEqual([]);
  });

  it.each(Object.entries(MANAGED))("a managed user named by %s", async (subject, userId) => {
    resolved.length = 0;
    const result = await verifyAssertion(await sign({ ...goodClaims(), sub: subject }), ctx);
    expect(result).toMatchObject({ ok: true, userId });
    expect(resolved).toEqual([[subject, ACCOUNT_ID]]);
  });

  it("any advertised audience, alone or in an array", async () => {
    for (const aud of [`${AUDIENCE}/`, ["https://elsewhere.example", AUDIENCE], [42, `${AUDIENCE}/`]]) {
      expect((await verifyAssertion(await sign({ ...goodClaims(), aud }), ctx)).ok, JSON.stringify(aud)).toBe(
        true,
      );
    }
  });
});

describe("verifyAssertion: exp and nbf at their edges", () => {
  const expiredAt = NOW - CLOCK_LEEWAY_SECONDS;
  const latest = NOW + MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_LEEWAY_SECONDS;

  it("accepts exp just inside the leeway and refuses it at the edge", async () => {
    expect((await verifyAssertion(await sign({ ...goodClaims(), exp: expiredAt + 1 }), ctx)).ok).toBe(true);
    expect(await rejection(sign({ ...goodClaims(), exp: expiredAt }))).toBe(
      "assertion claim exp: lies in the past (the assertion has expired)",
    );
  });

  it("accepts exp at the longest lifetime plus leeway and refuses one second more", async () => {
    expect((await verifyAssertion(await sign({ ...goodClaims(), exp: latest }), ctx)).ok).toBe(true);
    expect(await rejection(sign({ ...goodClaims(), exp: latest + 1 }))).toBe(
      `assertion claim exp: must be at most ${MAX_ASSERTION_LIFETIME_SECONDS} seconds ahead`,
    );
  });

  it("refuses a missing, non-numeric or infinite exp", async () => {
    const { exp: _dropped, ...noExp } = goodClaims();
    // 1e999 is valid JSON that parses to Infinity: not a time, however far ahead.
    const infinite = new TextEncoder().encode(
      JSON.stringify(goodClaims()).replace(/"exp":\d+/, '"exp":1e999'),
    );
    const assertions = [
      sign(noExp),
      sign({ ...goodClaims(), exp: String(NOW + 60) }),
      new CompactSign(infinite).setProtectedHeader(goodHeader()).sign(privateKey),
    ];
    for (const assertion of assertions) {
      expect(await rejection(assertion)).toBe("assertion claim exp: is required, as seconds since the epoch");
    }
  });

  it("accepts nbf up to the leeway ahead, refuses it beyond, and ignores a non-numeric nbf", async () => {
    const nbfEdge = NOW + CLOCK_LEEWAY_SECONDS;
    expect((await verifyAssertion(await sign({ ...goodClaims(), nbf: nbfEdge }), ctx)).ok).toBe(true);
    expect(await rejection(sign({ ...goodClaims(), nbf: nbfEdge + 1 }))).toBe(
      "assertion claim nbf: lies in the future (the assertion is not valid yet)",
    );
    expect((await verifyAssertion(await sign({ ...goodClaims(), nbf: String(nbfEdge + 100) }), ctx)).ok).toBe(
      true,
    );
  });
});

describe("verifyAssertion refuses, naming the rule", () => {
  it("anything but three base64url parts", async () => {
    const good = await sign();
    const message =
      "assertion: must be a JWT in compact serialization (three base64url parts separated by dots)";
    for (const bad of [
      "",
      "abc.def",
      `${good}.x`,
      ` ${good}`,
      `${good} `,
      good.replace(".", "+."),
      `=${good}`,
    ]) {
      expect(await rejection(bad), JSON.stringify(bad.slice(0, 12))).toBe(message);
    }
  });

  it("a header that is not base64url JSON", async () => {
    const [, payload, signature] = (await sign()).split(".");
    expect(await rejection(`${base64url("not json")}.${payload}.${signature}`)).toBe(
      "assertion header: not base64url-encoded JSON",
    );
  });

  it("an algorithm other than RS256, quoting at most 40 characters of it", async () => {
    const [, payload, signature] = (await sign()).split(".");
    const withHeader = (header: object) => `${base64url(JSON.stringify(header))}.${payload}.${signature}`;
    expect(await rejection(withHeader({ ...goodHeader(), alg: "HS256" }))).toBe(
      'assertion header alg: must be "RS256" (got "HS256")',
    );
    const { alg: _dropped, ...noAlg } = goodHeader();
    expect(await rejection(withHeader(noAlg))).toBe('assertion header alg: must be "RS256" (got missing)');
    expect(await rejection(withHeader({ ...goodHeader(), alg: 256 }))).toBe(
      'assertion header alg: must be "RS256" (got missing)',
    );
    const long = "X".repeat(100);
    expect(await rejection(withHeader({ ...goodHeader(), alg: long }))).toBe(
      `assertion header alg: must be "RS256" (got ${JSON.stringify(long).slice(0, 40)})`,
    );
  });

  it("a typ other than JWT, and a missing, empty or unknown kid", async () => {
    expect(await rejection(sign(goodClaims(), { ...goodHeader(), typ: "at+jwt" }))).toBe(
      'assertion header typ: must be "JWT"',
    );
    const { kid: _dropped, ...noKid } = goodHeader();
    for (const header of [noKid, { ...goodHeader(), kid: "" }, { ...goodHeader(), kid: 7 }]) {
      expect(await rejection(sign(goodClaims(), header))).toBe("assertion header kid: is required");
    }
    expect(await rejection(sign(goodClaims(), { ...goodHeader(), kid: "key-2" }))).toBe(
      "assertion header kid: does not name the key of a service account",
    );
  });

  it("a signature made with another key", async () => {
    expect(await rejection(sign(goodClaims(), goodHeader(), otherPrivateKey))).toBe(
      "assertion signature: does not verify with the public key named by kid",
    );
  });

  it("claims that are not a JSON object", async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    // Valid claims except for one byte that is not UTF-8, inside a string: decoded leniently
    // it would become U+FFFD and pass as JSON, so only a strict decoder refuses it here.
    const claims = encode(JSON.stringify({ ...goodClaims(), sub: "@" }));
    const at = claims.indexOf("@".charCodeAt(0));
    claims[at] = 0xff;
    const payloads = [
      encode("[1,2]"),
      encode("not json"),
      new Uint8Array([0xff, 0xfe]),
      claims,
      // JSON, but not an object: each must be refused as a whole, not read as claims.
      ...["null", "42", '"svc-1"', "true"].map(encode),
    ];
    for (const payload of payloads) {
      const jws = await new CompactSign(payload).setProtectedHeader(goodHeader()).sign(privateKey);
      expect(await rejection(jws)).toBe("assertion claims: not a JSON object");
    }
  });

  it("an issuer other than the key's service account", async () => {
    for (const iss of ["svc-2", undefined]) {
      expect(await rejection(sign({ ...goodClaims(), iss }))).toBe(
        "assertion claim iss: must be the ID of the service account that owns the key named by kid",
      );
    }
  });

  it("a missing, empty or unknown subject", async () => {
    const { sub: _dropped, ...noSub } = goodClaims();
    for (const claims of [noSub, { ...goodClaims(), sub: "" }, { ...goodClaims(), sub: 5 }]) {
      expect(await rejection(sign(claims))).toBe("assertion claim sub: is required");
    }
    expect(await rejection(sign({ ...goodClaims(), sub: "stranger@example.test" }))).toMatch(
      /^assertion claim sub: must be the service account itself or a user/,
    );
  });

  it("every audience when none is advertised, with a message that does not end in a space", async () => {
    const result = await verifyAssertion(await sign(), { ...ctx, audiences: [] });
    expect(result).toEqual({ ok: false, description: "assertion claim aud: must be the token endpoint URI" });
  });

  it("an audience that is not the token endpoint, naming the endpoint", async () => {
    const { aud: _dropped, ...noAud } = goodClaims();
    for (const claims of [
      noAud,
      { ...goodClaims(), aud: "https://elsewhere.example" },
      { ...goodClaims(), aud: [] },
    ]) {
      expect(await rejection(sign(claims))).toBe(
        `assertion claim aud: must be the token endpoint URI ${AUDIENCE}`,
      );
    }
  });
});
