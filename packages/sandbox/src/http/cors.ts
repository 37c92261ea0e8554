/**
 * CORS for the origins a sandbox is told to trust (`corsOrigins`, `--cors`): a web page served from
 * one of them (the docs site's Try it, a front end under development) may call the sandbox from the
 * browser. The pipeline asks this module twice: whether a request is a preflight to answer, and which
 * headers to add to an answer. An origin it was not told about gets nothing, so the browser blocks the
 * page, as it does for a sandbox started without the option.
 */

/**
 * Why `value` cannot be a trusted origin, or `undefined` when it can: an origin is
 * `scheme://host[:port]`, an `http:` or `https:` URL with nothing after the authority (no path, not
 * even `/`, no query, fragment or credentials), as a browser sends it in the `Origin` header.
 */
export function corsOriginProblem(value: unknown): string | undefined {
  const rule =
    "must be an origin, scheme://host[:port] with an http: or https: scheme and no path, query, fragment, credentials or trailing slash (such as http://127.0.0.1:8080)";
  if (typeof value !== "string" || !URL.canParse(value)) return `${rule} (got ${JSON.stringify(value)})`;
  const url = new URL(value);
  const http = url.protocol === "http:" || url.protocol === "https:";
  // An origin serialises to itself: anything a path, query or case change would alter is not one.
  return http && url.origin === value ? undefined : `${rule} (got ${JSON.stringify(value)})`;
}

/** Request headers a page may send: those the sandbox reads, and the ones Try it sets. */
const ALLOWED_HEADERS = new Set(["accept", "authorization", "content-type"]);

/** Response headers a page reads without being allowed to (the CORS-safelisted ones). */
const SAFELISTED_RESPONSE_HEADERS = new Set([
  "cache-control",
  "content-language",
  "content-length",
  "content-type",
  "expires",
  "last-modified",
  "pragma",
]);

/** How long a browser may keep a preflight's answer, in seconds (Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The trusted origins of one sandbox. */
export class CorsPolicy {
  readonly #origins: ReadonlySet<string>;

  /** `origins` must each pass {@link corsOriginProblem} (the options are checked before). */
  constructor(origins: readonly string[]) {
    this.#origins = new Set(origins);
  }

  /** The request's `Origin` when it is a trusted one, else `undefined`. */
  trusted(request: Request): string | undefined {
    const origin = request.headers.get("origin");
    return origin !== null && this.#origins.has(origin) ? origin : undefined;
  }

  /**
   * The headers of a preflight's 204 for `methods` (those the path allows), or `undefined` when the
   * request is not a preflight: `OPTIONS` with `Access-Control-Request-Method`. The requested headers
   * are echoed as far as the sandbox takes them; one it does not take is left out, so the browser
   * refuses the request instead of sending a header nothing reads.
   */
  preflight(
    request: Request,
    method: string,
    methods: () => readonly string[],
  ): Record<string, string> | undefined {
    const requested = request.headers.get("access-control-request-method");
    if (method !== "OPTIONS" || requested === null) return undefined;
    const headers = (request.headers.get("access-control-request-headers") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => ALLOWED_HEADERS.has(name));
    return {
      "access-control-allow-methods": methods().join(", "),
      ...(headers.length > 0 ? { "access-control-allow-headers": headers.join(", ") } : {}),
      "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
    };
  }

  /**
   * Adds to an answer for a trusted `origin` what lets its page read it: the origin itself, `Vary:
   * Origin` (another origin gets another answer) and every header of the answer a page could not read
   * otherwise (`WWW-Authenticate`, `Retry-After`, `Allow`, a programmed response's own headers).
   */
  allow(headers: Headers, origin: string): void {
    const exposed = [...headers.keys()].filter(
      (name) => !SAFELISTED_RESPONSE_HEADERS.has(name) && !name.startsWith("access-control-"),
    );
    headers.set("access-control-allow-origin", origin);
    headers.append("vary", "Origin");
    if (exposed.length > 0) headers.set("access-control-expose-headers", exposed.join(", "));
  }
}
