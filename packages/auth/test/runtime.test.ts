import { afterEach, describe, expect, it } from "vitest";
import {
  BrowserRuntimeError,
  createTokenProvider,
  parseServiceAccountKey,
  serviceAccountAuth,
} from "../src/index.js";
import { readServiceAccountKey } from "../src/node.js";
import { hasBrowserDocument } from "../src/runtime.js";
import { CLIENT_ID, CLIENT_SECRET, keyFileObject, testKey } from "./helpers.js";

const scope = globalThis as { document?: unknown };

afterEach(() => {
  delete scope.document;
});

describe("browser refusal", () => {
  it("refuses every entry point where a browser document exists", async () => {
    const key = await testKey();
    scope.document = { title: "a web page" };
    expect(hasBrowserDocument()).toBe(true);
    await expect(parseServiceAccountKey(keyFileObject())).rejects.toBeInstanceOf(BrowserRuntimeError);
    await expect(readServiceAccountKey("/nonexistent.json")).rejects.toMatchObject({
      code: "ERR_BROWSER_RUNTIME",
    });
    expect(() =>
      createTokenProvider({
        baseUrl: "https://drill.test",
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        key,
      }),
    ).toThrow(BrowserRuntimeError);
    expect(() =>
      serviceAccountAuth({ key: keyFileObject(), clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
    ).toThrow(
      /refuses to run in a browser: a service account private key must never be shipped to a public client/,
    );
  });

  it("runs where there is no document", async () => {
    expect(hasBrowserDocument()).toBe(false);
    scope.document = null;
    expect(hasBrowserDocument()).toBe(false);
    await expect(parseServiceAccountKey(keyFileObject())).resolves.toBeDefined();
  });
});
