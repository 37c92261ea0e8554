/**
 * `setupWorker(...sandboxHandlers(sandbox))` in a real headless Chromium page, with MSW 2 (the
 * workspace's) and MSW 3 (pinned in `runtimes/`): code that calls the global `fetch` gets the
 * in-process sandbox's answers. The page, its scripts and MSW's own `mockServiceWorker.js` (from the
 * MSW package under test) are served by this test on 127.0.0.1:0. Chromium (or MSW 3) missing: the
 * case is skipped loudly here and fails under CI=true.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, unwrap } from "@drill-practice/client";
import { createSandbox, IN_PROCESS_URL } from "@drill-practice/sandbox";
import { launchChromium } from "@drill-practice/tooling/chromium";
import { build, type Plugin } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { declareMissing } from "../../../scripts/test-requirements.js";
import type { MswBrowserReport } from "../src/entries/msw-browser-page.js";
import {
  binaryPath,
  RUNTIME_CASES,
  RUNTIMES_DIR,
  unavailable,
  unavailableWithMsw3,
} from "../src/runtimes.js";
import { operationsOf } from "./request-log.js";

const DEADLINE_MS = 30_000;
const QUERY = "spanish";

const chromiumCase = RUNTIME_CASES.find((runtime) => runtime.kind === "chromium");
if (chromiumCase === undefined) throw new Error("the matrix has no Chromium case");
const entriesDir = fileURLToPath(new URL("../src/entries/", import.meta.url));

interface MswVariant {
  readonly label: string;
  /** A folder from which `msw` resolves to the MSW under test. */
  readonly resolveFrom: string;
  readonly major: string;
  readonly missing: string | undefined;
}

const VARIANTS: readonly MswVariant[] = [
  {
    label: "MSW 2 (the workspace's)",
    resolveFrom: fileURLToPath(new URL("../", import.meta.url)),
    major: "2",
    missing: unavailable(chromiumCase),
  },
  {
    label: "MSW 3 (runtimes/)",
    resolveFrom: RUNTIMES_DIR,
    major: "3",
    missing: unavailableWithMsw3(chromiumCase),
  },
];

/** Resolves every `msw` import (the page's and the sandbox's `/msw` entry's) to the MSW under test. */
function mswFrom(dir: string): Plugin {
  return {
    name: "msw-under-test",
    setup(builder) {
      builder.onResolve({ filter: /^msw(\/.*)?$/ }, (args) =>
        args.pluginData === "msw-under-test"
          ? undefined
          : builder.resolve(args.path, { kind: args.kind, resolveDir: dir, pluginData: "msw-under-test" }),
      );
    },
  };
}

async function bundle(entry: string, variant: MswVariant): Promise<string> {
  const result = await build({
    entryPoints: [`${entriesDir}${entry}`],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    plugins: [mswFrom(variant.resolveFrom)],
    logLevel: "silent",
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error(`esbuild made nothing for ${entry}`);
  return file.text;
}

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
});

/** Serves the page, its two scripts and MSW's service worker script; anything else is a 404. */
async function serve(files: Readonly<Record<string, string>>): Promise<string> {
  const types: Record<string, string> = { html: "text/html", js: "text/javascript" };
  server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const body = files[path];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const extension = path === "/" ? "html" : (path.split(".").pop() ?? "");
    response.writeHead(200, {
      "content-type": types[extension] ?? "text/plain",
      "cache-control": "no-store",
    });
    response.end(body);
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

/**
 * The same search through the client against a sandbox in this process, and its advertised token
 * endpoint: what the page must see.
 */
async function expected(): Promise<{ tokenEndpoint: string; search: { total: number; ids: string[] } }> {
  const sandbox = await createSandbox();
  try {
    const keyFile = sandbox.credentials.keyFile();
    const client = createDrillClient({
      baseUrl: sandbox.url,
      fetch: sandbox.fetch,
      auth: serviceAccountAuth({
        key: JSON.stringify(keyFile),
        clientId: sandbox.credentials.clientId,
        clientSecret: sandbox.credentials.clientSecret,
        fetch: sandbox.fetch,
      }),
    });
    const page = await unwrap(
      client.GET("/api/2/store", {
        params: { query: { query: QUERY, searchField: ["NAME", "TAGS"], resultSize: "5" } },
      }),
    );
    return {
      tokenEndpoint: sandbox.tokenEndpoint,
      search: { total: page.total, ids: page.drills.map((drill) => drill.id) },
    };
  } finally {
    await sandbox.close();
  }
}

describe("sandboxHandlers with MSW's setupWorker in headless Chromium", () => {
  for (const variant of VARIANTS) {
    if (declareMissing(`setupWorker check, ${variant.label}`, variant.missing)) continue;
    it(
      `${variant.label}: token exchange and a search through the client on the global fetch of a page's worker, discovery from the page`,
      async () => {
        const require = createRequire(`${variant.resolveFrom}/package.json`);
        const mswManifest = JSON.parse(await readFile(require.resolve("msw/package.json"), "utf8")) as {
          version: string;
        };
        expect(mswManifest.version.split(".")[0]).toBe(variant.major);
        const origin = await serve({
          "/": '<!doctype html><title>msw</title><script src="/page.js"></script>',
          "/page.js": await bundle("msw-browser-page.ts", variant),
          "/user-code.js": await bundle("msw-browser-user.ts", variant),
          "/mockServiceWorker.js": await readFile(require.resolve("msw/mockServiceWorker.js"), "utf8"),
        });

        const browser = await launchChromium({
          executablePath: binaryPath(chromiumCase),
          timeoutMs: DEADLINE_MS,
        });
        const log: string[] = [];
        let report: MswBrowserReport;
        try {
          const page = await browser.newPage();
          page.on("console", (message) => log.push(`console.${message.type()}: ${message.text()}`));
          page.on("pageerror", (error) => log.push(`page error: ${error.message}`));
          await page.goto(`${origin}/`, { timeout: DEADLINE_MS });
          const handle = await page.waitForFunction(
            () => (globalThis as { mswReport?: unknown }).mswReport,
            undefined,
            { timeout: DEADLINE_MS },
          );
          report = (await handle.jsonValue()) as MswBrowserReport;
        } finally {
          await browser.close();
        }

        const context = `${variant.label}\n${JSON.stringify(report, null, 2)}\n${log.join("\n")}`;
        expect(report.ok, context).toBe(true);
        expect(report.controlled, context).toBe(true);
        expect(report.sandboxUrl, context).toBe(IN_PROCESS_URL);
        const want = await expected();
        expect(report.discovery, context).toEqual({ status: 200, tokenEndpoint: want.tokenEndpoint });
        // The page's worker got the sandbox's real answer, after the client retried the injected 503.
        expect(want.search.total, context).toBeGreaterThan(0);
        expect(report.user, context).toEqual({
          ok: true,
          tokenType: expect.stringMatching(/^bearer$/i),
          ...want.search,
        });
        expect(report.elsewhere, context).toBe("not answered by the sandbox");
        expect(operationsOf(report.requests ?? []), context).toEqual([
          "getAuthorizationServerMetadata 200",
          "getAuthorizationServerMetadata 200",
          "exchangeToken 200",
          "searchStore_v2_0 503",
          "searchStore_v2_0 200",
        ]);
        expect(report.violations, context).toBe(0);
      },
      DEADLINE_MS * 2,
    );
  }
});
