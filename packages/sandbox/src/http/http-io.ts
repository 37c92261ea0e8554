/**
 * Low-level request reading on Web `Request`s: a size-capped body reader, a content-type parser and the
 * question whether a request carries a body at all.
 */

/** Outcome of reading a request body. */
export type BodyRead =
  | { readonly kind: "ok"; readonly bytes: Uint8Array }
  | { readonly kind: "too_large"; readonly limit: number }
  | { readonly kind: "aborted" };

/**
 * Reads the request body up to `limit` bytes. A body announced or found larger than the limit is not
 * kept: the rest is drained (up to a hard bound) so the client can read the 413 that follows instead of
 * seeing its upload cut off; past that bound the body is cancelled (a socket is then dropped).
 */
export async function readBody(request: Request, limit: number): Promise<BodyRead> {
  if (request.body === null) return { kind: "ok", bytes: new Uint8Array(0) };
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  let over = Number.isFinite(declared) && declared > limit;
  // Past this much, stop draining: nobody is owed an answer to a flood.
  const drainLimit = limit * 16;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) over = true;
      if (over) {
        chunks.length = 0;
        if (size > drainLimit) {
          await reader.cancel().catch(() => undefined);
          return { kind: "too_large", limit };
        }
        continue;
      }
      chunks.push(value);
    }
  } catch {
    return { kind: "aborted" };
  }
  if (over) return { kind: "too_large", limit };
  return { kind: "ok", bytes: concat(chunks, size) };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** A parsed `Content-Type` header. */
export interface ContentType {
  readonly mediaType: string;
  readonly charset: string | undefined;
  /** The `boundary` parameter (multipart), as written. */
  readonly boundary?: string;
}

/** Parses a `Content-Type` header value; `undefined` when absent or unparsable. */
export function parseContentType(header: string | null | undefined): ContentType | undefined {
  if (header === undefined || header === null) return undefined;
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
 * Whether a request declares or carries a body: a `Content-Length` above zero, chunked encoding, or
 * (with neither header, as a `Request` made in process has) a body stream.
 */
export function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return request.headers.has("transfer-encoding") || request.body !== null;
}
