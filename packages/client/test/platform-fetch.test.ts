/**
 * The client without an injected fetch: the transport hands the platform's
 * fetch its signal in `init` and relies on it to honour the signal, so these
 * tests run against a real server on 127.0.0.1 instead of a scripted fetch.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDrillClient, DrillNetworkError, DrillTimeoutError } from "../src/index.js";
import { USER_AGENT } from "../src/version.js";

const seen: { path: string; userAgent: string | undefined; body: string }[] = [];
const open = new Set<ServerResponse>();

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  seen.push({ path, userAgent: request.headers["user-agent"], body });
  open.add(response);
  response.on("close", () => open.delete(response));
  if (path === "/api/2/version") {
    response.writeHead(200, { "content-type": "application/json" }).end('{"version":"2.0.7"}');
  } else if (path === "/api/2/answer/busy") {
    // Busy once per body, then accepted: shows the re-sent body.
    const busy = seen.filter((entry) => entry.path === path).length === 1;
    response.writeHead(busy ? 503 : 204).end();
  } else if (path === "/api/2.1/version") {
    // Headers and half a body, then nothing.
    response.writeHead(200, { "content-type": "application/json" });
    response.write('{"version":');
  }
  // Any other path: no answer at all.
}

const server = createServer((request, response) => {
  let body = "";
  request.setEncoding("utf8");
  request.on("data", (chunk: string) => {
    body += chunk;
  });
  request.on("end", () => answer(request, response, body));
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const response of open) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe("the platform's fetch (no fetch injected)", () => {
  it("sends the User-Agent and reads the body, with and without a timeout", async () => {
    for (const timeoutMs of [5_000, false] as const) {
      const client = createDrillClient({ baseUrl, timeoutMs, retry: false });
      const { data, response } = await client.GET("/api/2/version");
      expect(data).toEqual({ version: "2.0.7" });
      expect(response.url).toBe(`${baseUrl}/api/2/version`);
      expect(seen.at(-1)?.userAgent).toBe(USER_AGENT);
    }
  });

  it("adds the User-Agent when a middleware removed it, and keeps a caller's own", async () => {
    const removing = createDrillClient({
      baseUrl,
      retry: false,
      middleware: [
        {
          onRequest({ request }) {
            request.headers.delete("user-agent");
            return request;
          },
        },
      ],
    });
    await removing.GET("/api/2/version");
    expect(seen.at(-1)?.userAgent).toBe(USER_AGENT);
    const own = createDrillClient({ baseUrl, retry: false, headers: { "User-Agent": "my-app/3" } });
    await own.GET("/api/2/version");
    expect(seen.at(-1)?.userAgent).toBe("my-app/3");
  });

  it("times out while waiting for the headers", async () => {
    const client = createDrillClient({ baseUrl, timeoutMs: 150, retry: false });
    const started = Date.now();
    const call = client.GET("/api/2.1/repertoire");
    await expect(call).rejects.toBeInstanceOf(DrillTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("times out a body that stalls after the headers", async () => {
    const client = createDrillClient({ baseUrl, timeoutMs: 200, retry: false });
    const call = client.GET("/api/2.1/version");
    await expect(call).rejects.toBeInstanceOf(DrillTimeoutError);
  });

  it("rejects with the caller's reason when the caller aborts, with and without a timeout", async () => {
    for (const timeoutMs of [5_000, false] as const) {
      const client = createDrillClient({ baseUrl, timeoutMs, retry: false });
      const headers = new AbortController();
      const waiting = client.GET("/api/2.1/repertoire", { signal: headers.signal });
      setTimeout(() => headers.abort(new Error("left the page")), 50);
      await expect(waiting).rejects.toThrow("left the page");

      const body = new AbortController();
      const reading = client.GET("/api/2.1/version", { signal: body.signal });
      setTimeout(() => body.abort(new Error("stop reading")), 100);
      await expect(reading).rejects.toThrow("stop reading");
    }
  });

  it("re-sends a request body on retry", async () => {
    const client = createDrillClient({
      baseUrl,
      retry: { methods: ["PUT"], sleep: async () => {} },
    });
    const { response } = await client.PUT("/api/2/answer/{reference}", {
      params: { path: { reference: "busy" } },
      body: { answer: ["to eat"] },
    });
    expect(response.status).toBe(204);
    const sent = seen.filter((entry) => entry.path === "/api/2/answer/busy");
    expect(sent.map((entry) => entry.body)).toEqual(["answer=to+eat", "answer=to+eat"]);
  });

  it("reports a refused connection as a DrillNetworkError", async () => {
    const port = await closedLoopbackPort();
    for (const timeoutMs of [5_000, false] as const) {
      const client = createDrillClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs, retry: false });
      await expect(client.GET("/api/2/version")).rejects.toBeInstanceOf(DrillNetworkError);
    }
  });
});
