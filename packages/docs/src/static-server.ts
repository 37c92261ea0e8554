import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, relative, resolve, sep } from "node:path";
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

/** The build's `.br` or `.gz` copy of a file, when the client takes that encoding (brotli first). */
async function precompressedCopy(
  file: string,
  header: string | string[] | undefined,
): Promise<{ name: string; file: string; size: number } | undefined> {
  const accepted = acceptedEncodings(header);
  for (const [name, suffix] of [
    ["br", ".br"],
    ["gzip", ".gz"],
  ] as const) {
    if (!accepted.has(name)) continue;
    const copy = `${file}${suffix}`;
    const info = await stat(copy).catch(() => undefined);
    if (info?.isFile()) return { name, file: copy, size: info.size };
  }
  return undefined;
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

  const server = createServer(async (request, response) => {
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
      response.end(body);
    };
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(405, "method not allowed\n", { allow: "GET, HEAD" });
      return;
    }

    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      send(400, "bad request\n");
      return;
    }
    let file = resolve(join(root, pathname));
    // `resolve` collapses `..`; anything that lands outside the root is not ours to serve.
    if (file !== root && !file.startsWith(root + sep)) {
      send(404, "not found\n");
      return;
    }

    let info = await stat(file).catch(() => undefined);
    if (info?.isDirectory()) {
      if (!pathname.endsWith("/")) {
        send(301, "moved\n", { location: `${pathname}/` });
        return;
      }
      file = join(file, "index.html");
      info = await stat(file).catch(() => undefined);
    }
    if (!info?.isFile()) {
      send(404, "not found\n");
      return;
    }

    const encoding = await precompressedCopy(file, request.headers["accept-encoding"]);
    const served = encoding ? encoding.file : file;
    const size = encoding ? encoding.size : info.size;
    const headers: Record<string, string> = {
      "content-type": contentTypes[extname(file)] ?? "application/octet-stream",
      "content-length": String(size),
      "cache-control": cacheControl(relative(root, file).split(sep).join("/")),
      vary: "Accept-Encoding",
    };
    if (encoding) headers["content-encoding"] = encoding.name;
    response.writeHead(200, headers);
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    createReadStream(served).pipe(response);
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
