import { stat } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import sirv from "sirv";
import { fingerprintedAsset } from "./shared-redoc.ts";

/** Options for {@link startStaticServer}. */
export interface StaticServerOptions {
  /** Directory whose files are served (the built site, `dist/`). */
  root: string;
  /** Port to listen on; `0` picks a free one. Default `8080`. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`, so the preview is never exposed to the network. */
  host?: string;
}

/** A running static server. */
export interface StaticServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:8080/`. */
  url: string;
  /** The port actually bound (useful with port `0`). */
  port: number;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
};

/** A short plain-text answer (errors and the directory redirect). */
function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  response.end(body);
}

/**
 * Fingerprinted assets never change under their name, so browsers may keep them for a year
 * without asking; everything else is revalidated on each load.
 *
 * @example
 * ```ts
 * import { cacheControl } from "./static-server.ts";
 *
 * cacheControl("assets/redoc.0123456789abcdef.js"); // "public, max-age=31536000, immutable"
 * cacheControl("index.html"); // "no-cache"
 * ```
 */
export function cacheControl(path: string): string {
  return fingerprintedAsset.test(path) ? "public, max-age=31536000, immutable" : "no-cache";
}

/**
 * The encodings a request accepts, by `Accept-Encoding` (a `q=0` refuses one).
 *
 * @example
 * ```ts
 * import { acceptedEncodings } from "./static-server.ts";
 *
 * acceptedEncodings("gzip, br;q=0.9"); // Set { "gzip", "br" }
 * acceptedEncodings("gzip, br;q=0"); // Set { "gzip" }
 * ```
 */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q !== undefined && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

/**
 * Serves a directory over HTTP for previewing the site and for the browser tests.
 * Directories answer with their `index.html`; a directory URL without its trailing slash
 * is redirected so that relative links inside the page resolve against the directory. Files the
 * build precompressed are sent as brotli or gzip when the client accepts it, and fingerprinted
 * assets are cached for good.
 *
 * @example
 * ```ts
 * import { startStaticServer } from "./static-server.ts";
 *
 * const server = await startStaticServer({ root: "dist", port: 0 });
 * console.log(`open ${server.url}`);
 * await server.close();
 * ```
 */
export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = resolve(options.root);
  const host = options.host ?? "127.0.0.1";

  // sirv picks the build's `.br`/`.gz` copy and streams the file; `dev` looks each request up on
  // disk, so a rebuild under a running preview is served without a restart.
  const files = sirv(root, {
    dev: true,
    brotli: true,
    gzip: true,
    extensions: ["html"],
    setHeaders: (response, pathname) => {
      const type = contentTypes[extname(pathname.endsWith("/") ? "index.html" : pathname)];
      if (type) response.setHeader("content-type", type);
      response.setHeader("cache-control", cacheControl(pathname.slice(1)));
    },
    onNoMatch: (_request, response) => send(response, 404, "not found\n"),
  });

  const server = createServer(async (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, 405, "method not allowed\n", { allow: "GET, HEAD" });
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      send(response, 400, "bad request\n");
      return;
    }
    const file = resolve(join(root, pathname));
    // `resolve` collapses `..`; anything that lands outside the root is not ours to serve.
    if (file !== root && !file.startsWith(root + sep)) {
      send(response, 404, "not found\n");
      return;
    }
    // sirv would answer `/v2.1` with its index.html, where relative links resolve against `/`.
    if (!pathname.endsWith("/") && (await stat(file).catch(() => undefined))?.isDirectory()) {
      send(response, 301, "moved\n", { location: `${pathname}/` });
      return;
    }
    // sirv takes any mention of an encoding as consent; pass on only the ones not refused by `q=0`.
    request.headers["accept-encoding"] = [...acceptedEncodings(request.headers["accept-encoding"])].join(
      ", ",
    );
    files(request, response);
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once("error", rejectListen);
    server.listen(options.port ?? 8080, host, () => {
      server.off("error", rejectListen);
      resolveListen();
    });
  });

  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}
