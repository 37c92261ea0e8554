/**
 * The store search's ranking as it was before top-k selection: every match is sorted (relevance, then
 * name order), then the page is cut. Kept as the reference the faster engine must agree with (same
 * totals, same order), in the equivalence test and in the bench; query parsing and paging come from
 * the sandbox itself, only the ranking differs. Valid parameters only: errors are not its concern.
 */

import { unionSorted } from "../../src/domain/posting-lists.js";
import type { SearchIndex } from "../../src/domain/search-index.js";
import type { ParsedQuery, StoreSearchContext, StoreSearchParams } from "../../src/domain/store-search.js";
import { parsePaging, parseQuery } from "../../src/domain/store-search.js";
import type { Drillables, SearchField } from "../../src/domain/types.js";
import { SEARCH_FIELDS } from "../../src/domain/types.js";

const CATALOG_FIELDS: readonly SearchField[] = ["NAME", "SUBJECT", "TAGS"];

/** Documents of `a` also in `b`, in `a`'s order: a plain set lookup, independent of the engine's. */
function common(a: readonly number[], b: ArrayLike<number>): number[] {
  const inB = new Set(Array.from(b));
  return a.filter((doc) => inB.has(doc));
}

function matchAndSort(index: SearchIndex, query: ParsedQuery, fields: readonly SearchField[]): number[] {
  const postings = query.words.map((word) => {
    let result: number[] | undefined;
    for (const token of word.tokens) {
      let tokenDocs: number[] = [];
      for (const field of fields) tokenDocs = unionSorted(tokenDocs, index.posting(field, token));
      result = result === undefined ? tokenDocs : common(result, tokenDocs);
    }
    return result ?? [];
  });
  let matched: number[] = [];
  for (const group of query.groups) {
    let groupDocs: number[] | undefined;
    for (const at of group) {
      const docs = postings[at] as number[];
      groupDocs = groupDocs === undefined ? docs : common(groupDocs, docs);
    }
    matched = unionSorted(matched, groupDocs ?? []);
  }
  const byName = (a: number, b: number) => index.nameRank(a) - index.nameRank(b);
  if (query.words.length <= 1) return matched.sort(byName);
  const relevance = new Map<number, number>(matched.map((doc) => [doc, 0]));
  for (const docs of postings) {
    for (const doc of docs) {
      const count = relevance.get(doc);
      if (count !== undefined) relevance.set(doc, count + 1);
    }
  }
  return matched.sort((a, b) => (relevance.get(b) as number) - (relevance.get(a) as number) || byName(a, b));
}

/**
 * A store search for valid parameters, ranking by sorting every match.
 */
export function searchStoreSortingAll(
  ctx: StoreSearchContext,
  userId: string,
  params: StoreSearchParams,
): Drillables {
  const { start, size } = parsePaging(params.resultStart, params.resultSize);
  const requested =
    params.searchField === undefined
      ? undefined
      : [...new Set(typeof params.searchField === "string" ? [params.searchField] : params.searchField)];
  const query = params.query?.trim() === "" ? undefined : params.query;
  const catalog =
    params.catalog === undefined || params.catalog === "" ? undefined : ctx.catalog(params.catalog);
  const fields = (requested as SearchField[] | undefined) ?? (catalog ? CATALOG_FIELDS : SEARCH_FIELDS);
  let scope: number[] | undefined;
  if (catalog) {
    const docs = new Set<number>();
    for (const id of catalog.drillableIds) {
      const nr = ctx.index.docNumber(id);
      if (nr !== undefined) docs.add(nr);
    }
    scope = [...docs].sort((a, b) => a - b);
  }
  let found: number[];
  if (query === undefined)
    found = (scope ?? []).sort((a, b) => ctx.index.nameRank(a) - ctx.index.nameRank(b));
  else {
    const matched = matchAndSort(ctx.index, parseQuery(query), fields);
    const inScope = scope === undefined ? undefined : new Set(scope);
    found = matched.filter((doc) => (inScope ? inScope.has(doc) : ctx.index.record(doc)?.inStore === true));
  }
  const records = found.slice(start, start + size).flatMap((doc) => ctx.index.record(doc) ?? []);
  return { total: found.length, drills: ctx.toDrillables(records, userId) };
}
