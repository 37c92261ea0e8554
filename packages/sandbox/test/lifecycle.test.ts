import { Agent } from "node:http";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../src/index.js";
import { client, SMALL_DATA, start, tokenFor } from "./support/helpers.js";
import { rawRequest } from "./support/raw-http.js";

/** Node's default `server.keepAliveTimeout`, which the sandbox leaves as it is. */
const KEEP_ALIVE_TIMEOUT_MS = 5000;

describe("lifecycle", () => {
  it("close() ends idle keep-alive connections at once", async () => {
    const sandbox = await startSandbox({ data: SMALL_DATA });
    const agent = new Agent({ keepAlive: true });
    const { status } = await rawRequest(sandbox.url, {
      path: "/.well-known/oauth-authorization-server",
      agent,
    });
    expect(status).toBe(200);
    const started = performance.now();
    await sandbox.close();
    // Left alone, the idle connection would hold close() up until the server's keep-alive timeout
    // (Node's default: 5 s) ends it; the bound stays well clear of a slow machine's scheduling delays
    // yet below that timeout, so it only passes if close() ended the connection itself.
    expect(performance.now() - started).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS - 500);
    await expect(fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).rejects.toThrow();
    // Closing twice is harmless.
    await sandbox.close();
    agent.destroy();
  });

  it("logs the path and the query's parameter names, never a query value", async () => {
    const lines: string[] = [];
    const sandbox = await start({ onRequest: (line) => lines.push(line) });
    const api = client(sandbox, await tokenFor(sandbox));
    const secret = "s3cr3t-value";
    await api(
      "GET",
      `/api/2.1/store?query=${secret}&searchField=NAME&searchField=TAGS&access_token=${secret}`,
    );
    await api("GET", "/api/2.1/version");
    const store = lines.find((line) => line.includes("/api/2.1/store"));
    expect(store).toMatch(
      /^GET \/api\/2\.1\/store\?query&searchField&access_token \d{3} searchStore_v2_1 \d+ms$/,
    );
    expect(lines.find((line) => line.includes("/api/2.1/version"))).toMatch(
      /^GET \/api\/2\.1\/version 200 getVersion_v2_1 \d+ms$/,
    );
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain("NAME");
    }
  });

  it("serves HEAD wherever GET is, without a body", async () => {
    const sandbox = await start();
    const res = await fetch(`${sandbox.url}/api/2.1/version`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${await tokenFor(sandbox)}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("keeps separate state per sandbox", async () => {
    const a = await start();
    const b = await start();
    const apiA = client(a, await tokenFor(a, "u-ana"));
    const apiB = client(b, await tokenFor(b, "u-ana"));
    expect((await apiA("PUT", "/api/2.1/repertoire/es-animals")).status).toBe(200);
    expect(((await apiA("GET", "/api/2.1/repertoire")).body as { total: number }).total).toBe(1);
    expect(((await apiB("GET", "/api/2.1/repertoire")).body as { total: number }).total).toBe(0);
  });
});
