import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createDrillClient,
  type DrillAuthContext,
  type DrillClientAuth,
  DrillError,
} from "@drill-practice/client";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import createClient, { type Middleware } from "openapi-fetch";
import { beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  DrillInvalidOptionError,
  KeyFileError,
  parseServiceAccountKey,
  serviceAccountAuth as serviceAccountAuthWithKey,
} from "../src/index.js";
import { serviceAccountAuth } from "../src/node.js";
import {
  CREDENTIALS,
  FakeAuthServer,
  json,
  KEY_ID,
  keyFileObject,
  requestFetch,
  SERVICE_ACCOUNT_ID,
  type TestPaths,
} from "./helpers.js";

/**
 * What `createDrillClient` of the client package does with `auth`, per the agreed
 * contract: call `middleware` once with its base URL and fetch when it is a function.
 */
function createDrillClientLike(options: {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  auth: DrillClientAuth;
}) {
  const client = createClient<TestPaths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const { middleware } = options.auth;
  const resolved: Middleware =
    typeof middleware === "function"
      ? middleware({ baseUrl: options.baseUrl, fetch: options.fetch })
      : middleware;
  client.use(resolved);
  return client;
}

/** One fetch for the whole service: authorization server plus a protected API. */
function serviceFetch(server: FakeAuthServer) {
  return requestFetch(async (request) => {
    if (request.url.startsWith(`${server.baseUrl}/api/`)) {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
      return server.issued.includes(token)
        ? json({ version: "2.1.0" })
        : json({ ID: "unauthorized" }, { status: 401 });
    }
    return server.fetch(request);
  });
}

const dir = scratchDirForAll("drill-auth-sa-");
let keyFile: string;
beforeAll(async () => {
  keyFile = join(dir(), "sa.json");
  await writeFile(keyFile, JSON.stringify(keyFileObject()));
});

describe("serviceAccountAuth", () => {
  it("plugs into the client with the client's base URL and fetch", async () => {
    const server = new FakeAuthServer();
    const fetch = serviceFetch(server);
    const auth = serviceAccountAuth({ keyFile, ...CREDENTIALS });
    const client = createDrillClientLike({ baseUrl: server.baseUrl, fetch, auth });
    const { data } = await client.GET("/api/2.1/version");
    expect(data).toEqual({ version: "2.1.0" });
    // Discovery and the token request went through the client's fetch.
    expect(fetch.mock.calls.map(([input]) => (input as Request).url)).toEqual([
      "https://drill.test/.well-known/oauth-authorization-server",
      server.tokenEndpoint,
      "https://drill.test/api/2.1/version",
    ]);
    expect(server.tokenRequests[0]?.claims).toMatchObject({
      iss: SERVICE_ACCOUNT_ID,
      sub: SERVICE_ACCOUNT_ID,
    });
    expect(server.tokenRequests[0]?.header.kid).toBe(KEY_ID);
    // Standalone use reuses the provider bound to the client, and its cached token.
    expect((await auth.getToken()).value).toBe(server.issued[0]);
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("accepts the key as JSON text, as an object or already parsed", async () => {
    const server = new FakeAuthServer();
    for (const key of [
      JSON.stringify(keyFileObject()),
      keyFileObject(),
      await parseServiceAccountKey(keyFileObject()),
    ]) {
      const auth = serviceAccountAuth({
        key,
        ...CREDENTIALS,
        baseUrl: server.baseUrl,
        fetch: server.fetch,
      });
      await auth.ready();
      expect((await auth.getToken({ subject: "pat@example.com" })).subject).toBe("pat@example.com");
    }
    expect(server.tokenRequests).toHaveLength(3);
  });

  it("prefers its own baseUrl, tokenEndpoint and fetch over the client's", async () => {
    const server = new FakeAuthServer({ tokenEndpoint: "https://login.test/token" });
    const clientFetch = vi.fn(async () => json({ version: "x" }));
    const auth = serviceAccountAuth({
      keyFile,
      ...CREDENTIALS,
      tokenEndpoint: "https://login.test/token",
      fetch: server.fetch,
      subject: "user-9",
    });
    const middleware = auth.middleware({ baseUrl: "https://api.test", fetch: clientFetch });
    expect(typeof middleware.onRequest).toBe("function");
    const token = await auth.getToken();
    expect(token.subject).toBe("user-9");
    expect(server.discoveryCalls).toBe(0);
    expect(server.tokenRequests[0]?.claims.aud).toBe("https://login.test/token");
    expect(clientFetch).not.toHaveBeenCalled();
  });

  it("reports a bad key file on first use and from ready(), and can recover", async () => {
    const badFile = join(dir(), "bad.json");
    await writeFile(badFile, JSON.stringify(keyFileObject({ keyId: 7 })));
    const server = new FakeAuthServer();
    const auth = serviceAccountAuth({ keyFile: badFile, ...CREDENTIALS });
    await expect(auth.ready()).rejects.toMatchObject({ code: "ERR_KEY_FILE_FIELD", field: "keyId" });
    const client = createDrillClientLike({ baseUrl: server.baseUrl, fetch: serviceFetch(server), auth });
    await expect(client.GET("/api/2.1/version")).rejects.toBeInstanceOf(KeyFileError);
    // Failures are not remembered: once the file is fixed, the next request works.
    await writeFile(badFile, JSON.stringify(keyFileObject()));
    expect((await client.GET("/api/2.1/version")).data).toEqual({ version: "2.1.0" });
  });

  it("asks for a base URL when neither it nor the client gives one", async () => {
    const auth = serviceAccountAuth({ keyFile, ...CREDENTIALS });
    // At once, when the client is made, not on its first request.
    expect(() => auth.middleware({ baseUrl: "", fetch: vi.fn() })).toThrow(
      "Invalid option baseUrl: is required unless tokenEndpoint is given",
    );
    expect(() => auth.middleware({ baseUrl: "ftp://drill.test", fetch: vi.fn() })).toThrow(
      "Invalid option baseUrl: must be an absolute http(s) URL",
    );
  });

  it.each([
    [{ ...CREDENTIALS }, "give exactly one of keyFile"],
    [{ keyFile: "a", key: "{}", ...CREDENTIALS }, "give exactly one of keyFile"],
    [{ keyFile: " ", ...CREDENTIALS }, "Invalid option keyFile"],
    [{ keyFile: "a", ...CREDENTIALS, clientId: "" }, "Invalid option clientId"],
    [{ keyFile: "a", clientId: CREDENTIALS.clientId }, "Invalid option clientSecret"],
    // The provider's options are checked at once too, not on the first API call.
    [{ keyFile: "a", ...CREDENTIALS, baseUrl: "drill.test" }, "Invalid option baseUrl"],
    [
      {
        keyFile: "a",
        ...CREDENTIALS,
        tokenEndpoint: "https://u:p@x.test/t",
      },
      "Invalid option tokenEndpoint",
    ],
    [{ keyFile: "a", ...CREDENTIALS, retry: { maxAttempts: 0 } }, "Invalid option retry.maxAttempts"],
    [{ keyFile: "a", ...CREDENTIALS, refreshMarginSeconds: -1 }, "Invalid option refreshMarginSeconds"],
    [
      { keyFile: "a", ...CREDENTIALS, assertionLifetimeSeconds: 7200 },
      "Invalid option assertionLifetimeSeconds",
    ],
    [{ keyFile: "a", ...CREDENTIALS, subject: "" }, "Invalid option subject"],
    [{ keyFile: "a", ...CREDENTIALS, fetch: "fetch" }, "Invalid option fetch"],
    [{ keyFile: "a", ...CREDENTIALS, cache: {} }, "Invalid option cache"],
    [{ keyFile: "a", ...CREDENTIALS, clock: {} }, "Invalid option clock"],
  ])("rejects bad options at once (%#)", (options, message) => {
    const make = () => serviceAccountAuth(options as Parameters<typeof serviceAccountAuth>[0]);
    expect(make).toThrow(DrillInvalidOptionError);
    expect(make).toThrow(message);
  });

  it("checks the key against the options in ready() when the base URL is known", async () => {
    const auth = serviceAccountAuth({
      key: keyFileObject(),
      ...CREDENTIALS,
      baseUrl: "https://drill.test",
      fetch: vi.fn(),
    });
    await expect(auth.ready()).resolves.toBeUndefined();
    const bad = serviceAccountAuth({
      key: keyFileObject({ keyId: "" }),
      ...CREDENTIALS,
    });
    await expect(bad.ready()).rejects.toMatchObject({ code: "ERR_KEY_FILE_FIELD" });
  });

  it("gives each client fetch its own provider, even for the same base URL", async () => {
    const server = new FakeAuthServer();
    // A store that keeps nothing, so that every token request is visible.
    const cache = { get: () => undefined, set: () => undefined, delete: () => undefined };
    const auth = serviceAccountAuth({ keyFile, ...CREDENTIALS, cache });
    const fetchA = serviceFetch(server);
    const fetchB = serviceFetch(server);
    const clientA = createDrillClientLike({ baseUrl: server.baseUrl, fetch: fetchA, auth });
    const clientB = createDrillClientLike({ baseUrl: server.baseUrl, fetch: fetchB, auth });
    expect((await clientA.GET("/api/2.1/version")).data).toEqual({ version: "2.1.0" });
    expect((await clientB.GET("/api/2.1/version")).data).toEqual({ version: "2.1.0" });
    const urls = (fetch: typeof fetchA) => fetch.mock.calls.map(([input]) => (input as Request).url);
    const expected = [
      "https://drill.test/.well-known/oauth-authorization-server",
      server.tokenEndpoint,
      "https://drill.test/api/2.1/version",
    ];
    expect(urls(fetchA)).toEqual(expected);
    expect(urls(fetchB)).toEqual(expected);
  });

  it("is the DrillClientAuth the client accepts (one type, declared by the client)", () => {
    expectTypeOf<ReturnType<typeof serviceAccountAuth>>().toExtend<DrillClientAuth>();
    expectTypeOf<ReturnType<typeof serviceAccountAuthWithKey>>().toExtend<DrillClientAuth>();
    const auth: DrillClientAuth = serviceAccountAuth({
      keyFile,
      ...CREDENTIALS,
    });
    const context: DrillAuthContext = { baseUrl: "https://drill.test", fetch: vi.fn() };
    expect(typeof auth.middleware).toBe("function");
    const made = typeof auth.middleware === "function" ? auth.middleware(context) : auth.middleware;
    expect(Object.keys(made).sort()).toEqual(["onRequest", "onResponse"]);
  });

  it("an auth failure rejects a client call the same way in { data, error } mode and in throwing mode", async () => {
    // Discovery answers 503 every time: no token can be had.
    const fetch = vi.fn(async () => json({ id: "unavailable" }, { status: 503 }));
    const options = {
      baseUrl: "https://drill.test",
      fetch,
      auth: serviceAccountAuthWithKey({
        key: keyFileObject(),
        ...CREDENTIALS,
        retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
      }),
    };
    const dataMode = await createDrillClient(options)
      .GET("/api/2.1/version")
      .catch((e: unknown) => e);
    const throwing = await createDrillClient({ ...options, throwOnError: true })
      .GET("/api/2.1/version")
      .catch((e: unknown) => e);
    for (const error of [dataMode, throwing]) {
      expect(error).toBeInstanceOf(DrillError);
      expect(error).toMatchObject({ code: "ERR_DISCOVERY", status: 503, attempts: 2 });
    }
    expect((dataMode as Error).message).toBe((throwing as Error).message);
  });

  it("main entry: takes the key as JSON text and points keyFile users to @drill-practice/auth/node", async () => {
    const server = new FakeAuthServer();
    const fromText = serviceAccountAuthWithKey({
      key: JSON.stringify(keyFileObject()),
      ...CREDENTIALS,
    });
    const client = createDrillClientLike({
      baseUrl: server.baseUrl,
      fetch: serviceFetch(server),
      auth: fromText,
    });
    expect((await client.GET("/api/2.1/version")).data).toEqual({ version: "2.1.0" });
    const withFile = () => serviceAccountAuthWithKey({ keyFile, ...CREDENTIALS } as never);
    expect(withFile).toThrow(DrillInvalidOptionError);
    expect(withFile).toThrow('import { serviceAccountAuth } from "@drill-practice/auth/node"');
  });
});
