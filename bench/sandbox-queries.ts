/**
 * The store search mix the sandbox benchmarks cycle through: one word, several words, `AND`,
 * `searchField`, catalog listings and deep pages. The catalog differs per dataset, so it is a parameter.
 */

/** Query parameters of one search; arrays are repeated keys. */
export type SearchParams = Readonly<Record<string, string | readonly string[]>>;

/** Catalog of the embedded data that the service account may read. */
export const DEFAULT_CATALOG = "catalog-academy-business";
/** Catalog of `generateLargeDataset` (every hundredth drill). */
export const LARGE_CATALOG = "catalog-large-sample";

/**
 * The mix, with a short label per search for the tables.
 *
 * @example
 * ```ts
 * import { LARGE_CATALOG, queryString, searchMix } from "./sandbox-queries.ts";
 *
 * for (const { label, params } of searchMix(LARGE_CATALOG)) console.log(label, queryString(params));
 * ```
 */
export function searchMix(
  catalog: string,
): readonly { readonly label: string; readonly params: SearchParams }[] {
  return [
    { label: "one word", params: { query: "spanish", resultSize: "10" } },
    { label: "one common word", params: { query: "the", resultSize: "10" } },
    { label: "several words", params: { query: "planets moons rivers", resultSize: "10" } },
    { label: "AND", params: { query: "spanish AND vocabulary", resultSize: "10" } },
    { label: "searchField", params: { query: "elements", searchField: ["NAME", "TAGS"], resultSize: "10" } },
    { label: "catalog listing", params: { catalog, resultSize: "20" } },
    { label: "deep page", params: { query: "spanish", resultStart: "5000", resultSize: "10" } },
    { label: "deep catalog page", params: { catalog, resultStart: "500", resultSize: "20" } },
  ];
}

/**
 * The URL query string of a search.
 *
 * @example
 * ```ts
 * import { queryString } from "./sandbox-queries.ts";
 *
 * queryString({ query: "a b", searchField: ["NAME", "TAGS"] }); // "query=a+b&searchField=NAME&searchField=TAGS"
 * ```
 */
export function queryString(params: SearchParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of typeof value === "string" ? [value] : value) search.append(name, item);
  }
  return search.toString();
}

/**
 * How long a benchmark warms a server up before its rounds. A sandbox takes a few thousand searches
 * before V8 has optimised its hot paths (its rate still doubles after the first 300), so rounds after
 * a short warm-up would measure the optimisation rather than the server; sandbox-search reports the
 * warm-up's own rate beside the rounds.
 *
 * @example
 * ```ts
 * import { SEARCH_WARMUP } from "./sandbox-queries.ts";
 * import { runConcurrent } from "./stats.ts";
 *
 * const url = "http://127.0.0.1:4010/.well-known/oauth-authorization-server";
 * await runConcurrent({ ...SEARCH_WARMUP, concurrency: 16 }, () => fetch(url));
 * ```
 */
export const SEARCH_WARMUP = { total: 3000, maxMs: 10_000 } as const;
