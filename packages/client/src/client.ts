import createClient, {
  type Client,
  createQuerySerializer,
  type HeadersOptions,
  type Middleware,
} from "openapi-fetch";
import type {
  DrillApiVersion,
  DrillAuthContext,
  DrillClientOptions,
  DrillClient as VersionedClient,
  ThrowingDrillClient as VersionedThrowingClient,
} from "./client-types.js";
import { DrillInvalidOptionError, DrillTimeoutError } from "./core/errors.js";
import { resolveRetryPolicy } from "./core/retry.js";
import { validateTimeout } from "./core/timeout.js";
import { createTransport, isPlatformTimeout } from "./core/transport.js";
import { formAwareRequest, serializeRequestBody } from "./form-body.js";
import type { paths } from "./generated/openapi.js";
import type { PathsForVersion } from "./paths.js";
import { encodePathParameters, QUERY_SERIALIZER } from "./serializers.js";
import { recordOperation, unwrapAs } from "./unwrap.js";
import { USER_AGENT } from "./version.js";

/** The values `version` may take. */
const API_VERSIONS: readonly unknown[] = ["2.1.1", "2.1", "2.0"] satisfies DrillApiVersion[];

/**
 * A client in openapi-fetch's default mode: every call resolves to
 * `{ data, error, response }`. Typed with both versions' paths unless given others.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillClient, type PathsV2_1 } from "@drill-practice/client";
 *
 * const client: DrillClient<PathsV2_1> = createDrillClient({ baseUrl: "https://drill.example", version: "2.1" });
 * const { data, error } = await client.GET("/api/2.1/store", { params: { query: { query: "spanish" } } });
 * ```
 */
export type DrillClient<P extends object = paths> = VersionedClient<P>;

/**
 * A client whose calls resolve to the success body and reject with a
 * `DrillApiError` for a non-2xx status; `raw` is the same client in
 * `{ data, error }` mode. Typed with both versions' paths unless given others.
 *
 * @example
 * ```ts
 * import { createDrillClient, type ThrowingDrillClient } from "@drill-practice/client";
 *
 * const client: ThrowingDrillClient = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * const store = await client.GET("/api/2/store", { params: { query: { query: "verbs" } } });
 * console.log(store.total);
 * ```
 */
export type ThrowingDrillClient<P extends object = paths> = VersionedThrowingClient<P>;

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
  if (options.version !== undefined && !API_VERSIONS.includes(options.version)) {
    throw new DrillInvalidOptionError(
      "version",
      `expected "2.1.1", "2.1" or "2.0", got ${JSON.stringify(options.version)}`,
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
    // A function, so that openapi-fetch does not build one per request from the options.
    querySerializer: createQuerySerializer(QUERY_SERIALIZER),
    pathSerializer: encodePathParameters,
    // Bodies go out as form fields, the way the service takes them (see form-body.ts).
    bodySerializer: serializeRequestBody,
    Request: formAwareRequest(),
  });
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
  return options.throwOnError ? toThrowingClient(client, timeouts) : wrapClient(client, timeouts);
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
      "required: an absolute http(s) URL, e.g. https://drill.example",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DrillInvalidOptionError("baseUrl", "not an absolute URL (include the scheme)");
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
        "expected an object with onRequest, onResponse or onError",
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
      "expected a middleware object or a function returning one",
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

/**
 * One call: the platform's body-timeout error turned into a DrillTimeoutError,
 * the operation of a non-2xx response remembered for `unwrap`, and, for the
 * throwing client, the result unwrapped.
 */
async function settle(
  pending: ReturnType<RawMethod>,
  method: string,
  path: string,
  init: object | undefined,
  timeouts: BodyTimeouts | undefined,
  throwing: boolean,
): Promise<unknown> {
  let settled: Awaited<ReturnType<RawMethod>>;
  try {
    settled = await pending;
  } catch (error) {
    throw timeouts === undefined ? error : asTimeoutError(error, method, path, init, timeouts);
  }
  if (!settled.response.ok) recordOperation(settled.response, { method, path });
  return throwing ? unwrapAs(settled, undefined) : settled;
}

/** The client's methods, each through {@link settle}. */
function wrapMethods(
  client: Client<object>,
  timeouts: BodyTimeouts | undefined,
  throwing: boolean,
): Record<string, unknown> {
  const wrapped: Record<string, unknown> = throwing ? {} : { ...client };
  for (const method of METHODS) {
    const call = client[method] as unknown as RawMethod;
    wrapped[method] = (url: string, init?: object) =>
      settle(call(url, init), method, url, init, timeouts, throwing);
  }
  if (!throwing) {
    const request = client.request as unknown as (
      method: string,
      url: string,
      init?: object,
    ) => ReturnType<RawMethod>;
    wrapped.request = (method: string, url: string, init?: object) =>
      settle(request(method, url, init), method.toUpperCase(), url, init, timeouts, false);
  }
  return wrapped;
}

function wrapClient(client: Client<object>, timeouts: BodyTimeouts | undefined): DrillClient<object> {
  return wrapMethods(client, timeouts, false) as unknown as DrillClient<object>;
}

function toThrowingClient(
  client: Client<object>,
  timeouts: BodyTimeouts | undefined,
): ThrowingDrillClient<object> {
  return Object.freeze({
    ...wrapMethods(client, timeouts, true),
    use: (...middleware: Middleware[]) => client.use(...middleware),
    eject: (...middleware: Middleware[]) => client.eject(...middleware),
    raw: wrapClient(client, timeouts),
  }) as unknown as ThrowingDrillClient<object>;
}
