/**
 * How the pipeline reads a request's method, target and framing from the one `Request` a door hands
 * over. Raw HTTP can send what a `Request` cannot hold; for that alone a door hands over a
 * {@link SentRequest}, which keeps the method and target as sent.
 */

/**
 * A `Request` whose method or target a plain one cannot carry as sent: a method `fetch` forbids
 * (`TRACE`, `CONNECT`, `TRACK`), or a target URL parsing would change (`*`, an absolute URL, dot
 * segments, characters it escapes). The pipeline answers it from what was sent (405, 400, 404), so a
 * client sees the request it made named in the answer and the log.
 */
export class SentRequest extends Request {
  /** The method as sent. */
  readonly sentMethod: string;
  /** The request target as sent: path and query, or whatever else the client put there. */
  readonly sentTarget: string;

  /** A `POST` or `PUT` sent with neither `Content-Length` nor chunked encoding (only raw HTTP can). */
  readonly unframed: boolean;

  constructor(
    url: string,
    init: RequestInit,
    sent: { readonly method: string; readonly target: string; readonly unframed?: boolean },
  ) {
    super(url, init);
    this.sentMethod = sent.method;
    this.sentTarget = sent.target;
    this.unframed = sent.unframed ?? false;
  }
}

/** The method of a request, as sent. */
export function methodOf(request: Request): string {
  return request instanceof SentRequest ? request.sentMethod : request.method;
}

/**
 * The target of a request (path and query), as sent. A `Request`'s URL is serialised already, so its
 * path starts at the first slash after the authority, which holds none (user info escapes it).
 */
export function targetOf(request: Request): string {
  if (request instanceof SentRequest) return request.sentTarget;
  const url = request.url;
  const pathAt = url.indexOf("/", url.indexOf("//") + 2);
  if (pathAt < 0) return "/";
  const hashAt = url.indexOf("#", pathAt);
  return url.slice(pathAt, hashAt < 0 ? undefined : hashAt);
}

/**
 * Whether the request declared its body's framing (`Content-Length` or chunked encoding). `fetch`
 * always does for a body and for a bodyless `POST` or `PUT`; only raw HTTP can leave it out, and the
 * HTTP door says so on a {@link SentRequest}. (Read from the flag, not the headers: a browser's
 * `fetch` neither shows nor lets a page set those two fields on a `Request`.)
 */
export function declaresFraming(request: Request): boolean {
  return !(request instanceof SentRequest && request.unframed);
}
