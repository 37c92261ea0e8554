/**
 * The two ways lists page: 2.0 (and some 2.1 lists) by index with `resultStart`/`resultSize`, the
 * 2.1 pagination object by marker (`resultFrom` is the previous page's `lastOnPage`). Families page
 * with the parameters of their own operation, so the same state lists alike in both versions.
 */
import { refuse } from "./family.js";

/** A page of `items` by index: `resultStart` (default 0), `resultSize` (default all remaining). */
export function pageByIndex<T>(
  items: readonly T[],
  query: { readonly resultStart?: number; readonly resultSize?: number },
): { total: number; items: T[] } {
  const start = query.resultStart ?? 0;
  const end = query.resultSize === undefined ? items.length : start + query.resultSize;
  return { total: items.length, items: items.slice(start, end) };
}

/**
 * A page of `items` after the marker `resultFrom` (an item's `markerOf`, opaque to clients), with the
 * 2.1 pagination object. The sandbox's markers are the entries' IDs; an unknown one is refused as
 * `invalid_result_from`.
 */
export function pageByMarker<T>(
  items: readonly T[],
  query: { readonly resultFrom?: string; readonly resultSize?: number },
  markerOf: (item: T) => string,
): { items: T[]; pagination: { total: number; lastOnPage?: string; moreAvailable: boolean } } {
  let start = 0;
  if (query.resultFrom !== undefined) {
    const at = items.findIndex((item) => markerOf(item) === query.resultFrom);
    if (at < 0) {
      refuse(
        { kind: "invalid", field: "resultFrom" },
        `query parameter "resultFrom": ${JSON.stringify(query.resultFrom)} is not the lastOnPage of a page of this list`,
        "resultFrom",
      );
    }
    start = at + 1;
  }
  const end = query.resultSize === undefined ? items.length : start + query.resultSize;
  const page = items.slice(start, end);
  const last = page.at(-1);
  return {
    items: page,
    pagination: {
      total: items.length,
      ...(last === undefined ? {} : { lastOnPage: markerOf(last) }),
      moreAvailable: end < items.length,
    },
  };
}
