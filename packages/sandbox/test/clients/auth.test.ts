/**
 * The built auth package (`@drill-practice/auth`) against the sandbox on 127.0.0.1: discovery, token
 * exchange, OAuth errors and the client middleware. It lives with the sandbox, which depends on the
 * client, so that neither the client nor auth needs a sandbox.
 */
import {
  createTokenProvider,
  type ServiceAccountKey,
  type TokenCache,
  TokenExchangeError,
} from "@drill-practice/auth";
import { readServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth/node";
import { createDrillClient } from "@drill-practice/client";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/index.js";

const dir = scratchDirForAll("drill-auth-sandbox-");
let sandbox: Sandbox;
let keyFile: string;
let key: ServiceAccountKey;
const requestLog: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ credentialsDir: dir(), onRequest: (line) => requestLog.push(line) });
  keyFile = sandbox.credentialsFiles?.keyFile as string;
  key = await readServiceAccountKey(keyFile);
});

afterAll(async () => {
  await sandbox?.close();
});

function provider(options: { clientSecret?: string } = {}) {
  return createTokenProvider({
    baseUrl: sandbox.url,
    clientId: sandbox.credentials.clientId,
    clientSecret: options.clientSecret ?? sandbox.credentials.clientSecret,
    key,
  });
}

async function version(token: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/api/2.1/version`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body?.cancel();
  return response.status;
}

/** A shared-store stand-in whose entries the test can tamper with. */
function inspectableCache() {
  const entries = new Map<string, string>();
  const cache: TokenCache = {
    get: (k) => entries.get(k),
    set: (k, v) => {
      entries.set(k, v);
    },
    delete: (k) => {
      entries.delete(k);
    },
  };
  /** Replaces every stored access token, as if the service had revoked the real ones. */
  const revokeAll = () => {
    for (const [k, v] of entries) {
      const record = JSON.parse(v) as { response: Record<string, unknown> };
      record.response.access_token = "revoked-access-token";
      entries.set(k, JSON.stringify(record));
    }
  };
  return { cache, entries, revokeAll };
}

describe("against the sandbox", { timeout: 30_000 }, () => {
  it("discovers the token endpoint and gets a token for the service account", async () => {
    const p = provider();
    expect(await p.tokenEndpoint()).toBe(sandbox.tokenEndpoint);
    const token = await p.getToken();
    expect(token.subject).toBe(key.serviceAccountId);
    expect(token.tokenType.toLowerCase()).toBe("bearer");
    expect(token.expiresAt - token.receivedAt).toBe(3599_000);
    expect(await version(token.value)).toBe(200);
    expect(await version("not-a-token")).toBe(401);
  });

  it.each(["user-ana", "ana.garcia@academy.example", "hr-1001"])(
    "gets a token for a managed user given as %s",
    async (subject) => {
      const token = await provider().getToken({ subject });
      expect(token.subject).toBe(subject);
      expect(await version(token.value)).toBe(200);
    },
  );

  it("surfaces the sandbox's OAuth errors", async () => {
    const outside = await provider()
      .getToken({ subject: "user-olivia" })
      .catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(TokenExchangeError);
    expect(outside).toMatchObject({ status: 400, oauthError: "invalid_grant", attempts: 1 });

    const wrongSecret = await provider({ clientSecret: "definitely-not-the-secret" })
      .getToken()
      .catch((e: unknown) => e);
    expect(wrongSecret).toMatchObject({ status: 401, oauthError: "invalid_client", attempts: 1 });
    expect((wrongSecret as Error).message).not.toContain("definitely-not-the-secret");
  });

  it("authenticates createDrillClient through serviceAccountAuth, per subject", async () => {
    const auth = serviceAccountAuth({
      keyFile,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      subject: "user-ana",
    });
    const client = createDrillClient({ baseUrl: sandbox.url, auth });
    const { response } = await client.GET("/api/2.1/version");
    expect(response.status).toBe(200);
    const token = await auth.getToken();
    expect(token.subject).toBe("user-ana");
  });

  it("re-sends once with a fresh token after a 401", async () => {
    const { cache, entries, revokeAll } = inspectableCache();
    const auth = serviceAccountAuth({
      keyFile,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      cache,
    });
    const client = createDrillClient({ baseUrl: sandbox.url, auth });
    expect((await client.GET("/api/2.1/version")).response.status).toBe(200);
    expect(entries.size).toBe(1);

    revokeAll();
    const before = requestLog.length;
    const { response } = await client.GET("/api/2.1/version");
    expect(response.status).toBe(200);
    expect(requestLog.slice(before).map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      "GET /api/2.1/version 401",
      "POST /daas/oauth/token 200",
      "GET /api/2.1/version 200",
    ]);
    const stored = JSON.parse([...entries.values()][0] as string) as { response: { access_token: string } };
    expect(stored.response.access_token).not.toBe("revoked-access-token");
  });
});
