/**
 * The store search as it was before top-k selection: every match is sorted, then the page is cut. Kept
 * word for word as the reference the faster engine must agree with (same totals, same order), in the
 * equivalence test and in the bench. Not used by the sandbox.
 */

import type { SearchIndex } from "../../src/domain/search-index.js";
import { intersectSorted, tokenize, unionSorted } from "../../src/domain/search-index.js";
import type { Catalog, Drillable, DrillableRecord, Drillables, SearchField } from "../../src/domain/types.js";
import { SEARCH_FIELDS } from "../../src/domain/types.js";
import { DomainError } from "../../src/errors.js";

/**
 * Parameters of a store search, as they arrive from the query string (numbers may still be strings).
 *
 * @example
 * const params: StoreSearchParams = { query: "spanish AND animals", searchField: ["NAME", "TAGS"], resultSize: "10" };
 */
export interface StoreSearchParams {
  readonly query?: string | undefined;
  readonly searchField?: string | readonly string[] | undefined;
  readonly catalog?: string | undefined;
  readonly resultStart?: string | number | undefined;
  readonly resultSize?: string | number | undefined;
}

/**
 * What a store search needs from the sandbox state.
 *
 * @example
 * const ctx: StoreSearchContext = { index, catalog: (id) => catalogs.get(id), toDrillable: (r) => ({ ...r }) };
 */
export interface StoreSearchContext {
  readonly index: SearchIndex;
  catalog(id: string): Catalog | undefined;
  /** Result-list form of a drillable, with `practice` when the acting user has practised it. */
  toDrillable(record: DrillableRecord, userId: string): Drillable;
}

/**
 * One word of a parsed query with its search tokens (a word like `rock'n'roll` has several, all of
 * which must be present).
 *
 * @example
 * const word: QueryWord = { text: "Café", tokens: ["cafe"] };
 */
export interface QueryWord {
  readonly text: string;
  readonly tokens: readonly string[];
}

/**
 * A parsed query: alternatives (OR) of groups whose words are all required (AND). Words are listed once
 * in `words`; groups refer to them by position.
 *
 * @example
 * parseQuery("a b AND c"); // words a, b, c; groups [[0], [1, 2]]  i.e. a OR (b AND c)
 */
export interface ParsedQuery {
  readonly words: readonly QueryWord[];
  readonly groups: readonly (readonly number[])[];
}

/** Fields searched in a catalog when no `searchField` is given: those a catalog search supports. */
const CATALOG_FIELDS: readonly SearchField[] = ["NAME", "SUBJECT", "TAGS"];
const CATALOG_UNSUPPORTED: ReadonlySet<SearchField> = new Set<SearchField>(["DESCRIPTION", "CONTENTS"]);
const DIGITS = /^[0-9]+$/;

/**
 * Parses a store search query.
 *
 * - Words are separated by whitespace and compared case-insensitively (see `tokenize`).
 * - `AND`, in capitals exactly, joins the words on either side into one group whose words are all
 *   required; groups are alternatives. So `a b AND c` means `a OR (b AND c)` and `a AND b c AND d`
 *   means `(a AND b) OR (c AND d)`. Any other spelling (`and`, `And`) is an ordinary word.
 * - An `AND` with no word before it, or none after it, is ignored, and repeated `AND`s count as one.
 *   A query made only of `AND`s searches for the word "and".
 * - A word without any letter or digit (such as `-`) is ignored; a repeated word or group counts once.
 *
 * @example
 * parseQuery("Spanish AND animals").groups; // [[0, 1]]
 */
export function parseQuery(query: string): ParsedQuery {
  const raws = query.split(/\s+/).filter((raw) => raw !== "");
  const rawGroups: string[][] = [];
  let current: string[] | undefined;
  let joinNext = false;
  for (const raw of raws) {
    if (raw === "AND") {
      if (current !== undefined) joinNext = true;
      continue;
    }
    if (joinNext && current !== undefined) current.push(raw);
    else {
      current = [raw];
      rawGroups.push(current);
    }
    joinNext = false;
  }
  if (rawGroups.length === 0 && raws.length > 0) rawGroups.push(["AND"]);

  const words: QueryWord[] = [];
  const wordIndex = new Map<string, number>();
  const groups: number[][] = [];
  const groupKeys = new Set<string>();
  for (const rawGroup of rawGroups) {
    const group: number[] = [];
    for (const raw of rawGroup) {
      const tokens = [...new Set(tokenize(raw))];
      if (tokens.length === 0) continue;
      const key = tokens.join(" ");
      let at = wordIndex.get(key);
      if (at === undefined) {
        at = words.length;
        words.push({ text: raw, tokens });
        wordIndex.set(key, at);
      }
      if (!group.includes(at)) group.push(at);
    }
    const groupKey = [...group].sort((a, b) => a - b).join(",");
    if (group.length > 0 && !groupKeys.has(groupKey)) {
      groupKeys.add(groupKey);
      groups.push(group);
    }
  }
  return { words, groups };
}

/**
 * Reads `resultStart` and `resultSize` (strings of digits or non-negative integers). Absent start is 0;
 * absent size means all remaining results.
 *
 * @example
 * parsePaging("20", undefined); // { start: 20, size: Infinity }
 */
export function parsePaging(
  resultStart: string | number | undefined,
  resultSize: string | number | undefined,
): { start: number; size: number } {
  return {
    start: resultStart === undefined ? 0 : readCount("resultStart", resultStart),
    size: resultSize === undefined ? Number.POSITIVE_INFINITY : readCount("resultSize", resultSize),
  };
}

function readCount(name: string, value: string | number): number {
  const n = typeof value === "number" ? value : DIGITS.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0) {
    throw new DomainError(
      "parameter_invalid",
      `${name}: must be a non-negative integer written in digits`,
      name,
    );
  }
  return n;
}

function readFields(searchField: StoreSearchParams["searchField"]): SearchField[] | undefined {
  if (searchField === undefined) return undefined;
  const values = typeof searchField === "string" ? [searchField] : searchField;
  if (values.length === 0) return undefined;
  const fields: SearchField[] = [];
  for (const value of values) {
    if (!(SEARCH_FIELDS as readonly string[]).includes(value)) {
      throw new DomainError(
        "search_field_invalid",
        `searchField: "${value}" is not one of ${SEARCH_FIELDS.join(", ")}`,
        "searchField",
      );
    }
    if (!fields.includes(value as SearchField)) fields.push(value as SearchField);
  }
  return fields;
}

/** Documents containing every token of the word in at least one of the fields. */
function wordPosting(index: SearchIndex, word: QueryWord, fields: readonly SearchField[]): number[] {
  let result: number[] | undefined;
  for (const token of word.tokens) {
    let tokenDocs: number[] = [];
    for (const field of fields) tokenDocs = unionSorted(tokenDocs, index.posting(field, token));
    result = result === undefined ? tokenDocs : intersectSorted(result, tokenDocs);
    if (result.length === 0) break;
  }
  return result ?? [];
}

/**
 * Runs a parsed query against the index and returns the matching documents ordered by relevance (how
 * many distinct query words the document matches, most first), then by name, then by ID.
 *
 * @example
 * const docs = matchQuery(index, parseQuery("paris"), ["NAME"]);
 */
export function matchQuery(index: SearchIndex, query: ParsedQuery, fields: readonly SearchField[]): number[] {
  const postings = query.words.map((word) => wordPosting(index, word, fields));
  let matched: number[] = [];
  for (const group of query.groups) {
    let groupDocs: number[] | undefined;
    for (const at of group) {
      const docs = postings[at] as number[];
      groupDocs = groupDocs === undefined ? docs : intersectSorted(groupDocs, docs);
      if (groupDocs.length === 0) break;
    }
    matched = unionSorted(matched, groupDocs ?? []);
  }
  if (query.words.length <= 1) return sortByName(index, matched);

  const relevance = new Map<number, number>();
  for (const doc of matched) relevance.set(doc, 0);
  for (const docs of postings) {
    for (const doc of docs) {
      const count = relevance.get(doc);
      if (count !== undefined) relevance.set(doc, count + 1);
    }
  }
  return matched.sort(
    (a, b) =>
      (relevance.get(b) as number) - (relevance.get(a) as number) || index.nameRank(a) - index.nameRank(b),
  );
}

function sortByName(index: SearchIndex, docs: number[]): number[] {
  return docs.sort((a, b) => index.nameRank(a) - index.nameRank(b));
}

/**
 * Searches the store as the interface describes (see README for the sandbox's choices where it is
 * silent). Without a catalog only drillables in the public store are searched; with a catalog only that
 * catalog's drillables, and the user must be on the catalog's access list.
 *
 * Errors (DomainError IDs): `parameter_invalid`, `search_field_invalid`, `query_missing`,
 * `search_field_not_supported`, `catalog_not_found`, `catalog_access_denied`.
 *
 * @example
 * searchStore(ctx, "u-1", { query: "capital AND europe", resultSize: "5" }); // { total: 12, drills: [...5] }
 */
export function searchStoreSortingAll(
  ctx: StoreSearchContext,
  userId: string,
  params: StoreSearchParams,
): Drillables {
  const { start, size } = parsePaging(params.resultStart, params.resultSize);
  const requested = readFields(params.searchField);
  const query = params.query?.trim() === "" ? undefined : params.query;
  const catalogId = params.catalog === "" ? undefined : params.catalog;

  if (query === undefined && catalogId === undefined) {
    throw new DomainError("query_missing", "query: required when no catalog is given", "query");
  }

  let fields: readonly SearchField[];
  let scope: number[] | undefined;
  if (catalogId !== undefined) {
    const unsupported = requested?.filter((field) => CATALOG_UNSUPPORTED.has(field)) ?? [];
    if (unsupported.length > 0) {
      throw new DomainError(
        "search_field_not_supported",
        `searchField: ${unsupported.join(" and ")} cannot be searched in a catalog`,
        "searchField",
      );
    }
    const catalog = ctx.catalog(catalogId);
    if (catalog === undefined) {
      throw new DomainError("catalog_not_found", `catalog: no catalog with ID "${catalogId}"`, "catalog");
    }
    if (!catalog.userIds.includes(userId)) {
      throw new DomainError(
        "catalog_access_denied",
        `catalog: the user has no access to catalog "${catalogId}"`,
        "catalog",
      );
    }
    fields = requested ?? CATALOG_FIELDS;
    const docs = new Set<number>();
    for (const id of catalog.drillableIds) {
      const nr = ctx.index.docNumber(id);
      if (nr !== undefined) docs.add(nr);
    }
    scope = [...docs].sort((a, b) => a - b);
  } else {
    fields = requested ?? SEARCH_FIELDS;
  }

  let found: number[];
  if (query === undefined) {
    found = sortByName(ctx.index, scope ?? []);
  } else {
    const matched = matchQuery(ctx.index, parseQuery(query), fields);
    if (scope !== undefined) {
      const inScope = new Set(scope);
      found = matched.filter((doc) => inScope.has(doc));
    } else {
      found = matched.filter((doc) => ctx.index.record(doc)?.inStore === true);
    }
  }

  const page = found.slice(start, start + size);
  const drills: Drillable[] = [];
  for (const doc of page) {
    const record = ctx.index.record(doc);
    if (record !== undefined) drills.push(ctx.toDrillable(record, userId));
  }
  return { total: found.length, drills };
}
