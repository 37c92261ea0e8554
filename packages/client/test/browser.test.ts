/**
 * The built package in a real browser (Debian's headless Chromium): loaded as
 * native ES modules through an import map, no bundler, no Node globals. A
 * local server on 127.0.0.1 serves the modules and a small fake API.
 * Needs `pnpm build` first.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChromiumContext, chromiumPath, launchChromiumContext } from "@drill-practice/tooling/chromium";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declareMissing } from "../../../scripts/test-requirements.js";

const { path: chromiumExecutable, found } = chromiumPath();

const distDir = fileURLToPath(new URL("../dist/", import.meta.url));
const openapiFetchDir = join(
  dirname(createRequire(import.meta.url).resolve("openapi-fetch/package.json")),
  "dist",
);

const PAGE = `<!doctype html>
<meta charset="utf-8">
<script type="importmap">
{ "imports": {
  "@drill-practice/client": "/client/index.js",
  "@drill-practice/client/pagination": "/client/pagination.js",
  "openapi-fetch": "/openapi-fetch/index.mjs"
} }
</script>
<script type="module">
import {
  createDrillClient, unwrap, DrillApiError, DrillTimeoutError, DrillError, USER_AGENT,
} from "@drill-practice/client";
import { paginateStorePages } from "@drill-practice/client/pagination";
const log = {};
try {
  const client = createDrillClient({ baseUrl: location.origin, retry: { sleep: async () => {} } });
  const question = await unwrap(client.GET("/api/2/question", { params: { query: { drill: ["a b", "c+d"] } } }));
  log.question = question.question.tell.terms.map((term) => term.value);
  const encoded = await unwrap(client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: "x/ü @y" } } }));
  log.encoded = encoded.question.tell.terms.map((term) => term.value);
  const pages = [];
  for await (const page of paginateStorePages(client, { query: "q" }, { pageSize: 3 })) pages.push([page.start, page.drills.length]);
  log.pages = pages;
  log.flaky = (await client.GET("/api/2/version", { headers: { "x-scenario": "flaky" } })).response.status;
  try {
    await unwrap(client.GET("/api/2/store", { params: { query: {} } }));
  } catch (error) {
    log.apiError = [error instanceof DrillApiError, error instanceof DrillError, error.code, error.status, error.errorId];
  }
  const impatient = createDrillClient({ baseUrl: location.origin, timeoutMs: 200, retry: false });
  try {
    await impatient.GET("/api/2.1/version", { headers: { "x-scenario": "slow" } });
  } catch (error) {
    log.timeout = [error instanceof DrillTimeoutError, error.code];
  }
  const controller = new AbortController();
  const pending = client.GET("/api/2.1/version", { signal: controller.signal, headers: { "x-scenario": "slow" } });
  controller.abort(new Error("left the page"));
  log.aborted = await pending.then(() => "resolved", (error) => error.message);
  log.userAgentConstant = USER_AGENT;
} catch (error) {
  log.failure = String(error && error.stack || error);
}
window.__result = log;
</script>`;

interface Recorded {
  readonly url: string;
  readonly userAgent: string | undefined;
}

function startServer(recorded: Recorded[]): Promise<Server> {
  let flaky = 0;
  const entries = Array.from({ length: 8 }, (_, index) => ({
    id: `d${index}`,
    name: `Drill ${index}`,
    subject: "s",
    type: "DRILL",
    description: "d",
  }));
  const send = (res: ServerResponse, status: number, body: unknown, type = "application/json") => {
    res.writeHead(status, { "content-type": type });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const serveFile = async (res: ServerResponse, root: string, relativePath: string) => {
    const file = normalize(join(root, relativePath));
    if (!file.startsWith(root)) return send(res, 403, "forbidden", "text/plain");
    try {
      send(res, 200, await readFile(file, "utf8"), "text/javascript");
    } catch {
      send(res, 404, "not found", "text/plain");
    }
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/") return send(res, 200, PAGE, "text/html");
    if (url.pathname.startsWith("/client/")) return serveFile(res, distDir, url.pathname.slice(8));
    if (url.pathname.startsWith("/openapi-fetch/"))
      return serveFile(res, openapiFetchDir, url.pathname.slice(15));
    if (url.pathname === "/favicon.ico") return send(res, 404, "", "text/plain");
    recorded.push({ url: req.url ?? "", userAgent: req.headers["user-agent"] });
    const scenario = req.headers["x-scenario"];
    if (scenario === "slow") return; // never answers; the client's timeout or abort ends it
    if (scenario === "flaky" && flaky++ < 2) return send(res, 503, { ID: "busy" });
    if (url.pathname.startsWith("/api/2/question")) {
      const drills = [...url.searchParams.getAll("drill")];
      if (url.pathname !== "/api/2/question") drills.push(decodeURIComponent(url.pathname.slice(16)));
      return send(res, 200, {
        question: { tell: { terms: drills.map((value) => ({ value })) } },
        notifications: [],
      });
    }
    if (url.pathname === "/api/2/store") {
      if (!url.searchParams.has("query")) return send(res, 400, { ID: "query_missing" });
      const start = Number(url.searchParams.get("resultStart"));
      const size = Number(url.searchParams.get("resultSize"));
      return send(res, 200, { total: entries.length, drills: entries.slice(start, start + size) });
    }
    return send(res, 200, { version: "test" });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { ID: "error" }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

declareMissing(
  "client in Chromium",
  found ? undefined : `no Chromium at ${chromiumExecutable} (apt-get install chromium, or set CHROMIUM_PATH)`,
);

describe.runIf(found)("client in Chromium", () => {
  const recorded: Recorded[] = [];
  let server: Server;
  let browser: ChromiumContext;

  beforeAll(async () => {
    if (!existsSync(join(distDir, "index.js"))) throw new Error("run pnpm build before the browser test");
    server = await startServer(recorded);
    browser = await launchChromiumContext({ executablePath: chromiumExecutable, timeoutMs: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("runs searches, questions, pagination, retries, errors, timeouts and aborts", async () => {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => "__result" in globalThis, undefined, { timeout: 30_000 });
    const result = await page.evaluate(() => (globalThis as unknown as { __result: unknown }).__result);
    expect(pageErrors).toEqual([]);
    expect(result).toEqual({
      question: ["a b", "c+d"],
      encoded: ["x/ü @y"],
      pages: [
        [0, 3],
        [3, 3],
        [6, 2],
      ],
      flaky: 200,
      apiError: [true, true, "ERR_API", 400, "query_missing"],
      timeout: [true, "ERR_TIMEOUT"],
      aborted: "left the page",
      userAgentConstant: expect.stringMatching(/^drill-practice-sdk\//),
    });
    expect(recorded.map((entry) => entry.url)).toContain("/api/2/question?drill=a%20b&drill=c%2Bd");
    expect(recorded.map((entry) => entry.url)).toContain("/api/2/question/x%2F%C3%BC%20%40y");
    // In a browser the client leaves the User-Agent to the browser.
    for (const entry of recorded) expect(entry.userAgent).not.toMatch(/drill-practice-sdk/);
    expect(recorded.filter((entry) => entry.url === "/api/2/version")).toHaveLength(3);
  }, 60_000);
});
