/**
 * The client's option and client types, generic over the `paths` type they
 * are used with. Nothing here refers to generated types, so an entry typed to
 * one API version (`@drill-practice/client/v2.1`) can use them without making
 * its consumers load the types of both versions.
 */
import type {
  Client,
  FetchResponse,
  HeadersOptions,
  MaybeOptionalInit,
  Middleware,
  ParseAsResponse,
} from "openapi-fetch";
import type { DrillClientAuth } from "./core/auth-contract.js";
import type { RetryOptions } from "./core/retry.js";
import type { RequestFetch } from "./core/transport.js";
import type { SuccessData } from "./unwrap.js";

/**
 * The API versions the spec describes: 2.1.1 (paths under `/api/2.1.1/`, the
 * version the service answers today), and the retired 2.1 (`/api/2.1/`) and 2.0
 * (`/api/2/`).
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillApiVersion } from "@drill-practice/client";
 *
 * const version: DrillApiVersion = "2.1.1";
 * const client = createDrillClient({ baseUrl: "https://drill.example", version });
 * ```
 */
export type DrillApiVersion = "2.1.1" | "2.1" | "2.0";

export type { DrillAuthContext, DrillClientAuth } from "./core/auth-contract.js";

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
 */
export type DrillClient<P extends object> = Omit<Client<P>, MethodName> & {
  [M in MethodName]: ResultMethod<P, Lowercase<M>>;
};

type MethodName = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
type HttpMethod = Lowercase<MethodName>;
type Media = `${string}/${string}`;
type OkStatus = 200 | 201 | 202 | 203 | 204 | 206 | 207 | "2XX";
type Get<T, K extends PropertyKey> = K extends keyof T ? T[K] : undefined;
type BodyOfContent<C> =
  C extends Record<string, unknown> ? ([C[keyof C & Media]] extends [never] ? C : C[keyof C & Media]) : C;

// openapi-fetch hands every answer through its `Readable`, which turns the open member of an answer's
// known values (`"FAR" | (string & {})`) into an object of String's methods
// (openapi-ts/openapi-typescript#2765). The generated types carry no readOnly/writeOnly markers, the one
// thing `Readable` is for, so the success body is read from the operation itself: its 2xx answers' media
// content, as openapi-fetch picks it.
type SuccessBody<Op> = Op extends { responses: infer R }
  ? { [K in keyof R & OkStatus]: BodyOfContent<Get<R[K], "content">> }[keyof R & OkStatus]
  : never;

type DrillResponse<Op extends Record<string | number, unknown>, Init> =
  | { data: ParseAsResponse<SuccessBody<Op>, Init>; error?: never; response: Response }
  | Extract<FetchResponse<Op, Init, Media>, { data?: never }>;

type ResultMethod<P, M extends HttpMethod> = <
  Path extends PathsWithMethod<P, M>,
  Init extends MaybeOptionalInit<Operation<P, Path, M>, M>,
>(
  url: Path,
  ...init: InitArgs<Init, Operation<P, Path, M>[M]>
) => Promise<DrillResponse<Operation<P, Path, M>[M] & Record<string | number, unknown>, Init>>;

type PathsWithMethod<P, M extends HttpMethod> = {
  [K in keyof P]: P[K] extends { [X in M]: unknown } ? K : never;
}[keyof P];

type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

// Same rule as openapi-fetch: the init argument is optional exactly when nothing in it is required.
type InitArgs<Init, Op> =
  RequiredKeys<Init> extends never
    ? [(Init & { [key: string]: unknown } & NamedFieldsOnly<Init, Op>)?]
    : [Init & { [key: string]: unknown } & NamedFieldsOnly<Init, Op>];

type FormOf<Op> = Get<NonNullable<Get<Op, "requestBody">>, "content"> extends infer C ? C[keyof C] : never;

// `Init` is inferred from the call, and TypeScript checks no extra field of an inferred object: a field
// the operation's form does not name is typed as a sentence naming it, so a misspelt field does not
// compile and the error says which one (`never` would only say "not assignable to type 'never'"). Only
// plain objects are checked (FormData, URLSearchParams and the like are interfaces, not records).
type NamedFieldsOnly<Init, Op> = Init extends { body?: infer B }
  ? [B] extends [never]
    ? unknown
    : B extends Record<string, unknown>
      ? { body?: { [K in keyof B]: K extends keyof FormOf<Op> ? B[K] : NotAFormField<K> } }
      : unknown
  : unknown;

type NotAFormField<K> = `${K & string} is not a field of this request form`;

type Operation<P, Path extends keyof P, M extends HttpMethod> = P[Path] & Record<M, unknown>;

type DataOf<P, Path extends keyof P, M extends HttpMethod, Init> = SuccessData<
  DrillResponse<Operation<P, Path, M>[M] & Record<string | number, unknown>, Init>
>;

type DataMethod<P, M extends HttpMethod> = <
  Path extends PathsWithMethod<P, M>,
  Init extends MaybeOptionalInit<Operation<P, Path, M>, M>,
>(
  url: Path,
  ...init: InitArgs<Init, Operation<P, Path, M>[M]>
) => Promise<DataOf<P, Path, M, Init>>;

/**
 * A client whose calls resolve to the success body and reject with a
 * `DrillApiError` for a non-2xx status. `raw` is the same client in
 * `{ data, error }` mode (same middleware, fetch and settings).
 */
export interface ThrowingDrillClient<P extends object> {
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
