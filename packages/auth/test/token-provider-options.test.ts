/**
 * Option checks of createTokenProvider and getToken, as a caller sees them: each bad
 * value is refused with a DrillInvalidOptionError naming the option and the rule.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createTokenProvider,
  DrillInvalidOptionError,
  MemoryTokenCache,
  type TokenProviderOptions,
} from "../src/index.js";
import { key } from "./fixtures/token-provider.js";
import { CLIENT_SECRET, FakeAuthServer, KEY_ID, providerOptions, SERVICE_ACCOUNT_ID } from "./helpers.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

const server = new FakeAuthServer({ verify: false });

function options(overrides: Partial<TokenProviderOptions> = {}): TokenProviderOptions {
  return providerOptions(server, key, overrides);
}

/** The error `make` throws: a DrillInvalidOptionError with exactly this message. */
function expectRefused(make: () => unknown, option: string, rule: string): void {
  expect(make).toThrow(DrillInvalidOptionError);
  expect(make).toThrow(expect.objectContaining({ message: `Invalid option ${option}: ${rule}` }));
}

describe("createTokenProvider options", () => {
  it.each([null, "https://drill.test", 42])("refuses %j instead of an options object", (value) => {
    expectRefused(
      () => createTokenProvider(value as unknown as TokenProviderOptions),
      "options",
      "must be an object",
    );
  });

  it.each(["clientId", "clientSecret", "subject"] as const)("refuses a %s of only whitespace", (name) => {
    expectRefused(() => createTokenProvider(options({ [name]: " \t " })), name, "must be a non-empty string");
  });

  it.each(["baseUrl", "tokenEndpoint"] as const)(
    "refuses a URL object as %s: it must be a string",
    (name) => {
      expectRefused(
        () => createTokenProvider(options({ [name]: new URL("https://drill.test/") as unknown as string })),
        name,
        "must be an absolute http(s) URL without credentials",
      );
    },
  );

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5, 3600.5, 3601, "60"])(
    "refuses refreshMarginSeconds = %j",
    (value) => {
      expectRefused(
        () => createTokenProvider(options({ refreshMarginSeconds: value as number })),
        "refreshMarginSeconds",
        "must be a number of seconds from 0 to 3600",
      );
    },
  );

  it.each([0, 0.5, 3600])("accepts refreshMarginSeconds = %j, the bounds included", (value) => {
    expect(() => createTokenProvider(options({ refreshMarginSeconds: value }))).not.toThrow();
  });

  it("refuses a fetch that is not a function", () => {
    expectRefused(
      () => createTokenProvider(options({ fetch: "fetch" as unknown as typeof fetch })),
      "fetch",
      "must be a fetch function",
    );
  });

  it("refuses to start without a fetch when the runtime has none", () => {
    vi.stubGlobal("fetch", undefined);
    expectRefused(
      () => createTokenProvider(options({ fetch: undefined })),
      "fetch",
      "must be a fetch function",
    );
  });

  it("refuses a clock without now(), also when a cache of its own is given", () => {
    for (const cache of [undefined, new MemoryTokenCache()]) {
      expectRefused(
        () => createTokenProvider(options({ clock: { now: 5 } as never, cache })),
        "clock",
        "must have a now() method",
      );
    }
  });

  it("refuses a cache missing set or delete", () => {
    expectRefused(
      () => createTokenProvider(options({ cache: { get: () => undefined, set: () => undefined } as never })),
      "cache",
      "must have get, set and delete methods",
    );
  });

  it("refuses a cacheKeyPrefix that is not a string, and accepts an empty one", () => {
    expectRefused(
      () => createTokenProvider(options({ cacheKeyPrefix: 7 as unknown as string })),
      "cacheKeyPrefix",
      "must be a string",
    );
    expect(() => createTokenProvider(options({ cacheKeyPrefix: "" }))).not.toThrow();
  });

  it("refuses an onCacheError that is not a function", () => {
    expectRefused(
      () => createTokenProvider(options({ onCacheError: "log" as never })),
      "onCacheError",
      "must be a function",
    );
  });
});

describe("getToken options", () => {
  const signalLike = (fields: Record<string, unknown>) => fields as unknown as AbortSignal;

  it.each<[string, unknown]>([
    ["null", null],
    ["a string", "abort"],
    ["an object without addEventListener", { aborted: false }],
    ["an object whose aborted is not a boolean", { aborted: 0, addEventListener: () => undefined }],
    [
      "a function that looks like a signal",
      Object.assign(() => undefined, { aborted: false, addEventListener: () => undefined }),
    ],
  ])("refuses %s as signal, before any request", async (_name, signal) => {
    const fresh = new FakeAuthServer({ verify: false });
    const p = createTokenProvider(options({ fetch: fresh.fetch }));
    const error = await p
      .getToken({ signal: signalLike(signal as Record<string, unknown>) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DrillInvalidOptionError);
    expect((error as Error).message).toBe("Invalid option signal: must be an AbortSignal");
    expect(fresh.fetch).not.toHaveBeenCalled();
  });

  it("treats null options from JavaScript as no options", async () => {
    const fresh = new FakeAuthServer({ verify: false });
    const p = createTokenProvider(options({ fetch: fresh.fetch }));
    const token = await p.getToken(null as never);
    expect(token.subject).toBe(SERVICE_ACCOUNT_ID);
    expect(token.value).toBe(fresh.issued[0]);
    // Not a forced refresh: the next call is answered from the cache.
    expect((await p.getToken(null as never)).value).toBe(token.value);
    expect(fresh.tokenRequests).toHaveLength(1);
  });
});

describe("describing a provider", () => {
  it("shows the service account, key and subject, never the secret, in String, JSON and inspect", () => {
    const p = createTokenProvider(options({ subject: "pat@example.com" }));
    const text = `TokenProvider(serviceAccountId=${SERVICE_ACCOUNT_ID}, keyId=${KEY_ID}, subject=pat@example.com)`;
    expect(String(p)).toBe(text);
    expect(inspect(p)).toBe(text);
    expect(JSON.parse(JSON.stringify(p))).toEqual({
      serviceAccountId: SERVICE_ACCOUNT_ID,
      keyId: KEY_ID,
      subject: "pat@example.com",
    });
    for (const shown of [String(p), inspect(p), JSON.stringify(p)])
      expect(shown).not.toContain(CLIENT_SECRET);
  });

  it("names the service account itself as subject by default", () => {
    expect(JSON.parse(JSON.stringify(createTokenProvider(options())))).toMatchObject({
      subject: SERVICE_ACCOUNT_ID,
    });
  });
});
