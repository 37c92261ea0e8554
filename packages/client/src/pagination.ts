/**
 * Walks store search results page by page with `resultStart`/`resultSize`
 * (integers sent as strings) until `total` is reached.
 *
 * The 2.0 result shape (`total`, `drills`) is specified; the 2.1 shape is not
 * shown, so for 2.1 the same shape is checked at runtime and the entries stay
 * untyped (`NotShown`).
 *
 * The entry `@drill-practice/client/pagination`: kept out of the main entry so
 * that an application that does not paginate does not bundle it. Typed from
 * the 2.0 types alone (the specified store shape), so it works with a client
 * of either entry without loading the all-versions types.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client/v2.0";
 * import { paginateStore } from "@drill-practice/client/pagination";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * const names: string[] = [];
 * for await (const drill of paginateStore(client, { query: "spanish" }, { pageSize: 20 })) names.push(drill.name);
 * ```
 *
 * @packageDocumentation
 */
import type { DrillApiVersion } from "./client-types.js";
import { DrillInvalidOptionError } from "./core/errors.js";
import type { DrillOperation } from "./errors.js";
import { DrillUnexpectedResponseError } from "./errors.js";
import type { operations } from "./generated/openapi-v2.0.js";
import type { Drillable, NotShown } from "./generated/schemas-v2.0.js";
import { type FetchResult, unwrapAs } from "./unwrap.js";

type StoreQuery = NonNullable<operations["searchStore_v2_0"]["parameters"]["query"]>;

/**
 * Store search parameters for pagination: everything but `resultStart` and
 * `resultSize`, which the paginator sets.
 *
 * @example
 * ```ts
 * import type { StoreSearchParams } from "@drill-practice/client/pagination";
 *
 * const params: StoreSearchParams = { query: "spanish AND verbs", searchField: ["NAME", "TAGS"] };
 * ```
 */
export type StoreSearchParams = Omit<StoreQuery, "resultStart" | "resultSize">;

/** The store path of each version. */
type StorePath<V extends DrillApiVersion> = V extends "2.1" ? "/api/2.1/store" : "/api/2/store";

/** The entries a store page holds in each version. */
type StoreEntry<V extends DrillApiVersion> = V extends "2.1" ? NotShown : Drillable;

interface StoreGetter<Path extends string> {
  GET(url: Path, init: { params: { query: StoreQuery }; signal?: AbortSignal }): Promise<FetchResult>;
}

/**
 * A client that can search the store of version `V`: a `DrillClient` whose
 * paths include that version's store, or a throwing client (its `raw` side is used).
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import type { StoreSearchClient } from "@drill-practice/client/pagination";
 *
 * const client: StoreSearchClient<"2.0"> = createDrillClient({ baseUrl: "https://drill.example" });
 * ```
 */
export type StoreSearchClient<V extends DrillApiVersion> =
  | StoreGetter<StorePath<V>>
  | { readonly raw: StoreGetter<StorePath<V>> };

/**
 * Options of {@link paginateStore} and {@link paginateStorePages}.
 *
 * @example
 * ```ts
 * import type { PaginateStoreOptions } from "@drill-practice/client/pagination";
 *
 * const options: PaginateStoreOptions<"2.1"> = { pageSize: 25, version: "2.1" };
 * ```
 */
export interface PaginateStoreOptions<V extends DrillApiVersion = "2.0"> {
  /** Results per request (`resultSize`): an integer of at least 1. */
  pageSize: number;
  /** Which store to search; `"2.0"` (the specified result shape) unless given. */
  version?: V;
  /** Stops the iteration: the pending request is aborted and the iterator rejects. */
  signal?: AbortSignal;
}

/**
 * One page of store results: `total` as reported with this page, `start` the
 * index of its first entry, `drills` its entries.
 *
 * @example
 * ```ts
 * import type { Drillable } from "@drill-practice/client";
 * import type { StorePage } from "@drill-practice/client/pagination";
 *
 * function describe(page: StorePage<Drillable>): string {
 *   return `${page.start + 1}–${page.start + page.drills.length} of ${page.total}`;
 * }
 * ```
 */
export interface StorePage<T> {
  readonly total: number;
  readonly start: number;
  readonly drills: readonly T[];
}

/**
 * Iterates over store search results page by page. The `total` of the first
 * page bounds the walk; it also stops at the first empty page, so a server
 * whose `total` is too high cannot keep it going. Entries beyond `total` are
 * dropped. A non-2xx answer rejects with `DrillApiError`, a page without a
 * numeric `total` or a `drills` array with `DrillUnexpectedResponseError`.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import { paginateStorePages } from "@drill-practice/client/pagination";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * for await (const page of paginateStorePages(client, { query: "spanish" }, { pageSize: 20 })) {
 *   console.log(`${page.start}/${page.total}`, page.drills.map((drill) => drill.name));
 * }
 * ```
 */
export function paginateStorePages(
  client: StoreSearchClient<"2.0">,
  params: StoreSearchParams,
  options: PaginateStoreOptions<"2.0">,
): AsyncGenerator<StorePage<Drillable>, void, undefined>;
export function paginateStorePages(
  client: StoreSearchClient<"2.1">,
  params: StoreSearchParams,
  options: PaginateStoreOptions<"2.1"> & { version: "2.1" },
): AsyncGenerator<StorePage<NotShown>, void, undefined>;
export function paginateStorePages(
  client: StoreSearchClient<"2.0"> | StoreSearchClient<"2.1">,
  params: StoreSearchParams,
  options: PaginateStoreOptions<DrillApiVersion>,
): AsyncGenerator<StorePage<unknown>, void, undefined> {
  const settings = validate(client, params, options);
  return walkPages(settings);
}

/**
 * Iterates over store search results one entry at a time, each entry once
 * (an `id` seen on an earlier page is skipped), up to the `total` of the first
 * page. Built on {@link paginateStorePages}; the same stopping rules apply.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import { paginateStore } from "@drill-practice/client/pagination";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * for await (const drill of paginateStore(client, { query: "verbs", searchField: ["NAME"] }, { pageSize: 50 })) {
 *   console.log(drill.id, drill.name);
 * }
 * ```
 */
export function paginateStore(
  client: StoreSearchClient<"2.0">,
  params: StoreSearchParams,
  options: PaginateStoreOptions<"2.0">,
): AsyncGenerator<Drillable, void, undefined>;
export function paginateStore(
  client: StoreSearchClient<"2.1">,
  params: StoreSearchParams,
  options: PaginateStoreOptions<"2.1"> & { version: "2.1" },
): AsyncGenerator<StoreEntry<"2.1">, void, undefined>;
export function paginateStore(
  client: StoreSearchClient<"2.0"> | StoreSearchClient<"2.1">,
  params: StoreSearchParams,
  options: PaginateStoreOptions<DrillApiVersion>,
): AsyncGenerator<unknown, void, undefined> {
  return walkEntries(validate(client, params, options));
}

async function* walkEntries(settings: Settings): AsyncGenerator<unknown, void, undefined> {
  const seen = new Set<string>();
  for await (const page of walkPages(settings)) {
    for (const entry of page.drills) {
      const id = (entry as { id?: unknown } | null)?.id;
      if (typeof id === "string") {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield entry;
    }
  }
}

interface Settings {
  readonly getter: StoreGetter<string>;
  readonly path: string;
  readonly params: StoreSearchParams;
  readonly pageSize: number;
  readonly signal: AbortSignal | undefined;
}

function validate(client: unknown, params: unknown, options: unknown): Settings {
  const getter = resolveGetter(client);
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new DrillInvalidOptionError("params", "expected an object of store search parameters");
  }
  if (typeof options !== "object" || options === null) {
    throw new DrillInvalidOptionError("options", "expected an object with pageSize");
  }
  const { pageSize, version = "2.0", signal } = options as Partial<PaginateStoreOptions<DrillApiVersion>>;
  if (typeof pageSize !== "number" || !Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new DrillInvalidOptionError("pageSize", "expected an integer of at least 1");
  }
  if (version !== "2.0" && version !== "2.1") {
    throw new DrillInvalidOptionError("version", `expected "2.1" or "2.0", got ${JSON.stringify(version)}`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new DrillInvalidOptionError("signal", "expected an AbortSignal");
  }
  const path = version === "2.1" ? "/api/2.1/store" : "/api/2/store";
  return { getter, path, params: params as StoreSearchParams, pageSize, signal };
}

function resolveGetter(client: unknown): StoreGetter<string> {
  const candidate =
    typeof client === "object" && client !== null && "raw" in client
      ? (client as { raw: unknown }).raw
      : client;
  if (typeof (candidate as { GET?: unknown } | null)?.GET !== "function") {
    throw new DrillInvalidOptionError("client", "expected a client from createDrillClient");
  }
  return candidate as StoreGetter<string>;
}

async function* walkPages(settings: Settings): AsyncGenerator<StorePage<unknown>, void, undefined> {
  const { getter, path, params, pageSize, signal } = settings;
  const operation: DrillOperation = { method: "GET", path };
  let start = 0;
  let bound: number | undefined;
  while (bound === undefined || start < bound) {
    const query: StoreQuery = { ...params, resultStart: String(start), resultSize: String(pageSize) };
    const result = await getter.GET(path, { params: { query }, ...(signal ? { signal } : {}) });
    const page = readPage(unwrapAs(result, operation), operation);
    bound ??= page.total;
    const drills = page.drills.slice(0, Math.max(0, bound - start));
    if (drills.length === 0) return;
    yield { total: page.total, start, drills };
    start += drills.length;
  }
}

function readPage(body: unknown, operation: DrillOperation): { total: number; drills: unknown[] } {
  const fail = (problem: string) => new DrillUnexpectedResponseError({ operation, problem, body });
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw fail("expected an object with total and drills");
  }
  const { total, drills } = body as { total?: unknown; drills?: unknown };
  // The spec says integer; a string of digits is accepted as well, like resultStart/resultSize.
  const count = typeof total === "string" && /^\d+$/.test(total) ? Number(total) : total;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
    throw fail(`total is ${JSON.stringify(total)}, expected a non-negative integer`);
  }
  if (!Array.isArray(drills)) {
    throw fail("drills is not an array");
  }
  return { total: count, drills };
}
