/**
 * Test helpers: key material generated on the fly, key files built from it, and a
 * fake authorization server exposed as an injectable `fetch` that really verifies the
 * assertions it receives.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { importSPKI, type JWTHeaderParameters, type JWTPayload, jwtVerify } from "jose";
import { vi } from "vitest";
import { parseServiceAccountKey, type ServiceAccountKey, type TokenProviderOptions } from "../src/index.js";

export interface TestKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** PKCS#8 PEM of the private key. */
  readonly pkcs8: string;
  /** SPKI PEM of the public key. */
  readonly spki: string;
}

const pairs = new Map<string, TestKeyPair>();

/** An RSA key pair of the given size (memoised per size, generation is slow). */
export function rsaKeyPair(modulusLength = 2048, name = "default"): TestKeyPair {
  const id = `${modulusLength}:${name}`;
  let pair = pairs.get(id);
  if (pair === undefined) {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength });
    pair = {
      privateKey,
      publicKey,
      pkcs8: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      spki: publicKey.export({ type: "spki", format: "pem" }).toString(),
    };
    pairs.set(id, pair);
  }
  return pair;
}

/** First parameter of fetch (the DOM name RequestInfo is not declared in Node's types). */
export type FetchInput = Parameters<typeof globalThis.fetch>[0];

/** A mocked fetch that hands `handle` each call as one Request, whichever form the caller used. */
export function requestFetch(handle: (request: Request) => Promise<Response> | Response) {
  return vi.fn(async (input: FetchInput, init?: RequestInit) => handle(new Request(input, init)));
}

export const KEY_ID = "key-3f9a";
export const SERVICE_ACCOUNT_ID = "sa-81c2";
export const CLIENT_ID = "client-app-7";
// Holds "+", "/", "=" and a space, so its raw, URI, form and JSON spellings all differ.
export const CLIENT_SECRET = 's3cr3t+/Pa ss=word"Zx8Q';
/** The test client's credentials, spread into the options of whatever takes them. */
export const CREDENTIALS = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };

/**
 * A key file object. The private key and key type fields are given unusual names on
 * purpose: the parser must find them by content, not by name.
 */
export function keyFileObject(overrides: Record<string, unknown> = {}, pem = rsaKeyPair().pkcs8) {
  return {
    keyId: KEY_ID,
    serviceAccountId: SERVICE_ACCOUNT_ID,
    kind: "RSA_2048",
    material: pem,
    ...overrides,
  };
}

/** The parsed default test key. */
export async function testKey(): Promise<ServiceAccountKey> {
  return parseServiceAccountKey(keyFileObject());
}

/**
 * Token provider options against `server` with the test credentials and `key`, discovering the token
 * endpoint under the server's base URL; `overrides` win.
 */
export function providerOptions(
  server: FakeAuthServer,
  key: ServiceAccountKey,
  overrides: Partial<TokenProviderOptions> = {},
): TokenProviderOptions {
  return {
    baseUrl: server.baseUrl,
    ...CREDENTIALS,
    key,
    fetch: server.fetch,
    ...overrides,
  };
}

export interface TokenRequestRecord {
  readonly url: string;
  readonly form: URLSearchParams;
  readonly header: JWTHeaderParameters;
  readonly claims: JWTPayload;
  /** Local time (possibly fake) at which the request arrived. */
  readonly at: number;
}

export interface FakeAuthServerOptions {
  readonly baseUrl?: string;
  readonly tokenEndpoint?: string;
  readonly expiresIn?: number;
  /** Server clock minus local clock, in ms, reflected in the `Date` header. */
  readonly clockOffsetMs?: number;
  /** Whether responses carry a `Date` header. Default true. */
  readonly sendDate?: boolean;
  /** Public key (SPKI PEM) that assertions must verify against. */
  readonly spki?: string;
  /** Verify assertions (turn off for fake-timer tests that must avoid slow crypto). Default true. */
  readonly verify?: boolean;
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * An authorization server behind an injected fetch: serves the metadata document and
 * the token endpoint, verifies each assertion's signature and claims, and issues
 * numbered tokens. `respond` can override answers per request.
 */
export class FakeAuthServer {
  readonly baseUrl: string;
  tokenEndpoint: string;
  expiresIn: number;
  clockOffsetMs: number;
  sendDate: boolean;
  readonly verify: boolean;
  readonly spki: string;
  discoveryCalls = 0;
  readonly tokenRequests: TokenRequestRecord[] = [];
  readonly issued: string[] = [];
  /** Return a Response to override the default answer to a token request. */
  respond:
    | ((record: TokenRequestRecord, index: number) => Response | Promise<Response> | undefined)
    | undefined;
  /** Return a Response to override the metadata document. */
  metadata: (() => Response | Promise<Response>) | undefined;
  readonly fetch: typeof globalThis.fetch & ReturnType<typeof vi.fn>;

  constructor(options: FakeAuthServerOptions = {}) {
    this.baseUrl = options.baseUrl ?? "https://drill.test";
    this.tokenEndpoint = options.tokenEndpoint ?? "https://auth.drill.test/daas/oauth/token";
    this.expiresIn = options.expiresIn ?? 3599;
    this.clockOffsetMs = options.clockOffsetMs ?? 0;
    this.sendDate = options.sendDate ?? true;
    this.verify = options.verify ?? true;
    this.spki = options.spki ?? rsaKeyPair().spki;
    this.fetch = requestFetch((request) => this.#handle(request));
  }

  #headers(): Record<string, string> {
    return this.sendDate ? { date: new Date(Date.now() + this.clockOffsetMs).toUTCString() } : {};
  }

  async #handle(request: Request): Promise<Response> {
    const url = request.url;
    if (request.method === "GET" && url === `${this.baseUrl}/.well-known/oauth-authorization-server`) {
      this.discoveryCalls++;
      if (this.metadata) return this.metadata();
      return json({ issuer: this.baseUrl, token_endpoint: this.tokenEndpoint }, { headers: this.#headers() });
    }
    if (request.method === "POST" && url === this.tokenEndpoint) {
      const form = new URLSearchParams(await request.text());
      const assertion = form.get("assertion") ?? "";
      let header: JWTHeaderParameters = { alg: "none" };
      let claims: JWTPayload = {};
      let invalid: string | undefined;
      if (this.verify) {
        try {
          const key = await importSPKI(this.spki, "RS256");
          const result = await jwtVerify(assertion, key, {
            algorithms: ["RS256"],
            audience: this.tokenEndpoint,
            currentDate: new Date(Date.now() + this.clockOffsetMs),
          });
          header = result.protectedHeader;
          claims = result.payload;
        } catch (error) {
          invalid = (error as Error).message;
        }
      }
      const record: TokenRequestRecord = { url, form, header, claims, at: Date.now() };
      const index = this.tokenRequests.push(record) - 1;
      const override = await this.respond?.(record, index);
      if (override) return override;
      if (invalid !== undefined) {
        return json(
          { error: "invalid_grant", error_description: invalid },
          { status: 400, headers: this.#headers() },
        );
      }
      const token = `at-${index}-${Math.random().toString(36).slice(2)}-SECRET`;
      this.issued.push(token);
      return json(
        {
          access_token: token,
          token_type: "bearer",
          expires_in: this.expiresIn,
          scope: "ROLE_USER",
          jti: `jti-${index}`,
        },
        { headers: this.#headers() },
      );
    }
    return json({ error: "not_found" }, { status: 404 });
  }
}

/** Lets real pending work (stream reads, crypto) finish; setImmediate is never faked here. */
async function drainRealWork(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Drives fake timers (setTimeout/clearTimeout/Date only) until a promise settles,
 * jumping from timer to timer so that recorded times equal the scheduled delays
 * exactly. Before each jump, real pending work gets the chance to finish so that a
 * jump never overtakes, say, a response body being read.
 */
export async function settleWithFakeTimers<T>(promise: Promise<T>, maxSteps = 500): Promise<T> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let step = 0; step < maxSteps && !settled; step++) {
    await drainRealWork();
    if (!settled) await vi.advanceTimersToNextTimerAsync();
  }
  return promise;
}

/** Just enough of a paths type for openapi-fetch to type the calls below. */
export interface TestPaths {
  "/api/2.1/version": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": { version: string } } };
      };
    };
  };
  "/api/2.1/repertoire/{drillable}": {
    parameters: { query?: never; header?: never; path: { drillable: string }; cookie?: never };
    put: {
      parameters: { query?: never; header?: never; path: { drillable: string }; cookie?: never };
      requestBody: { content: { "application/json": { note: string } } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": { echoed: string } } };
      };
    };
  };
}
