import createClient, {
  type Client,
  type FetchResponse,
  type HeadersOptions,
  type MaybeOptionalInit,
  type Middleware,
} from "openapi-fetch";
import { DrillInvalidOptionError, DrillTimeoutError } from "./core/errors.js";
import { type RetryOptions, resolveRetryPolicy } from "./core/retry.js";
import { validateTimeout } from "./core/timeout.js";
import { createTransport, isPlatformTimeout, type RequestFetch } from "./core/transport.js";
import type { paths } from "./generated/openapi.js";
import type { DrillApiVersion, PathsForVersion } from "./paths.js";
import { encodePathParameters, QUERY_SERIALIZER } from "./serializers.js";
import { recordOperation, type SuccessData, unwrapAs } from "./unwrap.js";
import { USER_AGENT } from "./version.js";

/**
 * What an auth provider gets from the client: the client's base URL and its
 * fetch, to reach the token endpoint. That fetch applies the client's
 * `timeoutMs` and User-Agent but not its retries: the provider retries its
 * own requests with its own `retry` option (same names and defaults, see the
 * README's "Shared options"), and stacking both would multiply the attempts.
 *
 * @example
 * ```ts
 * import type { DrillAuthContext } from "@drill-practice/client";
 *
 * function tokenUrl(context: DrillAuthContext): string {
 *   return `${context.baseUrl}/daas/oauth/token`;
 * }
 * ```
 */
export interface DrillAuthContext {
  /** The validated base URL, without trailing slash. */
  readonly baseUrl: string;
  /** The client's fetch with its timeout and User-Agent, without retries; call it unbound. */
  readonly fetch: typeof fetch;
}

/**
 * Contract between the client and an auth provider such as
 * `@drill-practice/auth`: a middleware, or a function the client calls once
 * with its base URL and fetch to get one. The client registers it after the
 * caller's own `middleware`, so it sees the final request.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillClientAuth } from "@drill-practice/client";
 *
 * // The interface does not name the token header; this uses the OAuth convention.
 * const staticToken: DrillClientAuth = {
 *   middleware: {
 *     onRequest({ request }) {
 *       request.headers.set("Authorization", "Bearer <token>");
 *       return request;
 *     },
 *   },
 * };
 * const client = createDrillClient({ baseUrl: "https://drill.example", auth: staticToken });
 * ```
 */
export interface DrillClientAuth {
  middleware: Middleware | ((context: DrillAuthContext) => Middleware);
}

/**
 * Options of {@link createDrillClient}.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillClientOptions } from "@drill-practice/client";
 *
 * const options = {
 *   baseUrl: "https://drill.example",
 *   timeoutMs: 10_000,
 *   retry: { maxAttempts: 4 },
 *   headers: { "Accept-Language": "en" },
 * } satisfies DrillClientOptions;
 * const client = createDrillClient(options);
 *
 * // Options typed as DrillClientOptions (throwOnError unknown) give either kind of client:
 * function make(general: DrillClientOptions) {
 *   return createDrillClient(general); // DrillClient | ThrowingDrillClient
 * }
 * ```
 */
export interface DrillClientOptions {
  /** Base address of the service: an absolute http(s) URL; may end in a path, e.g. `https://host/drill`. */
  baseUrl: string;
  /** The fetch to use (default: `globalThis.fetch`). It is called with one `Request`. */
  fetch?: RequestFetch;
  /** Headers sent with every request. */
  headers?: HeadersOptions;
  /** Limit for one HTTP attempt, response headers and body together (default 30 000 ms); `false` for none. */
  timeoutMs?: number | false;
  /** Retry settings, or `false` for none. Retries are on by default; see {@link RetryOptions}. */
  retry?: RetryOptions | false;
  /** openapi-fetch middleware, run in order before `auth`. */
  middleware?: readonly Middleware[];
  /** Authentication, e.g. from `@drill-practice/auth`. */
  auth?: DrillClientAuth;
  /** Restrict the client's types to one API version. */
  version?: DrillApiVersion;
  /** Return the success body and throw `DrillApiError` on non-2xx, instead of `{ data, error }`. */
  throwOnError?: boolean;
}

/**
 * A client in openapi-fetch's default mode: every call resolves to
 * `{ data, error, response }`.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillClient, type PathsV2_1 } from "@drill-practice/client";
 *
 * const client: DrillClient<PathsV2_1> = createDrillClient({ baseUrl: "https://drill.example", version: "2.1" });
 * const { data, error } = await client.GET("/api/2.1/store", { params: { query: { query: "spanish" } } });
 * ```
 */
export type DrillClient<P extends object = paths> = Client<P>;

type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

type PathsWithMethod<P, M extends HttpMethod> = {
  [K in keyof P]: P[K] extends { [X in M]: unknown } ? K : never;
}[keyof P];

type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

// Same rule as openapi-fetch: the init argument is optional exactly when nothing in it is required.
type InitArgs<Init> =
  RequiredKeys<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

type Operation<P, Path extends keyof P, M extends HttpMethod> = P[Path] & Record<M, unknown>;

type DataOf<P, Path extends keyof P, M extends HttpMethod, Init> = SuccessData<
  FetchResponse<Operation<P, Path, M>[M] & Record<string | number, unknown>, Init, `${string}/${string}`>
>;

type DataMethod<P, M extends HttpMethod> = <
  Path extends PathsWithMethod<P, M>,
  Init extends MaybeOptionalInit<Operation<P, Path, M>, M>,
>(
  url: Path,
  ...init: InitArgs<Init>
) => Promise<DataOf<P, Path, M, Init>>;

/**
 * A client whose calls resolve to the success body and reject with a
 * `DrillApiError` for a non-2xx status. `raw` is the same client in
 * `{ data, error }` mode (same middleware, fetch and settings).
 *
 * @example
 * ```ts
 * import { createDrillClient, DrillApiError } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * try {
 *   const result = await client.GET("/api/2/store", { params: { query: { query: "verbs" } } });
 *   console.log(result.total);
 * } catch (error) {
 *   if (error instanceof DrillApiError) console.log(error.status, error.errorId);
 * }
 * ```
 */
export interface ThrowingDrillClient<P extends object = paths> {
  /** Call a GET endpoint. */
  GET: DataMethod<P, "get">;
  /** Call a PUT endpoint. */
  PUT: DataMethod<P, "put">;
  /** Call a POST endpoint. */
  POST: DataMethod<P, "post">;
  /** Call a DELETE endpoint. */
  DELETE: DataMethod<P, "delete">;
  /** Call an OPTIONS endpoint. */
  OPTIONS: DataMethod<P, "options">;
  /** Call a HEAD endpoint. */
  HEAD: DataMethod<P, "head">;
  /** Call a PATCH endpoint. */
  PATCH: DataMethod<P, "patch">;
  /** Call a TRACE endpoint. */
  TRACE: DataMethod<P, "trace">;
  /** Register middleware (runs after the middleware given at creation). */
  use(...middleware: Middleware[]): void;
  /** Unregister middleware. */
  eject(...middleware: Middleware[]): void;
  /** The same client in openapi-fetch's `{ data, error }` mode. */
  readonly raw: DrillClient<P>;
}

/**
 * Creates a typed client for the Drill Practice API (both versions, or one
 * with `version`), built on openapi-fetch, with timeouts, retries, the Node
 * `User-Agent`, repeated-key query arrays, encoded path segments and
 * optional auth. Calls resolve to `{ data, error, response }`, or, with
 * `throwOnError: true`, to the success body.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", version: "2.0" });
 * const { data, error } = await client.GET("/api/2/store", {
 *   params: { query: { query: "spanish AND verbs", searchField: ["NAME", "TAGS"] } },
 * });
 * if (error) console.error(error);
 * else for (const drill of data.drills) console.log(drill.name);
 * ```
 */
export function createDrillClient<V extends DrillApiVersion>(
  options: DrillClientOptions & { version: V; throwOnError: true },
): ThrowingDrillClient<PathsForVersion<V>>;
export function createDrillClient<V extends DrillApiVersion>(
  options: DrillClientOptions & { version: V; throwOnError?: false },
): DrillClient<PathsForVersion<V>>;
export function createDrillClient<P extends object = paths>(
  options: DrillClientOptions & { version?: undefined; throwOnError: true },
): ThrowingDrillClient<P>;
export function createDrillClient<P extends object = paths>(
  options: DrillClientOptions & { version?: undefined; throwOnError?: false },
): DrillClient<P>;
export function createDrillClient(options: DrillClientOptions): DrillClient | ThrowingDrillClient;
export function createDrillClient(
  options: DrillClientOptions,
): DrillClient<object> | ThrowingDrillClient<object> {
  if (typeof options !== "object" || options === null) {
    throw new DrillInvalidOptionError("options", "expected an object with at least baseUrl");
  }
  const baseUrl = validateBaseUrl(options.baseUrl);
  const timeoutMs = validateTimeout(options.timeoutMs);
  const retry = resolveRetryPolicy(options.retry);
  if (options.version !== undefined && options.version !== "2.1" && options.version !== "2.0") {
    throw new DrillInvalidOptionError(
      "version",
      `expected "2.1" or "2.0", got ${JSON.stringify(options.version)}`,
    );
  }
  if (options.throwOnError !== undefined && typeof options.throwOnError !== "boolean") {
    throw new DrillInvalidOptionError("throwOnError", "expected true or false");
  }
  // The platform fetch, passed explicitly or not, takes the lean path.
  const acceptsInit = options.fetch === undefined || options.fetch === globalThis.fetch;
  const userFetch = options.fetch ?? defaultFetch();
  if (typeof userFetch !== "function") {
    throw new DrillInvalidOptionError("fetch", "expected a function");
  }
  const middleware = validateMiddleware(options.middleware);
  const transportUserAgent = isNode() ? USER_AGENT : undefined;
  const transport = createTransport({
    fetch: userFetch,
    acceptsInit,
    timeoutMs,
    retry,
    userAgent: transportUserAgent,
  });

  const client = createClient<object>({
    baseUrl,
    fetch: transport,
    headers: withUserAgent(options.headers, transportUserAgent),
    querySerializer: QUERY_SERIALIZER,
    pathSerializer: encodePathParameters,
  });
  client.use(recordOperation);
  if (middleware.length > 0) client.use(...middleware);
  if (options.auth !== undefined) {
    const authFetch = createTransport({
      fetch: userFetch,
      acceptsInit,
      timeoutMs,
      retry: undefined,
      userAgent: transportUserAgent,
    });
    client.use(resolveAuth(options.auth, { baseUrl, fetch: authFetch }));
  }
  // With the platform's fetch the body is covered by AbortSignal.timeout, whose
  // error is the platform's; calls turn it into a DrillTimeoutError.
  const timeouts = acceptsInit && timeoutMs !== false ? { baseUrl, timeoutMs } : undefined;
  return options.throwOnError ? toThrowingClient(client, timeouts) : withTimeoutErrors(client, timeouts);
}

function defaultFetch(): (request: Request, init?: RequestInit) => Promise<Response> {
  if (typeof globalThis.fetch !== "function") {
    throw new DrillInvalidOptionError("fetch", "this runtime has no global fetch; pass one");
  }
  // Looked up per call so that later replacements of globalThis.fetch are honoured.
  return (request, init) => globalThis.fetch(request, init);
}

/**
 * Puts the User-Agent in the headers openapi-fetch merges into every request,
 * so that the transport finds it there and need not add it to each request.
 * Only plain-object headers are merged (ours first, so a caller's
 * `User-Agent` in any spelling wins); other forms are left to the transport.
 */
function withUserAgent(
  headers: HeadersOptions | undefined,
  userAgent: string | undefined,
): HeadersOptions | undefined {
  if (userAgent === undefined) return headers;
  if (headers === undefined) return { "user-agent": userAgent };
  if (
    typeof headers !== "object" ||
    headers === null ||
    Array.isArray(headers) ||
    headers instanceof Headers
  ) {
    return headers;
  }
  return { "user-agent": userAgent, ...headers };
}

function isNode(): boolean {
  const runtime = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof runtime?.versions?.node === "string";
}

function validateBaseUrl(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new DrillInvalidOptionError(
      "baseUrl",
      "required: the service's base address as an absolute http(s) URL, e.g. https://drill.example",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DrillInvalidOptionError(
      "baseUrl",
      "not an absolute URL; include the scheme, e.g. https://drill.example",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    const hint = value.includes("://") ? "" : " (is the scheme missing?)";
    throw new DrillInvalidOptionError(
      "baseUrl",
      `must use http: or https:, not ${JSON.stringify(url.protocol)}${hint}`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new DrillInvalidOptionError("baseUrl", "must not contain a user name or password");
  }
  if (url.search !== "" || url.hash !== "" || value.includes("?") || value.includes("#")) {
    throw new DrillInvalidOptionError("baseUrl", "must not contain a query string or fragment");
  }
  return url.href.replace(/\/+$/, "");
}

function isMiddleware(value: unknown): value is Middleware {
  if (typeof value !== "object" || value === null) return false;
  const hooks = ["onRequest", "onResponse", "onError"] as const;
  const record = value as Record<string, unknown>;
  return (
    hooks.some((hook) => typeof record[hook] === "function") &&
    hooks.every((hook) => record[hook] === undefined || typeof record[hook] === "function")
  );
}

function validateMiddleware(value: unknown): Middleware[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new DrillInvalidOptionError("middleware", "expected an array of middleware objects");
  }
  return value.map((entry: unknown, index) => {
    if (!isMiddleware(entry)) {
      throw new DrillInvalidOptionError(
        `middleware[${index}]`,
        "expected an object with onRequest, onResponse or onError functions",
      );
    }
    return entry;
  });
}

function resolveAuth(auth: unknown, context: DrillAuthContext): Middleware {
  const provider = (auth as { middleware?: unknown } | null)?.middleware;
  if (typeof auth !== "object" || auth === null || provider === undefined) {
    throw new DrillInvalidOptionError("auth", "expected an object with a middleware property");
  }
  const middleware: unknown =
    typeof provider === "function" ? provider({ baseUrl: context.baseUrl, fetch: context.fetch }) : provider;
  if (!isMiddleware(middleware)) {
    throw new DrillInvalidOptionError(
      "auth.middleware",
      "expected a middleware object, or a function returning one, with onRequest, onResponse or onError",
    );
  }
  return middleware;
}

type RawMethod = (
  url: string,
  init?: object,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

interface BodyTimeouts {
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

/** The platform's timeout error of a body read, as the client's own error. */
function asTimeoutError(
  error: unknown,
  method: string,
  url: string,
  init: object | undefined,
  timeouts: BodyTimeouts,
) {
  const signal = (init as { signal?: AbortSignal } | undefined)?.signal ?? undefined;
  if (!isPlatformTimeout(error, signal)) return error;
  return new DrillTimeoutError({ timeoutMs: timeouts.timeoutMs, method, url: `${timeouts.baseUrl}${url}` });
}

function withTimeoutErrors(client: Client<object>, timeouts: BodyTimeouts | undefined): Client<object> {
  if (timeouts === undefined) return client;
  const wrapped: Record<string, unknown> = { ...client };
  for (const method of METHODS) {
    const call = client[method] as unknown as RawMethod;
    wrapped[method] = (url: string, init?: object) =>
      call(url, init).catch((error: unknown) => {
        throw asTimeoutError(error, method, url, init, timeouts);
      });
  }
  return wrapped as unknown as Client<object>;
}

function toThrowingClient(
  client: Client<object>,
  timeouts: BodyTimeouts | undefined,
): ThrowingDrillClient<object> {
  const methods = Object.fromEntries(
    METHODS.map((method) => {
      const call = client[method] as unknown as RawMethod;
      const throwing = async (url: string, init?: object) => {
        let settled: Awaited<ReturnType<RawMethod>>;
        try {
          settled = await call(url, init);
        } catch (error) {
          throw timeouts === undefined ? error : asTimeoutError(error, method, url, init, timeouts);
        }
        return unwrapAs(settled, { method, path: url });
      };
      return [method, throwing];
    }),
  );
  return Object.freeze({
    ...methods,
    use: (...middleware: Middleware[]) => client.use(...middleware),
    eject: (...middleware: Middleware[]) => client.eject(...middleware),
    raw: withTimeoutErrors(client, timeouts),
  }) as unknown as ThrowingDrillClient<object>;
}
