import { domainRefusal } from "../refusal.js";
import { unionSorted } from "./posting-lists.js";
import type { SearchIndex } from "./search-index.js";
import { intersectSorted } from "./search-index.js";
import { tokenize } from "./text-tokens.js";
import { selectPage } from "./top-k.js";
import type { Catalog, Drillable, DrillableRecord, Drillables, SearchField } from "./types.js";
import { SEARCH_FIELDS } from "./types.js";

/**
 * Parameters of a store search, as they arrive from the query string (numbers may still be strings).
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
 */
export interface StoreSearchContext {
  readonly index: SearchIndex;
  catalog(id: string): Catalog | undefined;
  /** Result-list forms of a page of drillables, with `practice` where the acting user has practised one. */
  toDrillables(records: readonly DrillableRecord[], userId: string): Drillable[];
}

/**
 * One word of a parsed query with its search tokens (a word like `rock'n'roll` has several, all of
 * which must be present).
 */
export interface QueryWord {
  readonly text: string;
  readonly tokens: readonly string[];
}

/**
 * A parsed query: alternatives (OR) of groups whose words are all required (AND). Words are listed once
 * in `words`; groups refer to them by position.
 */
export interface ParsedQuery {
  readonly words: readonly QueryWord[];
  readonly groups: readonly (readonly number[])[];
}

/** Fields searched in a catalog when no `searchField` is given: those a catalog search supports. */
const CATALOG_FIELDS: readonly SearchField[] = ["NAME", "SUBJECT", "TAGS"];
const CATALOG_UNSUPPORTED: ReadonlySet<SearchField> = new Set<SearchField>(["DESCRIPTION", "CONTENTS"]);
const DIGITS = /^[0-9]+$/;
/** No documents. */
const NONE: ArrayLike<number> = new Int32Array(0);

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
 */
export function parseQuery(query: string): ParsedQuery {
  const raws = query.match(/\S+/g) ?? [];
  const rawGroups: string[][] = [];
  // The group of the last word, and the group the next word joins (that one, once an AND followed it).
  let last: string[] | undefined;
  let joining: string[] | undefined;
  for (const raw of raws) {
    if (raw === "AND") {
      joining = last;
      continue;
    }
    if (joining === undefined) {
      joining = [];
      rawGroups.push(joining);
    }
    joining.push(raw);
    last = joining;
    joining = undefined;
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
  const notCount = () =>
    domainRefusal("parameter_invalid", `${name}: must be a non-negative integer written in digits`, name);
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) throw notCount();
    return value;
  }
  if (!DIGITS.test(value)) throw notCount();
  const n = Number(value);
  if (!Number.isSafeInteger(n)) {
    throw domainRefusal(
      "parameter_invalid",
      `${name}: too long to be a number (${value.length} digits; at most ${Number.MAX_SAFE_INTEGER})`,
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
      throw domainRefusal(
        "search_field_invalid",
        `searchField: "${value}" is not one of ${SEARCH_FIELDS.join(", ")}`,
        "searchField",
      );
    }
    if (!fields.includes(value as SearchField)) fields.push(value as SearchField);
  }
  return fields;
}

/**
 * Ascending documents holding the token in at least one of the fields. Long lists are merged by marking
 * documents in a per-document array and reading it back in order, which costs one pass over the index
 * instead of one new array per field.
 */
function tokenPosting(index: SearchIndex, token: string, fields: readonly SearchField[]): ArrayLike<number> {
  if (fields.length === SEARCH_FIELDS.length) return index.postingAnyField(token);
  const lists: ArrayLike<number>[] = [];
  let length = 0;
  for (const field of fields) {
    const list = index.posting(field, token);
    if (list.length > 0) {
      lists.push(list);
      length += list.length;
    }
  }
  if (lists.length === 0) return NONE;
  if (lists.length === 1) return lists[0] as ArrayLike<number>;
  const capacity = index.capacity;
  if (length * 8 < capacity) return lists.reduce((a, b) => unionSorted(a, b));
  const seen = new Uint8Array(capacity);
  for (const list of lists) for (let i = 0; i < list.length; i++) seen[list[i] as number] = 1;
  // At most the lists' lengths added up, and never more than the index holds.
  const out = new Int32Array(Math.min(length, capacity));
  let count = 0;
  for (let doc = 0; doc < capacity; doc++) if (seen[doc] === 1) out[count++] = doc;
  return out.subarray(0, count);
}

/** Documents containing every token of the word in at least one of the fields. */
function wordPosting(index: SearchIndex, word: QueryWord, fields: readonly SearchField[]): ArrayLike<number> {
  // A parsed word has at least one token.
  return word.tokens
    .map((token) => tokenPosting(index, token, fields))
    .reduce((a, b) => intersectSorted(a, b));
}

/**
 * The documents a parsed query matches (each once, in no particular order: {@link rankPage} orders
 * them) and, when the query has alternatives, each word's documents (for relevance; empty otherwise,
 * since then every match has every word).
 */
export function matchQuery(
  index: SearchIndex,
  query: ParsedQuery,
  fields: readonly SearchField[],
): { matched: ArrayLike<number>; postings: readonly ArrayLike<number>[] } {
  const postings = query.words.map((word) => wordPosting(index, word, fields));
  // A parsed group has at least one word.
  const groupDocs = query.groups.map((group) =>
    group.map((at) => postings[at] as ArrayLike<number>).reduce((a, b) => intersectSorted(a, b)),
  );
  // One group: its list is the answer, without a copy. Each of its documents has every word of the
  // query (all words belong to that group), so relevance cannot tell them apart and is not counted.
  if (groupDocs.length === 1) return { matched: groupDocs[0] as ArrayLike<number>, postings: [] };
  // Alternatives: mark each document the first time a group brings it, instead of merging sorted lists.
  const seen = new Uint8Array(index.capacity);
  // At most every group's documents, each once, and never more than the index holds.
  const matched = new Int32Array(
    Math.min(
      groupDocs.reduce((sum, docs) => sum + docs.length, 0),
      index.capacity,
    ),
  );
  let count = 0;
  for (const docs of groupDocs) {
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      if (seen[doc] === 0) {
        seen[doc] = 1;
        matched[count++] = doc;
      }
    }
  }
  return { matched: matched.subarray(0, count), postings };
}

/**
 * The page `[start, start + size)` of the candidates that `keep` flags (1 keeps, by document number),
 * in result order: relevance (how many distinct query words a document matches, most first; only when
 * the query has several words), then name order (`nameRank`). Candidates come ascending when there is
 * at most one posting list, as `matchQuery` gives them. Then, while document order is name order
 * (`ranksFollowDocNumbers`), the page is read off in one pass. Otherwise each candidate gets one
 * numeric key that encodes both, and only the page's keys are sorted (see `selectPage`), never every
 * match.
 */
export function rankPage(
  index: SearchIndex,
  candidates: ArrayLike<number>,
  postings: readonly ArrayLike<number>[],
  keep: Uint8Array,
  start: number,
  size: number,
): { total: number; docs: number[] } {
  // With one word (or none) every candidate has all of them, so the order is the name order alone.
  if (postings.length <= 1 && index.ranksFollowDocNumbers())
    return pageInOrder(candidates, keep, start, size);
  const span = index.capacity;
  const keys = new Float64Array(candidates.length);
  const n = candidates.length;
  const ranks = index.nameRanks();
  let total = 0;
  if (postings.length <= 1) {
    for (let i = 0; i < n; i++) {
      const doc = candidates[i] as number;
      if (keep[doc] === 1) keys[total++] = ranks[doc] as number;
    }
  } else {
    const hits = new Uint32Array(span);
    for (const docs of postings) {
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        hits[doc] = (hits[doc] as number) + 1;
      }
    }
    const words = postings.length;
    for (let i = 0; i < n; i++) {
      const doc = candidates[i] as number;
      if (keep[doc] === 1) keys[total++] = (words - (hits[doc] as number)) * span + (ranks[doc] as number);
    }
  }
  const page = selectPage(keys.subarray(0, total), start, size);
  const docs: number[] = [];
  for (const key of page) docs.push(index.docAtRank(key % span));
  return { total, docs };
}

/**
 * The page of ascending candidates that are kept, when ascending document numbers are name order:
 * nothing to rank, one pass that counts the kept ones and picks the page's.
 */
function pageInOrder(
  candidates: ArrayLike<number>,
  keep: Uint8Array,
  start: number,
  size: number,
): { total: number; docs: number[] } {
  const n = candidates.length;
  const docs: number[] = [];
  let total = 0;
  let i = 0;
  for (; i < n && total < start; i++) if (keep[candidates[i] as number] === 1) total++;
  for (; i < n && docs.length < size; i++) {
    const doc = candidates[i] as number;
    if (keep[doc] === 1) docs.push(doc);
  }
  total += docs.length;
  for (; i < n; i++) if (keep[candidates[i] as number] === 1) total++;
  return { total, docs };
}

/**
 * Searches the store as the interface describes (see README for the sandbox's choices where it is
 * silent). Without a catalog only drillables in the public store are searched; with a catalog only that
 * catalog's drillables, and the user must be on the catalog's access list.
 *
 * Errors (domain refusal IDs): `parameter_invalid`, `search_field_invalid`, `query_missing`,
 * `search_field_not_supported`, `catalog_not_found`, `catalog_access_denied`.
 */
export function searchStore(ctx: StoreSearchContext, userId: string, params: StoreSearchParams): Drillables {
  const { start, size } = parsePaging(params.resultStart, params.resultSize);
  const requested = readFields(params.searchField);
  const query = params.query?.trim() === "" ? undefined : params.query;
  const catalogId = params.catalog === "" ? undefined : params.catalog;

  if (query === undefined && catalogId === undefined) {
    throw domainRefusal("query_missing", "query: required when no catalog is given", "query");
  }

  let fields: readonly SearchField[];
  // The catalog's documents, ascending (none for a store search, which keeps the public store's).
  let scope: Int32Array | undefined;
  if (catalogId !== undefined) {
    const unsupported = requested?.filter((field) => CATALOG_UNSUPPORTED.has(field)) ?? [];
    if (unsupported.length > 0) {
      throw domainRefusal(
        "search_field_not_supported",
        `searchField: ${unsupported.join(" and ")} cannot be searched in a catalog`,
        "searchField",
      );
    }
    const catalog = ctx.catalog(catalogId);
    if (catalog === undefined) {
      throw domainRefusal("catalog_not_found", `catalog: no catalog with ID "${catalogId}"`, "catalog");
    }
    if (!catalog.userIds.includes(userId)) {
      throw domainRefusal(
        "catalog_access_denied",
        `catalog: the user has no access to catalog "${catalogId}"`,
        "catalog",
      );
    }
    fields = requested ?? CATALOG_FIELDS;
    scope = ctx.index.docNumbersOf(catalog.drillableIds);
  } else {
    fields = requested ?? SEARCH_FIELDS;
  }

  // Without a query (a catalog listing) the candidates are the catalog's drillables, none of them words.
  const { matched, postings } =
    query === undefined
      ? { matched: scope as Int32Array, postings: [] }
      : matchQuery(ctx.index, parseQuery(query), fields);
  let keep = ctx.index.inStoreFlags();
  if (scope !== undefined) {
    keep = new Uint8Array(ctx.index.capacity);
    for (let i = 0; i < scope.length; i++) keep[scope[i] as number] = 1;
  }
  const { total, docs } = rankPage(ctx.index, matched, postings, keep, start, size);
  // Pages list live documents only (the name order holds no removed ones).
  const drills = ctx.toDrillables(
    docs.map((doc) => ctx.index.record(doc) as DrillableRecord),
    userId,
  );
  return { total, drills };
}
