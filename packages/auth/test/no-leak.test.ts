import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  type AccessToken,
  authMiddleware,
  MemoryTokenCache,
  parseServiceAccountKey,
  serviceAccountAuth,
} from "../src/index.js";
import { key, providerFor } from "./fixtures/token-provider.js";
import {
  CLIENT_SECRET,
  CREDENTIALS,
  FakeAuthServer,
  json,
  keyFileObject,
  requestFetch,
  rsaKeyPair,
} from "./helpers.js";

/** The base64 body of the private key, in 16-character pieces. */
function keyFragments(): string[] {
  const body = rsaKeyPair()
    .pkcs8.split("\n")
    .filter((line) => line !== "" && !line.startsWith("-----"))
    .join("");
  const out: string[] = [];
  for (let i = 0; i + 16 <= body.length; i += 16) out.push(body.slice(i, i + 16));
  return out;
}

/** Every rendering of a value a user might log. */
function renderings(value: unknown): string[] {
  const out = [
    inspect(value, { depth: 20, showHidden: true, getters: true }),
    inspect(value, { depth: 20 }),
    String(value),
    `${value}`,
  ];
  try {
    out.push(JSON.stringify(value) ?? "");
  } catch (error) {
    out.push(String(error));
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? "", inspect(value.cause, { depth: 20 }));
  return out;
}

function expectNoSecrets(values: Record<string, unknown>, secrets: readonly string[]) {
  for (const [name, value] of Object.entries(values)) {
    for (const text of renderings(value)) {
      for (const secret of secrets) {
        if (text.includes(secret))
          throw new Error(`${name} leaks a secret (${secret.slice(0, 8)}…) in: ${text}`);
      }
    }
  }
}

describe("no secret leaks", () => {
  it("keeps key, client secret, assertion and token out of every object's rendering", async () => {
    const server = new FakeAuthServer();
    const cache = new MemoryTokenCache();
    const provider = providerFor(server, { cache });
    const token: AccessToken = await provider.getToken();
    const middleware = authMiddleware(provider);
    const auth = serviceAccountAuth({
      key: JSON.stringify(keyFileObject()),
      ...CREDENTIALS,
      baseUrl: server.baseUrl,
      fetch: server.fetch,
    });
    const authToken = await auth.getToken();
    const assertion = server.tokenRequests[0]?.form.get("assertion") as string;
    expect(assertion.split(".")).toHaveLength(3);
    const secrets = [...keyFragments(), CLIENT_SECRET, assertion, token.value, authToken.value];

    expectNoSecrets(
      { key, privateKey: key.privateKey, cache, provider, token, authToken, middleware, auth },
      secrets,
    );
    // The wrappers still say what they are.
    expect(String(token)).toMatch(/^AccessToken\(subject=sa-81c2, expiresAt=.*, value=\[redacted\]\)$/);
    expect(JSON.parse(JSON.stringify(token))).toMatchObject({ subject: "sa-81c2", value: "[redacted]" });
    expect(inspect(key)).toBe(
      "ServiceAccountKey(keyId=key-3f9a, serviceAccountId=sa-81c2, privateKey=[redacted])",
    );
    expect(JSON.parse(JSON.stringify(key))).toEqual({
      keyId: "key-3f9a",
      serviceAccountId: "sa-81c2",
      keyType: "RSA_2048",
      algorithm: "RS256",
      privateKey: "[redacted]",
    });
    // The private key cannot be exported from the imported key.
    await expect(crypto.subtle.exportKey("pkcs8", key.privateKey)).rejects.toThrow();
    // The token value is there for those who ask for it.
    expect(token.value).toBe(server.issued[0]);
    expect(token.toResponse().access_token).toBe(server.issued[0]);
  });

  it("keeps secrets out of errors, even when the server or fetch echoes them", async () => {
    const server = new FakeAuthServer();
    const errors: Record<string, unknown> = {};
    let assertion = "";
    // The token endpoint echoes everything it received.
    server.respond = (record) => {
      assertion = record.form.get("assertion") ?? "";
      return json(
        {
          error: `bad ${record.form.toString()}`,
          error_description: `got ${assertion} and ${CLIENT_SECRET} in ${record.form.toString()}`,
        },
        { status: 400 },
      );
    };
    errors.echoed = await providerFor(server)
      .getToken()
      .catch((e: unknown) => e);

    // A fetch whose own errors quote the request body.
    const chatty = requestFetch(async (request) => {
      if (request.method !== "POST") return server.fetch(request);
      const body = await request.text();
      throw new TypeError(`cannot send ${body}`, { cause: new Error(body) });
    });
    errors.network = await providerFor(server, { fetch: chatty, retry: { maxAttempts: 1 } })
      .getToken()
      .catch((e: unknown) => e);

    // A 200 with a token but a broken expires_in.
    const broken = new FakeAuthServer();
    broken.respond = () => json({ access_token: "at-broken-SECRET-value", expires_in: "soon" });
    errors.malformed = await providerFor(broken)
      .getToken()
      .catch((e: unknown) => e);

    // Key file errors.
    errors.keySize = await parseServiceAccountKey(keyFileObject({ material: rsaKeyPair(1024).pkcs8 })).catch(
      (e: unknown) => e,
    );
    errors.truncated = await parseServiceAccountKey(
      keyFileObject({ material: rsaKeyPair().pkcs8.slice(0, 900) }),
    ).catch((e: unknown) => e);
    errors.notJson = await parseServiceAccountKey(`{"material": "${rsaKeyPair().pkcs8}`).catch(
      (e: unknown) => e,
    );

    for (const error of Object.values(errors)) expect(error).toBeInstanceOf(Error);
    expect(assertion).not.toBe("");
    const secrets = [
      ...keyFragments(),
      ...rsaKeyPair(1024)
        .pkcs8.split("\n")
        .filter((l) => l.length > 40 && !l.startsWith("-----")),
      // Every spelling: the wire body and the echoes of it carry the form-encoded one.
      CLIENT_SECRET,
      encodeURIComponent(CLIENT_SECRET),
      new URLSearchParams({ s: CLIENT_SECRET }).toString().slice(2),
      JSON.stringify(CLIENT_SECRET).slice(1, -1),
      assertion,
      "at-broken-SECRET-value",
    ];
    expectNoSecrets(errors, secrets);
    expect((errors.network as Error).message).toContain("[redacted]");
  });
});
