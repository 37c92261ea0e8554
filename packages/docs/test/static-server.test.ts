import { mkdir, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StaticServer, startStaticServer } from "../src/static-server.ts";

const parent = scratchDirForAll("drill-docs-serve-");
let root: string;
let server: StaticServer;

beforeAll(async () => {
  root = join(parent(), "site");
  await mkdir(join(root, "v2.1"), { recursive: true });
  await writeFile(join(root, "index.html"), "<h1>home</h1>");
  await writeFile(join(root, "style.css"), "body{}");
  await writeFile(join(root, "v2.1", "index.html"), "<h1>2.1</h1>");
  await writeFile(join(parent(), "secret.txt"), "outside the root");
  server = await startStaticServer({ root, port: 0 });
});

afterAll(async () => {
  await server.close();
});

/** A raw request, so that paths like `/../x` reach the server unnormalized. */
function rawGet(
  path: string,
  method = "GET",
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path, method }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(5_000, () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}

describe("startStaticServer", () => {
  it("listens on 127.0.0.1 and reports the chosen port", () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it("serves files with their content type", async () => {
    const css = await fetch(new URL("style.css", server.url));
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toBe("body{}");
  });

  it("answers a directory with its index.html", async () => {
    const home = await fetch(server.url);
    expect(home.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await home.text()).toBe("<h1>home</h1>");
    expect(await (await fetch(new URL("v2.1/", server.url))).text()).toBe("<h1>2.1</h1>");
  });

  it("redirects a directory without its slash so relative links resolve", async () => {
    const response = await rawGet("/v2.1");
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe("/v2.1/");
  });

  it("answers 404 for missing files and for paths that escape the root", async () => {
    expect((await rawGet("/nope.html")).status).toBe(404);
    for (const path of ["/../secret.txt", "/%2e%2e/secret.txt", "/v2.1/..%2f..%2fsecret.txt"]) {
      const response = await rawGet(path);
      expect(response.status, path).toBe(404);
      expect(response.body).not.toContain("outside the root");
    }
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await rawGet("/style.css", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe("6");
    expect(head.body).toBe("");
    const post = await rawGet("/style.css", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("answers 400 for a malformed escape", async () => {
    expect((await rawGet("/%E0%A4%A")).status).toBe(400);
  });
});
