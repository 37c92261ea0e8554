import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";

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
 * Serves a directory over HTTP for previewing the site and for the browser tests.
 * Directories answer with their `index.html`; a directory URL without its trailing slash
 * is redirected so that relative links inside the page resolve against the directory.
 *
 * @example
 * const server = await startStaticServer({ root: "dist", port: 0 });
 * console.log(`open ${server.url}`);
 * await server.close();
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

    response.writeHead(200, {
      "content-type": contentTypes[extname(file)] ?? "application/octet-stream",
      "content-length": String(info.size),
      "cache-control": "no-cache",
    });
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    createReadStream(file).pipe(response);
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
