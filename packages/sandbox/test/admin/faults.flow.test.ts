import { describe, expect, it } from "vitest";
import { SandboxOptionError } from "../../src/index.js";
import { client, signAssertion, start, tokenFor, tokenRequest } from "../support/helpers.js";

describe("fault injection", () => {
  it("fails the token endpoint N times with Retry-After, then succeeds (option)", async () => {
    const sandbox = await start({
      faults: [{ operationId: "exchangeToken", status: 503, times: 2, retryAfter: 1 }],
    });
    const assertion = await signAssertion(sandbox);
    for (let i = 0; i < 2; i++) {
      const failed = await tokenRequest(sandbox, { assertion });
      expect(failed.status).toBe(503);
      expect(failed.headers.get("retry-after")).toBe("1");
      expect(failed.body).toMatchObject({ id: "temporarily_unavailable", error: "temporarily_unavailable" });
    }
    expect((await tokenRequest(sandbox, { assertion })).status).toBe(200);
    expect(sandbox.faults()).toEqual([]);
  });

  it("fails an operation by operationId (method), leaving others alone", async () => {
    const sandbox = await start();
    const api = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const id = sandbox.injectFault({ operationId: "searchStore_v2_1", status: 429, times: 1, retryAfter: 2 });
    expect(sandbox.faults()).toEqual([
      { id, operationId: "searchStore_v2_1", status: 429, retryAfter: "2", delayMs: 0, remaining: 1 },
    ]);

    expect((await api("GET", "/api/2/store?query=dog")).status).toBe(200);
    const failed = await api("GET", "/api/2.1/store?query=dog");
    expect(failed.status).toBe(429);
    expect(failed.headers.get("retry-after")).toBe("2");
    expect(failed.body).toMatchObject({ ID: "injected_fault" });
    expect((await api("GET", "/api/2.1/store?query=dog")).status).toBe(200);
  });

  it("delays a response and then answers normally", async () => {
    const sandbox = await start();
    const api = client(sandbox, await tokenFor(sandbox));
    const delayMs = 1000;
    sandbox.injectFault({ operationId: "getVersion_v2_1", delayMs });
    const started = performance.now();
    const slow = await api("GET", "/api/2.1/version");
    const took = performance.now() - started;
    expect(slow.status).toBe(200);
    expect(took).toBeGreaterThanOrEqual(delayMs - 10);
    // The rule was for one response only: it is used up, and the next answer is not held back by it.
    expect(sandbox.faults()).toEqual([]);
    const t2 = performance.now();
    expect((await api("GET", "/api/2.1/version")).status).toBe(200);
    expect(performance.now() - t2).toBeLessThan(delayMs);
  });

  it("applies a wildcard rule to any operation, in order", async () => {
    const sandbox = await start();
    const api = client(sandbox, await tokenFor(sandbox));
    sandbox.injectFault({ operationId: "*", status: 502, times: 2 });
    expect((await api("GET", "/api/2.1/version")).status).toBe(502);
    expect((await api("GET", "/api/2.1/notifications")).status).toBe(502);
    expect((await api("GET", "/api/2.1/notifications")).status).toBe(200);
  });

  it("is steered over HTTP under /__sandbox/faults", async () => {
    const sandbox = await start();
    const admin = `${sandbox.url}/__sandbox/faults`;
    const post = (body: unknown) =>
      sandbox.fetch(admin, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    const added = await post([
      { operationId: "exchangeToken", status: 500, times: 1 },
      { operationId: "getVersion_v2_0", delayMs: 10, times: 3 },
    ]);
    expect(added.status).toBe(201);
    expect(((await added.json()) as { ids: number[] }).ids).toHaveLength(2);
    const listed = (await (await sandbox.fetch(admin)).json()) as {
      faults: { operationId: string; remaining: number }[];
    };
    expect(listed.faults.map((f) => [f.operationId, f.remaining])).toEqual([
      ["exchangeToken", 1],
      ["getVersion_v2_0", 3],
    ]);
    expect((await tokenRequest(sandbox, { assertion: await signAssertion(sandbox) })).status).toBe(500);

    expect((await sandbox.fetch(admin, { method: "DELETE" })).status).toBe(204);
    expect(sandbox.faults()).toEqual([]);

    const bad = await post({ operationId: "exchangeToken", status: 200 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      ID: "invalid_request",
      message: "fault.status: must be an integer from 400 to 599",
    });
    const unknown = await post({ operationId: "noSuchOperation", status: 500 });
    expect(((await unknown.json()) as { message: string }).message).toMatch(/^fault.operationId/);
    expect((await sandbox.fetch(`${sandbox.url}/__sandbox/nothing`)).status).toBe(404);
    expect((await sandbox.fetch(admin, { method: "PUT" })).status).toBe(405);
  });

  it("checks rules given programmatically", async () => {
    const sandbox = await start();
    expect(() => sandbox.injectFault({ operationId: "exchangeToken", times: 0, status: 500 })).toThrow(
      SandboxOptionError,
    );
    expect(() => sandbox.injectFault({ operationId: "exchangeToken" })).toThrow(
      /give a status, a delayMs or both/,
    );
    expect(() => sandbox.injectFault({ operationId: "exchangeToken", delayMs: 5, retryAfter: 3 })).toThrow(
      /retryAfter: needs a status/,
    );
    await expect(start({ faults: [{ operationId: "nope", status: 500 }] })).rejects.toThrow(
      /fault.operationId/,
    );
  });
});
