/**
 * Low-level request reading for `node:http`: a size-capped body reader and a content-type parser.
 */
import type { IncomingMessage } from "node:http";

/**
 * Outcome of reading a request body.
 *
 * @example
 * ```ts
 * async function tooLarge(req: IncomingMessage): Promise<boolean> {
 *   const body = await readBody(req, 1024 * 1024);
 *   return body.kind === "too_large"; // answered with 413
 * }
 * ```
 */
export type BodyRead =
  | { readonly kind: "ok"; readonly bytes: Buffer }
  | { readonly kind: "too_large"; readonly limit: number }
  | { readonly kind: "aborted" };

/**
 * Reads the request body up to `limit` bytes. A body announced or found larger than the limit is not
 * kept: the rest is drained (up to a hard bound) so the client can read the 413 that follows instead of
 * seeing its upload cut off.
 *
 * @example
 * ```ts
 * const read = await readBody(req, 1 << 20);
 * ```
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    // Past this much, stop draining and drop the connection: nobody is owed an answer to a flood.
    const drainLimit = limit * 16;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (over) {
        chunks.length = 0;
        if (size > drainLimit) {
          settle({ kind: "too_large", limit });
          req.destroy();
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () =>
      settle(over ? { kind: "too_large", limit } : { kind: "ok", bytes: Buffer.concat(chunks) }),
    );
    req.on("error", () => settle({ kind: "aborted" }));
    req.on("close", () => settle({ kind: "aborted" }));
  });
}

/**
 * A parsed `Content-Type` header.
 *
 * @example
 * ```ts
 * parseContentType("application/json; charset=UTF-8"); // { mediaType: "application/json", charset: "utf-8" }
 * ```
 */
export interface ContentType {
  readonly mediaType: string;
  readonly charset: string | undefined;
  /** The `boundary` parameter (multipart), as written. */
  readonly boundary?: string;
}

/**
 * Parses a `Content-Type` header value; `undefined` when absent or unparsable.
 *
 * @example
 * ```ts
 * parseContentType("application/x-www-form-urlencoded")?.mediaType; // "application/x-www-form-urlencoded"
 * ```
 */
export function parseContentType(header: string | undefined): ContentType | undefined {
  if (header === undefined) return undefined;
  const [type, ...params] = header.split(";");
  const mediaType = (type ?? "").trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mediaType)) return undefined;
  let charset: string | undefined;
  let boundary: string | undefined;
  for (const param of params) {
    const at = param.indexOf("=");
    if (at < 0) continue;
    const key = param.slice(0, at).trim().toLowerCase();
    const value = param
      .slice(at + 1)
      .trim()
      .replace(/^"|"$/g, "");
    if (key === "charset") charset = value.toLowerCase();
    if (key === "boundary" && value !== "") boundary = value;
  }
  return boundary === undefined ? { mediaType, charset } : { mediaType, charset, boundary };
}

/**
 * Whether a request declares or carries a body (a `Content-Length` above zero or chunked encoding).
 *
 * @example
 * ```ts
 * function unexpectedBody(req: IncomingMessage, takesBody: boolean): boolean {
 *   return hasBody(req) && !takesBody; // answered with 400 "this operation takes no request body"
 * }
 * ```
 */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}
