/**
 * Runtime-neutral entry points: the main entry's whole import graph (this
 * package and the client code it pulls in) imports no Node built-in; file
 * reading is reachable only from `@drill-practice/auth/node`.
 */

import { readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createDrillClient } from "@drill-practice/client";
import { describe, expect, it } from "vitest";
import { serviceAccountAuth } from "../src/index.js";
import { CLIENT_ID, CLIENT_SECRET, FakeAuthServer, json, keyFileObject } from "./helpers.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const clientSrc = join(packageDir, "../client/src");
const workspace: Record<string, string> = {
  "@drill-practice/client": join(clientSrc, "index.ts"),
  "@drill-practice/client/internal": join(clientSrc, "core/index.ts"),
};
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Every module reachable from `entry` by static or dynamic import, with its bare imports. */
async function graph(entry: string) {
  const seen = new Set<string>();
  const bare: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(file, "utf8");
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\b(?!\s+type\b)[^;]*?\bfrom\s+"([^"]+)"/gm),
      ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
    ].map((match) => match[1] as string);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else if (workspace[specifier]) queue.push(workspace[specifier] as string);
      else bare.push(`${relative(packageDir, file)}: ${specifier}`);
    }
  }
  return { files: [...seen].map((file) => relative(packageDir, file)), bare };
}

describe("entry points", () => {
  it("the main entry reaches no Node built-in, not even through the client", async () => {
    const { files, bare } = await graph(join(packageDir, "src/index.ts"));
    expect(files).toContain("../client/src/core/index.ts");
    expect(bare.filter((line) => builtins.has(line.split(": ")[1] as string))).toEqual([]);
    expect(files).not.toContain("src/read-key-file.ts");
  });

  it("the node entry is where the key file is read", async () => {
    const { files, bare } = await graph(join(packageDir, "src/node.ts"));
    expect(files).toContain("src/read-key-file.ts");
    expect(bare).toContain("src/read-key-file.ts: node:fs/promises");
    const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
      exports: Record<string, { types: string; default: string }>;
    };
    expect(manifest.exports["./node"]).toEqual({ types: "./dist/node.d.ts", default: "./dist/node.js" });
  });

  it("calls fetch unbound, never as a method of an options object", async () => {
    const offenders: string[] = [];
    for (const file of [
      "src/auth-request.ts",
      "src/discovery.ts",
      "src/token-exchange.ts",
      "src/middleware.ts",
    ]) {
      const text = await readFile(join(packageDir, file), "utf8");
      for (const match of text.matchAll(/\b\w+\.fetch\(/g)) offenders.push(`${file}: ${match[0]}`);
    }
    const transport = await readFile(join(clientSrc, "core/transport.ts"), "utf8");
    for (const match of transport.matchAll(/\b\w+\.fetch\(/g)) offenders.push(`transport.ts: ${match[0]}`);
    expect(offenders).toEqual([]);
  });

  it("works with a fetch that throws Illegal invocation when called as a method, as workerd's does", async () => {
    const server = new FakeAuthServer();
    const calls: string[] = [];
    // Like the platform fetch of Cloudflare Workers: `this` must be undefined or the global object.
    function strictFetch(
      this: unknown,
      input: Request | string | URL,
      init?: RequestInit,
    ): Promise<Response> {
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      const request = new Request(input, init);
      calls.push(new URL(request.url).pathname);
      if (request.url.startsWith(`${server.baseUrl}/api/`))
        return Promise.resolve(json({ version: "2.1.0" }));
      return server.fetch(request);
    }
    const client = createDrillClient({
      baseUrl: server.baseUrl,
      fetch: strictFetch as typeof fetch,
      auth: serviceAccountAuth({ key: keyFileObject(), clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
      throwOnError: true,
    });
    expect(await client.GET("/api/2.1/version")).toEqual({ version: "2.1.0" });
    expect(calls).toEqual([
      "/.well-known/oauth-authorization-server",
      new URL(server.tokenEndpoint).pathname,
      "/api/2.1/version",
    ]);
  });
});
