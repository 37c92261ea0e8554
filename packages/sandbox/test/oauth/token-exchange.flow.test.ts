import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  type AssertionParts,
  client,
  DOOR,
  GRANT,
  httpOnly,
  sharedSandbox,
  signAssertion,
  start,
  type TestSandbox,
  tokenRequest,
} from "../support/helpers.js";
import { rawRequest } from "../support/raw-http.js";

const shared = sharedSandbox();

/** The token endpoint's path on another host: no aud for this sandbox. */
const OTHER_HOST_TOKEN_ENDPOINT = "https://drill.example/daas/oauth/token";

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The token endpoint's error body: the service's `id`/`description` and OAuth's `error`/`error_description`, alike. */
function oauthError(id: string, description: string) {
  return { id, description, error: id, error_description: description };
}

/** The exchange's form, every field given once, for `assertion`. */
function exchangeForm(sandbox: TestSandbox, assertion: string): URLSearchParams {
  const { clientId, clientSecret } = sandbox.credentials;
  return new URLSearchParams({
    grant_type: GRANT,
    client_id: clientId,
    client_secret: clientSecret,
    assertion,
  });
}

async function expectGrantRefused(sandbox: TestSandbox, assertion: string, rule: RegExp) {
  const { status, body } = await tokenRequest(sandbox, { assertion });
  expect(status).toBe(400);
  expect(body.id).toBe("invalid_grant");
  expect(body.description).toMatch(rule);
  expect(body.error).toBe("invalid_grant");
  expect(body.error_description).toBe(body.description);
  expect(JSON.stringify(body)).not.toContain(assertion);
  return body;
}

describe("discovery", () => {
  it("advertises the token endpoint built from the Host the client used", async () => {
    const sandbox = shared();
    const res = await sandbox.fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: sandbox.url,
      token_endpoint: `${sandbox.url}/daas/oauth/token`,
    });

    if (DOOR !== "http") return; // In process, there is no other host to address it by.
    const port = new URL(sandbox.url).port;
    const viaLocalhost = await fetch(`http://localhost:${port}/.well-known/oauth-authorization-server`).catch(
      () => undefined,
    );
    // Only where localhost resolves to 127.0.0.1 (it may resolve to ::1 first and not connect).
    if (viaLocalhost) {
      expect(((await viaLocalhost.json()) as { token_endpoint: string }).token_endpoint).toBe(
        `http://localhost:${port}/daas/oauth/token`,
      );
    }
  });

  httpOnly("refuses query parameters and bodies, like every other operation", async () => {
    const url = `${shared().url}/.well-known/oauth-authorization-server`;
    const query = await shared().fetch(`${url}?format=json`);
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({
      ID: "invalid_request",
      id: "invalid_request",
      description: 'query parameter "format": not defined for getAuthorizationServerMetadata',
      parameter: "format",
    });
    const malformed = await shared().fetch(`${url}?x=%zz`);
    expect(malformed.status).toBe(400);
    // fetch sends no body with GET, so the body goes out over node:http.
    const withBody = await rawRequest(shared().url, {
      path: "/.well-known/oauth-authorization-server",
      headers: { "content-length": "3" },
      body: "abc",
    });
    expect(withBody.status).toBe(400);
    expect(JSON.parse(withBody.body)).toMatchObject({
      ID: "invalid_request",
      description: "request body: getAuthorizationServerMetadata takes none",
    });
  });

  it("needs no token", async () => {
    const sandbox = shared();
    const res = await sandbox.fetch(`${sandbox.url}/.well-known/oauth-authorization-server`, {
      headers: { authorization: "Bearer nonsense" },
    });
    expect(res.status).toBe(200);
  });
});

describe("token exchange: success", () => {
  it("issues an opaque bearer token for the service account", async () => {
    const sandbox = shared();
    const { status, body, headers } = await tokenRequest(sandbox, {
      assertion: await signAssertion(sandbox),
    });
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body.token_type).toBe("bearer");
    expect(body.scope).toBe("ROLE_USER");
    expect(body.expires_in).toBe(3599);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(typeof body.jti).toBe("string");
    const me = await client(sandbox, body.access_token as string)("GET", "/api/2.1/session");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { id: "sa-1" }, organizationId: "org-1", tokenId: body.jti });
  });

  it("gives a fresh token on every request", async () => {
    const sandbox = shared();
    const a = await tokenRequest(sandbox, { assertion: await signAssertion(sandbox) });
    const b = await tokenRequest(sandbox, { assertion: await signAssertion(sandbox) });
    expect(a.body.access_token).not.toBe(b.body.access_token);
    expect(a.body.jti).not.toBe(b.body.jti);
  });

  it.each([
    ["user ID", "u-ana"],
    ["email address", "ana@academy.test"],
    ["third-party ID", "hr-1001"],
  ])("acts for a managed user named by %s", async (_label, sub) => {
    const sandbox = shared();
    const { status, body } = await tokenRequest(sandbox, {
      assertion: await signAssertion(sandbox, { claims: { sub } }),
    });
    expect(status).toBe(200);
    const me = await client(sandbox, body.access_token as string)("GET", "/api/2/session");
    expect(me.body).toMatchObject({
      locale: "en",
      user: { type: "USER", id: "u-ana", name: "Ana" },
      sandbox: { serviceAccountId: "sa-1" },
    });
  });

  it("uses the configured token lifetime", async () => {
    const sandbox = await start({ tokenLifetimeSeconds: 120 });
    const { body } = await tokenRequest(sandbox, { assertion: await signAssertion(sandbox) });
    expect(body.expires_in).toBe(120);
  });

  it("accepts given client credentials", async () => {
    const sandbox = await start({ clientId: "my-app", clientSecret: "my-secret" });
    expect(sandbox.credentials.clientId).toBe("my-app");
    const { status } = await tokenRequest(sandbox, {
      client_id: "my-app",
      client_secret: "my-secret",
      assertion: await signAssertion(sandbox),
    });
    expect(status).toBe(200);
  });

  it("accepts exp within the 30 s leeway at both ends", async () => {
    const sandbox = shared();
    const now = nowSeconds();
    for (const exp of [now - 10, now + 3600 + 10]) {
      const { status } = await tokenRequest(sandbox, {
        assertion: await signAssertion(sandbox, { claims: { exp } }),
      });
      expect(status).toBe(200);
    }
  });
});

describe("token exchange: forged or broken assertions", () => {
  it("refuses alg none", async () => {
    const sandbox = shared();
    const keyFile = sandbox.credentials.keyFile();
    const now = nowSeconds();
    const unsigned = `${b64({ alg: "none", typ: "JWT", kid: keyFile?.keyId })}.${b64({
      iss: "sa-1",
      sub: "sa-1",
      aud: sandbox.tokenEndpoint,
      exp: now + 60,
    })}.`;
    await expectGrantRefused(sandbox, unsigned, /alg: must be "RS256" \(got "none"\)/);
  });

  it("refuses HS256 signed with the public key as secret", async () => {
    const sandbox = shared();
    const keyFile = sandbox.credentials.keyFile();
    if (!keyFile) throw new Error("no key file");
    const publicPem = createPublicKey(keyFile.privateKey).export({ type: "spki", format: "pem" }).toString();
    const forged = await new SignJWT({ iss: "sa-1", sub: "sa-1", aud: sandbox.tokenEndpoint })
      .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: keyFile.keyId })
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(publicPem));
    await expectGrantRefused(sandbox, forged, /alg: must be "RS256" \(got "HS256"\)/);
  });

  it("refuses another RSA algorithm (PS256)", async () => {
    const sandbox = shared();
    const keyFile = sandbox.credentials.keyFile();
    if (!keyFile) throw new Error("no key file");
    const { importPKCS8 } = await import("jose");
    const forged = await new SignJWT({ iss: "sa-1", sub: "sa-1", aud: sandbox.tokenEndpoint })
      .setProtectedHeader({ alg: "PS256", typ: "JWT", kid: keyFile.keyId })
      .setExpirationTime("5m")
      .sign(await importPKCS8(keyFile.privateKey, "PS256"));
    await expectGrantRefused(sandbox, forged, /alg: must be "RS256" \(got "PS256"\)/);
  });

  const refusedSub = /claim sub: must be the service account itself/;
  const refusedAud = /claim aud: must be the token endpoint URI/;
  /** One change to a well-signed assertion, and the rule its refusal names. */
  const BROKEN_RULES: [string, (sandbox: TestSandbox) => AssertionParts, RegExp][] = [
    ["a wrong typ", () => ({ header: { typ: "at+jwt" } }), /typ: must be "JWT"/],
    ["an unknown kid", () => ({ header: { kid: "no-such-key" } }), /kid: does not name/],
    ["no kid", () => ({ header: { kid: undefined } }), /kid: is required/],
    ["a wrong iss", () => ({ claims: { iss: "u-ana" } }), /claim iss: must be the ID/],
    ["the sub of a user outside the organization", () => ({ claims: { sub: "u-zoe" } }), refusedSub],
    ["the sub of such a user's address", () => ({ claims: { sub: "zoe@elsewhere.test" } }), refusedSub],
    ["the sub of such a user's third-party ID", () => ({ claims: { sub: "ext-9" } }), refusedSub],
    ["the sub of nobody", () => ({ claims: { sub: "nobody" } }), refusedSub],
    ["the token path without /daas as aud", (s) => ({ claims: { aud: `${s.url}/oauth/token` } }), refusedAud],
    [
      "another host's token endpoint as aud",
      () => ({ claims: { aud: OTHER_HOST_TOKEN_ENDPOINT } }),
      refusedAud,
    ],
    ["the sandbox's URL as aud", (s) => ({ claims: { aud: s.url } }), refusedAud],
    ["an exp in the past", () => ({ claims: { exp: nowSeconds() - 120 } }), /exp: lies in the past/],
    [
      "an exp more than an hour ahead",
      () => ({ claims: { exp: nowSeconds() + 3600 + 120 } }),
      /exp: must be at most 3600 seconds ahead/,
    ],
    ["no exp", () => ({ claims: { exp: undefined } }), /exp: is required/],
  ];

  it.each(BROKEN_RULES)("refuses an assertion with %s", async (_change, parts, rule) => {
    const sandbox = shared();
    await expectGrantRefused(sandbox, await signAssertion(sandbox, parts(sandbox)), rule);
  });

  it("refuses a bad signature (right kid, other key)", async () => {
    const sandbox = shared();
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    await expectGrantRefused(
      sandbox,
      await signAssertion(sandbox, { privateKeyPem: other }),
      /signature: does not verify/,
    );
  });

  it("refuses a tampered payload", async () => {
    const sandbox = shared();
    const [header, , signature] = (await signAssertion(sandbox)).split(".");
    const tampered = `${header}.${b64({ iss: "sa-1", sub: "u-ana", aud: sandbox.tokenEndpoint, exp: 9e9 })}.${signature}`;
    await expectGrantRefused(sandbox, tampered, /signature: does not verify/);
  });

  it("refuses something that is not a JWT", async () => {
    const sandbox = shared();
    await expectGrantRefused(sandbox, "not-a-jwt", /compact serialization/);
    await expectGrantRefused(sandbox, "e30.e30.e30.e30", /compact serialization/);
    await expectGrantRefused(sandbox, "bm90anNvbg.e30.", /header: not base64url-encoded JSON/);
  });
});

describe("token exchange: form and client", () => {
  it("answers 401 invalid_client for a wrong secret or client ID, without echoing them", async () => {
    const sandbox = shared();
    const assertion = await signAssertion(sandbox);
    for (const fields of [{ client_secret: "guess-1234" }, { client_id: "someone-else" }]) {
      const { status, body } = await tokenRequest(sandbox, { ...fields, assertion });
      expect(status).toBe(401);
      expect(body).toMatchObject({ id: "invalid_client", error: "invalid_client" });
      expect(JSON.stringify(body)).not.toMatch(/guess-1234|someone-else/);
      expect(JSON.stringify(body)).not.toContain(sandbox.credentials.clientSecret);
    }
  });

  it.each(["grant_type", "client_id", "client_secret", "assertion"])(
    "answers invalid_request naming a missing %s",
    async (field) => {
      const sandbox = shared();
      const { status, body } = await tokenRequest(sandbox, {
        assertion: await signAssertion(sandbox),
        [field]: undefined,
      });
      expect(status).toBe(400);
      expect(body).toEqual(oauthError("invalid_request", `form parameter ${field}: is required`));
    },
  );

  it("answers unsupported_grant_type for another grant", async () => {
    const sandbox = shared();
    const { status, body } = await tokenRequest(sandbox, {
      grant_type: "client_credentials",
      assertion: "x",
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ id: "unsupported_grant_type", error: "unsupported_grant_type" });
    expect(body.description).toContain(GRANT);
  });

  it("refuses a parameter given twice", async () => {
    const sandbox = shared();
    const form = exchangeForm(sandbox, await signAssertion(sandbox));
    form.append("client_id", "other");
    const res = await sandbox.fetch(sandbox.tokenEndpoint, { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(
      oauthError("invalid_request", "form parameter client_id: must be given once"),
    );
  });

  it("answers 415 to a JSON body", async () => {
    const sandbox = shared();
    const res = await sandbox.fetch(sandbox.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: GRANT }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      id: "invalid_request",
      description: expect.stringMatching(/^Content-Type:/),
    });
  });

  it("refuses query parameters, in OAuth's error format", async () => {
    const sandbox = shared();
    const form = exchangeForm(sandbox, await signAssertion(sandbox));
    const res = await sandbox.fetch(`${sandbox.tokenEndpoint}?scope=admin`, { method: "POST", body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(
      oauthError("invalid_request", 'query parameter "scope": not defined for exchangeToken'),
    );
    const malformed = await sandbox.fetch(`${sandbox.tokenEndpoint}?a=%`, { method: "POST", body: form });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { description: string }).description).toMatch(
      /^query string: .* is not valid percent-encoding/,
    );
  });

  it("answers 405 with Allow to GET", async () => {
    const sandbox = shared();
    const res = await sandbox.fetch(sandbox.tokenEndpoint);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
