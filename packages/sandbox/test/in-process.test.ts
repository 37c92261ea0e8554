import { describe, expect, it } from "vitest";
import { createSandbox, IN_PROCESS_URL, SandboxOptionError } from "../src/index.js";
import { SMALL_DATA } from "./helpers.js";

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
});
