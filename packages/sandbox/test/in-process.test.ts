import { describe, expect, it } from "vitest";
import { createSandbox, IN_PROCESS_URL, SandboxOptionError } from "../src/index.js";
import { client, SMALL_DATA, signAssertion, tokenRequest } from "./support/helpers.js";

describe("createSandbox", () => {
  it("answers for its fixed, reserved origin", async () => {
    const sandbox = await createSandbox({ data: SMALL_DATA });
    expect(sandbox.url).toBe(IN_PROCESS_URL);
    expect(new URL(sandbox.url).hostname.endsWith(".invalid")).toBe(true);
    expect(sandbox.tokenEndpoint).toBe(`${IN_PROCESS_URL}/daas/oauth/token`);
    const res = await sandbox.fetch(new URL("/.well-known/oauth-authorization-server", sandbox.url));
    expect(await res.json()).toEqual({
      issuer: IN_PROCESS_URL,
      token_endpoint: `${IN_PROCESS_URL}/daas/oauth/token`,
    });
    // A Request object works as well as a URL and init.
    const version = await sandbox.fetch(new Request(`${sandbox.url}/api/2.1/version`));
    expect(version.status).toBe(401);
  });

  it("refuses a request for another origin with a TypeError naming both, sending nothing", async () => {
    const sandbox = await createSandbox({ data: SMALL_DATA });
    const lines: string[] = [];
    const logged = await createSandbox({ data: SMALL_DATA, onRequest: (line) => lines.push(line) });
    for (const url of [
      "http://127.0.0.1:4010/api/2.1/version",
      "https://sandbox.drill-practice.invalid:8443/",
    ]) {
      const error = await logged.fetch(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(IN_PROCESS_URL);
      expect((error as Error).message).toContain(new URL(url).origin);
    }
    expect(lines).toEqual([]);
    await expect(sandbox.fetch("https://example.com/")).rejects.toThrow(/answers only for/);
  });

  it("refuses every request once closed", async () => {
    const sandbox = await createSandbox({ data: SMALL_DATA });
    await sandbox.close();
    await expect(sandbox.fetch(`${sandbox.url}/api/2.1/version`)).rejects.toThrow(/closed/);
  });

  it("refuses the options that need a socket or a file system instead of ignoring them", async () => {
    for (const [name, value] of [
      ["port", 0],
      ["host", "127.0.0.1"],
      ["dataFile", "./data.json"],
      ["responsesFile", "./responses.json"],
      ["credentialsDir", "./creds"],
    ] as const) {
      const error = await createSandbox({ [name]: value } as never).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(SandboxOptionError);
      expect((error as Error).message).toMatch(new RegExp(`^${name}: not an option of createSandbox`));
    }
  });

  it("rejects with the abort reason when the request's signal is already aborted", async () => {
    const sandbox = await createSandbox({ data: SMALL_DATA });
    const controller = new AbortController();
    controller.abort(new Error("gave up"));
    await expect(
      sandbox.fetch(`${sandbox.url}/api/2.1/version`, { signal: controller.signal }),
    ).rejects.toThrow("gave up");
  });

  it("keeps separate state per sandbox, like separate servers", async () => {
    const a = await createSandbox({ data: SMALL_DATA });
    const b = await createSandbox({ data: SMALL_DATA });
    a.injectFault({ operationId: "getVersion_v2_1", status: 503 });
    expect(a.faults()).toHaveLength(1);
    expect(b.faults()).toEqual([]);
    expect(a.credentials.clientSecret).not.toBe(b.credentials.clientSecret);
    expect(a.credentials.keyFile()?.keyId).not.toBe(b.credentials.keyFile()?.keyId);
  });

  describe("publicUrl: the in-process sandbox served from another address", () => {
    const PUBLIC = "https://drill.proxy.test";

    /** What a Worker serving `sandbox.fetch` at PUBLIC does: hand each request on for the sandbox's origin. */
    function front(sandbox: { fetch: typeof fetch }) {
      return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        if (url.origin !== PUBLIC) throw new TypeError(`the front answers only for ${PUBLIC}`);
        const body = request.body === null ? undefined : await request.arrayBuffer();
        return sandbox.fetch(`${IN_PROCESS_URL}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          ...(body === undefined ? {} : { body }),
        });
      };
    }

    it("advertises the public URL and runs a whole flow through the front, its aud included", async () => {
      const sandbox = await createSandbox({ data: SMALL_DATA, publicUrl: PUBLIC });
      expect(sandbox.url).toBe(IN_PROCESS_URL);
      expect(sandbox.publicUrl).toBe(PUBLIC);
      expect(sandbox.tokenEndpoint).toBe(`${PUBLIC}/daas/oauth/token`);
      const served = { ...sandbox, url: PUBLIC, fetch: front(sandbox) };

      const discovery = await served.fetch(`${PUBLIC}/.well-known/oauth-authorization-server`);
      expect(await discovery.json()).toEqual({
        issuer: PUBLIC,
        token_endpoint: `${PUBLIC}/daas/oauth/token`,
      });
      // signAssertion's aud is the handle's tokenEndpoint: the public one.
      const exchange = await tokenRequest(served, { assertion: await signAssertion(sandbox) });
      expect(exchange.status).toBe(200);
      const me = await client(served, exchange.body.access_token as string)("GET", "/api/2.1/session");
      expect(me.status).toBe(200);
      // The sandbox itself still answers only for its own origin.
      await expect(sandbox.fetch(`${PUBLIC}/api/2.1/version`)).rejects.toThrow(/answers only for/);
    });

    it("still accepts its own token endpoint as aud, and names the public one when refusing", async () => {
      const sandbox = await createSandbox({ data: SMALL_DATA, publicUrl: PUBLIC });
      // Posted straight to the sandbox's own token endpoint, not through the front.
      const direct = { ...sandbox, tokenEndpoint: `${IN_PROCESS_URL}/daas/oauth/token` };
      const accepted = await tokenRequest(direct, {
        assertion: await signAssertion(sandbox, { claims: { aud: `${IN_PROCESS_URL}/daas/oauth/token` } }),
      });
      expect(accepted.status).toBe(200);
      const refused = await tokenRequest(direct, {
        assertion: await signAssertion(sandbox, {
          claims: { aud: "https://elsewhere.test/daas/oauth/token" },
        }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        id: "invalid_grant",
        description: `assertion claim aud: must be the token endpoint URI ${PUBLIC}/daas/oauth/token`,
      });
    });

    it("refuses a bad publicUrl as startSandbox does, naming the option and the rule", async () => {
      for (const publicUrl of ["sandbox.test", "https://drill.proxy.test/", "https://a@drill.proxy.test"]) {
        const error = await createSandbox({ publicUrl }).catch((e: unknown) => e);
        expect(error, publicUrl).toBeInstanceOf(SandboxOptionError);
        expect((error as Error).message).toMatch(/^publicUrl: must be an absolute http: or https: URL/);
      }
    });
  });
});
