/**
 * `publicUrl`: the sandbox behind a proxy. Discovery advertises the proxy's address and the token
 * endpoint accepts the proxy's token endpoint URI as `aud`, so that a whole flow, the token exchange
 * included, passes through the proxy (which, like most reverse proxies, rewrites `Host`).
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxOptionError } from "../src/index.js";
import { client, signAssertion, start, tokenRequest } from "./support/helpers.js";

interface Proxy {
  readonly url: string;
  /** Method and path of each request the proxy forwarded. */
  readonly seen: string[];
}

const proxies: Server[] = [];
afterEach(async () => {
  for (const server of proxies.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A minimal reverse proxy on `port` that forwards to `target` with the target's own Host. */
async function startProxy(port: number, target: () => string): Promise<Proxy> {
  const seen: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push(`${req.method} ${req.url}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name !== "host" && name !== "connection" && typeof value === "string") headers.set(name, value);
    }
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const upstream = await fetch(`${target()}${req.url}`, {
      method: req.method ?? "GET",
      headers,
      ...(body === undefined ? {} : { body }),
    });
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/plain" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  proxies.push(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, seen };
}

describe("publicUrl: the sandbox behind a proxy", () => {
  it("advertises the public URL in discovery, whatever Host the request carries", async () => {
    const sandbox = await start({ publicUrl: "https://drill.proxy.test/base" });
    expect(sandbox.publicUrl).toBe("https://drill.proxy.test/base");
    expect(sandbox.tokenEndpoint).toBe("https://drill.proxy.test/base/daas/oauth/token");
    const res = await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toEqual({
      issuer: "https://drill.proxy.test/base",
      token_endpoint: "https://drill.proxy.test/base/daas/oauth/token",
    });
  });

  it("passes a whole flow through the proxy: discovery, token exchange with the proxy's aud, a call", async () => {
    // The proxy's port, closed until the proxy starts: the sandbox must know the address first.
    const port = await closedLoopbackPort();
    let sandboxUrl = "";
    const proxy = await startProxy(port, () => sandboxUrl);
    const sandbox = await start({ publicUrl: proxy.url });
    sandboxUrl = sandbox.url;

    const discovery = (await (await fetch(`${proxy.url}/.well-known/oauth-authorization-server`)).json()) as {
      token_endpoint: string;
    };
    expect(discovery.token_endpoint).toBe(`${proxy.url}/daas/oauth/token`);

    // The assertion's aud is the advertised endpoint, and the request goes to it: through the proxy.
    const assertion = await signAssertion(sandbox, { claims: { aud: discovery.token_endpoint } });
    const exchange = await tokenRequest(sandbox, { assertion });
    expect(exchange.status).toBe(200);
    const me = await client({ ...sandbox, url: proxy.url }, exchange.body.access_token as string)(
      "GET",
      "/api/2.1/session",
    );
    expect(me.status).toBe(200);
    expect(proxy.seen).toEqual([
      "GET /.well-known/oauth-authorization-server",
      "POST /daas/oauth/token",
      "GET /api/2.1/session",
    ]);
  });

  it("still accepts its own token endpoint as aud, and names the public one when refusing", async () => {
    const sandbox = await start({ publicUrl: "http://127.0.0.1:9" });
    const direct = await fetch(`${sandbox.url}/daas/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        client_id: sandbox.credentials.clientId,
        client_secret: sandbox.credentials.clientSecret,
        assertion: await signAssertion(sandbox, { claims: { aud: `${sandbox.url}/daas/oauth/token` } }),
      }),
    });
    expect(direct.status).toBe(200);

    const wrong = await fetch(`${sandbox.url}/daas/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        client_id: sandbox.credentials.clientId,
        client_secret: sandbox.credentials.clientSecret,
        assertion: await signAssertion(sandbox, { claims: { aud: "http://127.0.0.1:8/daas/oauth/token" } }),
      }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      id: "invalid_grant",
      description: "assertion claim aud: must be the token endpoint URI http://127.0.0.1:9/daas/oauth/token",
    });
  });

  it("writes the public URL to client.env", async () => {
    await withScratchDir("sandbox-public-url-", async (dir) => {
      await start({ publicUrl: "http://127.0.0.1:4040", credentialsDir: dir });
      expect(await readFile(join(dir, "client.env"), "utf8")).toContain(
        "DRILL_BASE_URL=http://127.0.0.1:4040\n",
      );
    });
  });

  it.each([
    "127.0.0.1:4040",
    "ftp://127.0.0.1:4040",
    "http://127.0.0.1:4040/",
    "http://127.0.0.1:4040?x=1",
    "http://127.0.0.1:4040#top",
    "http://user:pw@127.0.0.1:4040",
    "",
  ])("refuses publicUrl %j, naming the option and the rule", async (publicUrl) => {
    const failure = await start({ publicUrl }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxOptionError);
    expect((failure as Error).message).toMatch(
      /^publicUrl: must be an absolute http: or https: URL without credentials, query, fragment or trailing slash/,
    );
  });
});
