/**
 * The `node:http` door: turns an `IncomingMessage` into a `Request` for the pipeline and writes the
 * `Response` back. Everything the sandbox decides is in the pipeline; this file only carries bytes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Pipeline } from "../http/pipeline.js";
import { SentRequest } from "../http/sent-request.js";

const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/;

/** Methods a `Request` cannot be made with; they still reach the pipeline (which answers 405). */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Bytes of request body held before the socket is paused until the pipeline reads on. */
const BODY_HIGH_WATER = 64 * 1024;

/**
 * The base URL as the client addressed the server, from the Host header when it is well formed: the
 * origin of the `Request`'s URL, which the pipeline reads it from.
 */
function requestBase(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return host !== undefined && HOST.test(host) && URL.canParse(`http://${host}`)
    ? `http://${host}`
    : fallback;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header value Headers refuses (control characters) cannot matter to any operation; drop it.
    }
  }
  return headers;
}

/**
 * The request body as a Web stream, with back-pressure: the socket is paused while the pipeline has not
 * read what was buffered, and cancelling the stream (a flood past the drain limit) drops the connection.
 */
function bodyStream(req: IncomingMessage, state: { done: boolean }): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (state.done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on("end", () => {
          if (state.done) return;
          state.done = true;
          controller.close();
        });
        req.on("close", () => {
          if (state.done) return;
          state.done = true;
          controller.error(new Error("request aborted"));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        state.done = true;
        req.destroy();
      },
    },
    { highWaterMark: BODY_HIGH_WATER, size: (chunk) => chunk.byteLength },
  );
}

/**
 * The request's URL, when a `Request` can carry the target exactly as sent (URL parsing would
 * otherwise resolve dot segments, escape characters or refuse it); `undefined` when it cannot.
 */
function exactUrl(base: string, target: string): string | undefined {
  if (!target.startsWith("/")) return undefined;
  try {
    const url = new URL(`${base}${target}`);
    return `${url.pathname}${url.search}` === target ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = response.body === null ? undefined : new Uint8Array(await response.arrayBuffer());
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Builds the `request` listener of the HTTP server from the pipeline.
 */
export function createRequestListener(
  pipeline: Pipeline,
  baseUrl: () => string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const state = { done: !declaresBody(req) };
    const carriesBody =
      !state.done && method !== "GET" && method !== "HEAD" && !FORBIDDEN_METHODS.has(method);
    const base = requestBase(req, baseUrl());
    const init = {
      method: FORBIDDEN_METHODS.has(method) ? "GET" : method,
      headers: requestHeaders(req),
      ...(carriesBody ? { body: bodyStream(req, state), duplex: "half" } : {}),
    } as RequestInit;
    const url = exactUrl(base, target);
    const unframed =
      (method === "POST" || method === "PUT") &&
      req.headers["content-length"] === undefined &&
      req.headers["transfer-encoding"] === undefined;
    // What a Request cannot hold as sent (a forbidden method, a target URL parsing changes, a body left
    // unframed) rides on a SentRequest, so the pipeline still answers and logs the request that was made.
    const request =
      url !== undefined && !FORBIDDEN_METHODS.has(method) && !unframed
        ? new Request(url, init)
        : new SentRequest(url ?? `${base}/`, init, { method, target, unframed });
    pipeline(request)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        console.error("drill-sandbox: internal error:", error);
        if (!res.headersSent) res.writeHead(500, { "content-length": "0" });
        res.end();
      })
      .finally(() => {
        // Drain whatever the pipeline did not read, so keep-alive connections stay usable.
        state.done = true;
        if (!req.readableEnded && !req.destroyed) req.resume();
      });
  };
}
