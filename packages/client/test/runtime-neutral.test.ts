/**
 * The client's entry point must run where only Web-standard APIs exist (browsers,
 * Deno, Bun, workers). Two behaviours a user of such a runtime notices:
 * 1. a bundler targeting the browser or a neutral platform can bundle the entry
 *    (a `node:` import, or a bare `fs`/`buffer`/…, makes that build fail), and
 * 2. the bundle works in a global scope that holds the Web APIs and nothing of
 *    Node (no `process`, `Buffer`, `require`, `global`).
 */
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { createContext, runInContext } from "node:vm";
import { type BuildResult, build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, DRILLABLE, json } from "./helpers.js";

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

function bundle(platform: "browser" | "neutral"): Promise<BuildResult<{ write: false; metafile: true }>> {
  return build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform,
    format: "iife",
    globalName: "DrillClient",
    // `neutral` resolves no package field by default; openapi-fetch ships ESM under `module`/exports.
    mainFields: ["module", "main"],
    conditions: ["import", "default"],
    logLevel: "silent",
  });
}

/** Every import path the bundle resolved, from esbuild's metafile. */
function importedPaths(result: BuildResult<{ metafile: true }>): string[] {
  return Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((imp) => imp.path));
}

describe("runtime neutrality of @drill-practice/client", () => {
  let browser: BuildResult<{ write: false; metafile: true }>;
  beforeAll(async () => {
    browser = await bundle("browser");
  });

  it("bundles for the browser and for a neutral platform without any Node built-in", async () => {
    const neutral = await bundle("neutral");
    for (const result of [browser, neutral]) {
      expect(result.errors).toEqual([]);
      const imports = importedPaths(result);
      expect(imports.length).toBeGreaterThan(0);
      expect(imports.filter((path) => nodeBuiltins.has(path))).toEqual([]);
    }
  });

  it("a bundle that imports a Node built-in is refused (the check above can fail)", async () => {
    // The same build, fed a module that imports node:fs: esbuild must refuse it for the browser.
    const refused = await build({
      stdin: {
        contents: 'import { readFileSync } from "node:fs"; export const f = readFileSync;',
        loader: "ts",
      },
      bundle: true,
      write: false,
      platform: "browser",
      logLevel: "silent",
    }).catch((error: { errors?: { text: string }[] }) => error);
    expect("errors" in refused && refused.errors?.some((e) => /node:fs/.test(e.text))).toBe(true);
  });

  it("creates a client and sends a request in a scope with Web APIs and no Node globals", async () => {
    const code = browser.outputFiles[0]?.text ?? "";
    const sent: Request[] = [];
    const fetch = async (input: Request) => {
      sent.push(input);
      return json({ total: 1, drills: [DRILLABLE] });
    };
    // Only what a browser or worker has; `globalThis` inside is the context object itself.
    const scope = createContext({
      fetch,
      Request,
      Response,
      Headers,
      URL,
      URLSearchParams,
      AbortController,
      AbortSignal,
      DOMException,
      TextEncoder,
      TextDecoder,
      Blob,
      FormData,
      ReadableStream,
      structuredClone,
      setTimeout,
      clearTimeout,
      queueMicrotask,
      console,
    });
    runInContext(code, scope, { filename: "drill-client.iife.js" });
    const checks = runInContext(
      "[typeof process, typeof Buffer, typeof require, typeof global, typeof DrillClient.createDrillClient]",
      scope,
    );
    expect(checks).toEqual(["undefined", "undefined", "undefined", "undefined", "function"]);

    const { createDrillClient, unwrap } = (scope as { DrillClient: typeof import("../src/index.js") })
      .DrillClient;
    const client = createDrillClient({ baseUrl: BASE_URL, retry: false });
    const found = await unwrap(client.GET("/api/2/store", { params: { query: { query: "spanish" } } }));

    expect(found.drills?.map((drill) => drill.id)).toEqual([DRILLABLE.id]);
    expect(sent).toHaveLength(1);
    expect(new URL(sent[0]?.url ?? "").searchParams.get("query")).toBe("spanish");
    // Outside Node the client leaves the user agent to the runtime (browsers forbid setting it).
    expect(sent[0]?.headers.get("user-agent")).toBeNull();
  });
});
