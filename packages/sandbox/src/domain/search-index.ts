import type { DrillableRecord, SearchField } from "./types.js";
import { SEARCH_FIELDS } from "./types.js";

const ASCII_ONLY = /^[\x20-\x7e]*$/;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Folds text for matching: compatibility decomposition, combining marks removed, lower case. So
 * `Café`, `CAFE` and `café` fold alike, and `Ærø` folds to `ærø` (letters that are not composed of a base
 * letter plus a mark are kept).
 *
 * @example
 * foldText("Ĉu Café?"); // "cu cafe?"
 */
export function foldText(text: string): string {
  // Most drill text is plain ASCII; skipping normalize() there roughly halves indexing time.
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/**
 * Splits text into search tokens: folded (see {@link foldText}), cut at every character that is not a
 * letter or digit in any script. Empty pieces are dropped; duplicates are kept.
 *
 * @example
 * tokenize("Rock'n'Roll — São Paulo, 1969"); // ["rock", "n", "roll", "sao", "paulo", "1969"]
 */
export function tokenize(text: string): string[] {
  const folded = foldText(text);
  const out: string[] = [];
  for (const piece of folded.split(SEPARATORS)) {
    if (piece !== "") out.push(piece);
  }
  return out;
}

/**
 * The text of each search field of a drillable. Courses have no items, so their CONTENTS field is empty.
 *
 * @example
 * fieldTexts(drill, "TAGS"); // ["spanish", "animals"]
 */
export function fieldTexts(record: DrillableRecord, field: SearchField): readonly string[] {
  switch (field) {
    case "NAME":
      return [record.name];
    case "DESCRIPTION":
      return [record.description];
    case "SUBJECT":
      return [record.subject];
    case "TAGS":
      return record.tags;
    case "CONTENTS": {
      if (record.type !== "DRILL") return [];
      const texts: string[] = [];
      for (const item of record.items) texts.push(item.ask, item.tell);
      return texts;
    }
  }
}

/**
 * Key that orders names case- and accent-insensitively by code unit; ties are broken by the exact name
 * and then the ID, so the order never depends on the host's locale data.
 */
function nameSortKey(name: string): string {
  return foldText(name);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Inserts `value` into the sorted array unless present. */
function insertSorted(list: number[], value: number): void {
  const last = list[list.length - 1];
  if (last === undefined || last < value) {
    list.push(value);
    return;
  }
  const at = lowerBound(list, value, 0);
  if (list[at] !== value) list.splice(at, 0, value);
}

/** Removes `value` from the sorted array if present. */
function removeSorted(list: number[], value: number): void {
  const at = lowerBound(list, value, 0);
  if (list[at] === value) list.splice(at, 1);
}

/** First position at or after `from` whose value is >= `value`. */
function lowerBound(list: ArrayLike<number>, value: number, from: number): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Intersection of two ascending lists of document numbers. When one list is much shorter, its elements
 * are looked up by binary search in the longer one instead of walking both.
 *
 * @example
 * intersectSorted([1, 3, 5, 7], [3, 4, 5]); // [3, 5]
 */
export function intersectSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out: number[] = [];
  if (small.length === 0) return out;
  if (small.length * 16 < large.length) {
    let from = 0;
    for (let k = 0; k < small.length; k++) {
      const value = small[k] as number;
      from = lowerBound(large, value, from);
      if (from >= large.length) break;
      if (large[from] === value) out.push(value);
    }
    return out;
  }
  let i = 0;
  let j = 0;
  while (i < small.length && j < large.length) {
    const x = small[i] as number;
    const y = large[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out;
}

/**
 * Union of two ascending lists of document numbers, without duplicates.
 *
 * @example
 * unionSorted([1, 3], [2, 3, 4]); // [1, 2, 3, 4]
 */
export function unionSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  if (a.length === 0) return Array.from(b);
  if (b.length === 0) return Array.from(a);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out.push(x);
      i++;
      j++;
    } else if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as number);
  while (j < b.length) out.push(b[j++] as number);
  return out;
}

interface IndexedDoc {
  readonly record: DrillableRecord;
  readonly sortKey: string;
}

const EMPTY: ArrayLike<number> = new Int32Array(0);

/**
 * A posting list: a plain array while it changes; once the index is built, an exact-size `Int32Array`
 * for long lists (half the memory of a JS number array on 64-bit) and a trimmed array for short ones.
 */
type Posting = number[] | Int32Array;

/** The list for `token`, as a plain array that may be changed (a compacted one is copied back first). */
function mutable(map: Map<string, Posting>, token: string): number[] | undefined {
  const posting = map.get(token);
  if (posting === undefined || Array.isArray(posting)) return posting;
  const copy = Array.from(posting);
  map.set(token, copy);
  return copy;
}

/** Below this length a typed array's own overhead outweighs what it saves per entry. */
const TYPED_FROM = 16;

/** Fields whose texts repeat across drills (items, tags, subjects), so their token lists are memoized. */
const REPEATING_FIELDS: ReadonlySet<SearchField> = new Set<SearchField>(["SUBJECT", "TAGS", "CONTENTS"]);

/** Lists per token: one per search field, then the any-field list. */
const LIST_KINDS = SEARCH_FIELDS.length + 1;

/**
 * Posting lists for a whole dataset at once. Each distinct token gets a number; adding a document logs
 * each (list, token) pair once, counting per list, and `finish` allocates every list at its exact size
 * and fills it from the log. Growing millions of JS arrays by `push` instead left their outgrown copies
 * as old-generation garbage, which set the process's peak memory at 100,000 drills.
 */
class BulkPostings {
  readonly #tokenNr = new Map<string, number>();
  readonly #tokens: string[] = [];
  readonly #memo = new Map<string, Int32Array>();
  /** Per token number and list kind (`nr * LIST_KINDS + kind`): documents counted, last document logged. */
  #count = new Int32Array(0);
  #last = new Int32Array(0);
  /** Logged `nr * LIST_KINDS + kind` slots, in document order; `#docEnds[d]` is where document d's end. */
  #log = new Int32Array(1 << 16);
  #logLength = 0;
  readonly #docEnds: number[] = [];

  add(record: DrillableRecord, docNr: number): void {
    for (let f = 0; f < SEARCH_FIELDS.length; f++) {
      const field = SEARCH_FIELDS[f] as SearchField;
      const memoize = REPEATING_FIELDS.has(field);
      for (const text of fieldTexts(record, field)) {
        if (memoize) {
          const numbers = this.#numbersOf(text);
          for (let k = 0; k < numbers.length; k++) this.#postBoth(f, numbers[k] as number, docNr);
        } else {
          // Names and descriptions are mostly unique: memoizing them would only keep garbage alive.
          for (const token of tokenize(text)) this.#postBoth(f, this.#numberOf(token), docNr);
        }
      }
    }
    this.#docEnds[docNr] = this.#logLength;
  }

  /** Puts the lists into the index's maps: `Int32Array` for long ones, exact-size arrays for short ones. */
  finish(postings: Map<SearchField, Map<string, Posting>>, anyField: Map<string, Posting>): void {
    const slots = this.#tokens.length * LIST_KINDS;
    const lists: Posting[] = new Array(slots);
    for (let slot = 0; slot < slots; slot++) {
      const count = this.#count[slot] as number;
      if (count > 0)
        lists[slot] = count >= TYPED_FROM ? new Int32Array(count) : new Array<number>(count).fill(0);
    }
    const filled = new Int32Array(slots);
    let at = 0;
    this.#docEnds.forEach((end, docNr) => {
      for (; at < end; at++) {
        const slot = this.#log[at] as number;
        const next = filled[slot] as number;
        (lists[slot] as Posting)[next] = docNr;
        filled[slot] = next + 1;
      }
    });
    for (let slot = 0; slot < slots; slot++) {
      const list = lists[slot];
      if (list === undefined) continue;
      const kind = slot % LIST_KINDS;
      const token = this.#tokens[(slot - kind) / LIST_KINDS] as string;
      const target =
        kind < SEARCH_FIELDS.length ? postings.get(SEARCH_FIELDS[kind] as SearchField) : anyField;
      target?.set(token, list);
    }
    this.#memo.clear();
    this.#log = new Int32Array(0);
  }

  #postBoth(f: number, nr: number, docNr: number): void {
    this.#post(nr * LIST_KINDS + f, docNr);
    this.#post(nr * LIST_KINDS + SEARCH_FIELDS.length, docNr);
  }

  #post(slot: number, docNr: number): void {
    // A token repeated within a document is posted once.
    if (this.#last[slot] === docNr) return;
    this.#last[slot] = docNr;
    this.#count[slot] = (this.#count[slot] as number) + 1;
    if (this.#logLength === this.#log.length) {
      const grown = new Int32Array(this.#log.length * 2);
      grown.set(this.#log);
      this.#log = grown;
    }
    this.#log[this.#logLength++] = slot;
  }

  /** Token numbers of a repeating text, tokenized once per distinct text. */
  #numbersOf(text: string): Int32Array {
    const known = this.#memo.get(text);
    if (known !== undefined) return known;
    const tokens = tokenize(text);
    const numbers = new Int32Array(tokens.length);
    for (let k = 0; k < tokens.length; k++) numbers[k] = this.#numberOf(tokens[k] as string);
    this.#memo.set(text, numbers);
    return numbers;
  }

  #numberOf(token: string): number {
    let nr = this.#tokenNr.get(token);
    if (nr === undefined) {
      nr = this.#tokens.length;
      this.#tokens.push(token);
      this.#tokenNr.set(token, nr);
      if ((nr + 1) * LIST_KINDS > this.#count.length) this.#grow((nr + 1) * LIST_KINDS);
    }
    return nr;
  }

  #grow(slots: number): void {
    const size = Math.max(1024 * LIST_KINDS, slots * 2);
    const count = new Int32Array(size);
    count.set(this.#count);
    this.#count = count;
    const last = new Int32Array(size).fill(-1);
    last.set(this.#last);
    this.#last = last;
  }
}

/**
 * Inverted index over drills and courses: for every search field, a map from token to the ascending
 * list of document numbers containing it. Each drillable gets a document number the first time it is
 * added and keeps it across updates, so posting lists stay sorted without rebuilding.
 *
 * The index is built once ({@link SearchIndex.build}) and kept current with {@link SearchIndex.upsert}
 * and {@link SearchIndex.remove}; queries never scan all documents.
 *
 * @example
 * const index = SearchIndex.build(data.drills);
 * index.posting("NAME", "spanish"); // document numbers of drills whose name has the word "spanish"
 */
export class SearchIndex {
  private readonly docs: (IndexedDoc | undefined)[] = [];
  private readonly docById = new Map<string, number>();
  private readonly postings = new Map<SearchField, Map<string, Posting>>(
    SEARCH_FIELDS.map((field) => [field, new Map<string, Posting>()]),
  );
  /** Token to documents that hold it in any field: the posting of a search over every field. */
  private readonly anyField = new Map<string, Posting>();
  /** 1 where the document is in the public store; read per match, so a flat array, not the record. */
  private storeFlags = new Uint8Array(0);
  private ranks: Int32Array = new Int32Array(0);
  private byRank: Int32Array = new Int32Array(0);
  private ranksValid = true;
  private liveCount = 0;

  /**
   * Builds an index over the given drills and courses.
   *
   * @example
   * const index = SearchIndex.build([...data.drills, ...data.courses]);
   */
  static build(records: Iterable<DrillableRecord>): SearchIndex {
    const index = new SearchIndex();
    const bulk = new BulkPostings();
    // A repeated ID replaces the earlier version, as `upsert` does; it is applied after the bulk pass.
    const repeated: DrillableRecord[] = [];
    for (const record of records) {
      if (index.docById.has(record.id)) {
        repeated.push(record);
        continue;
      }
      const docNr = index.docs.length;
      index.docs.push({ record, sortKey: nameSortKey(record.name) });
      index.docById.set(record.id, docNr);
      index.setInStore(docNr, record.inStore);
      index.liveCount++;
      bulk.add(record, docNr);
    }
    bulk.finish(index.postings, index.anyField);
    for (const record of repeated) index.upsert(record);
    index.refreshRanks();
    return index;
  }

  /** Number of drillables in the index. */
  get size(): number {
    return this.liveCount;
  }

  /**
   * One more than the highest document number ever given: the length a per-document array needs.
   *
   * @example
   * const marks = new Uint8Array(index.capacity);
   */
  get capacity(): number {
    return this.docs.length;
  }

  /**
   * Adds a drillable, or replaces the indexed version of a drillable with the same ID.
   *
   * @example
   * index.upsert({ ...drill, name: "New name" });
   */
  upsert(record: DrillableRecord): void {
    const known = this.docById.get(record.id);
    if (known !== undefined) {
      this.replace(known, record);
      return;
    }
    const docNr = this.docs.length;
    this.docs.push({ record, sortKey: nameSortKey(record.name) });
    this.docById.set(record.id, docNr);
    this.setInStore(docNr, record.inStore);
    this.liveCount++;
    for (const field of SEARCH_FIELDS) {
      const fieldPostings = this.postings.get(field) as Map<string, Posting>;
      for (const text of fieldTexts(record, field)) {
        for (const token of tokenize(text)) {
          const posting = mutable(fieldPostings, token);
          if (posting === undefined) fieldPostings.set(token, [docNr]);
          // A new document has the highest number, so a repeated token shows up as the last entry.
          else if (posting[posting.length - 1] !== docNr) posting.push(docNr);
          const any = mutable(this.anyField, token);
          if (any === undefined) this.anyField.set(token, [docNr]);
          else if (any[any.length - 1] !== docNr) any.push(docNr);
        }
      }
    }
    this.ranksValid = false;
  }

  /**
   * Takes a drillable out of the index. Returns whether it was there.
   *
   * @example
   * index.remove("es-animals"); // true
   */
  remove(id: string): boolean {
    const docNr = this.docById.get(id);
    if (docNr === undefined) return false;
    this.unpost(docNr);
    this.docs[docNr] = undefined;
    this.setInStore(docNr, false);
    this.docById.delete(id);
    this.liveCount--;
    this.ranksValid = false;
    return true;
  }

  /**
   * Document number of a drillable, if indexed.
   *
   * @example
   * const nr = index.docNumber("es-animals");
   */
  docNumber(id: string): number | undefined {
    return this.docById.get(id);
  }

  /**
   * The drillable behind a document number.
   *
   * @example
   * const record = index.record(index.posting("NAME", "spanish")[0] ?? -1);
   */
  record(docNr: number): DrillableRecord | undefined {
    return this.docs[docNr]?.record;
  }

  /**
   * Ascending document numbers of drillables whose `field` contains `token` (an already folded token).
   * The returned array belongs to the index: do not modify it.
   *
   * @example
   * index.posting("TAGS", "animals");
   */
  posting(field: SearchField, token: string): ArrayLike<number> {
    return this.postings.get(field)?.get(token) ?? EMPTY;
  }

  /**
   * Ascending document numbers of drillables that contain `token` in any search field.
   *
   * @example
   * index.postingAnyField("animals");
   */
  postingAnyField(token: string): ArrayLike<number> {
    return this.anyField.get(token) ?? EMPTY;
  }

  /**
   * Per-document flags, 1 for drillables in the public store; indexed by document number. Belongs to
   * the index and changes with it: read it, do not keep it across changes.
   *
   * @example
   * const inStore = index.inStoreFlags()[doc] === 1;
   */
  inStoreFlags(): Uint8Array {
    return this.storeFlags;
  }

  /**
   * Name-order positions by document number (-1 for removed ones), as {@link SearchIndex.nameRank}
   * gives them one by one. Belongs to the index: read it, do not keep it across changes.
   *
   * @example
   * const rank = index.nameRanks()[doc];
   */
  nameRanks(): Int32Array {
    if (!this.ranksValid) this.refreshRanks();
    return this.ranks;
  }

  /**
   * Position of a document in name order (see the module notes); smaller sorts first.
   *
   * @example
   * docs.sort((a, b) => index.nameRank(a) - index.nameRank(b));
   */
  nameRank(docNr: number): number {
    if (!this.ranksValid) this.refreshRanks();
    return this.ranks[docNr] ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * The document at a position in name order (the inverse of {@link SearchIndex.nameRank}).
   *
   * @example
   * index.docAtRank(index.nameRank(7)); // 7
   */
  docAtRank(rank: number): number {
    if (!this.ranksValid) this.refreshRanks();
    return this.byRank[rank] ?? -1;
  }

  private fieldTokens(record: DrillableRecord, field: SearchField): Set<string> {
    const tokens = new Set<string>();
    for (const text of fieldTexts(record, field)) for (const token of tokenize(text)) tokens.add(token);
    return tokens;
  }

  /**
   * Updates an indexed document in place. Only tokens that appear or disappear touch the posting lists,
   * so renaming a drill does not rewrite the long lists of its unchanged tags and items.
   */
  private replace(docNr: number, record: DrillableRecord): void {
    const old = this.docs[docNr]?.record;
    const beforeAny = old === undefined ? new Set<string>() : this.allTokens(old);
    const afterAny = this.allTokens(record);
    for (const token of beforeAny) if (!afterAny.has(token)) this.unpostAny(token, docNr);
    for (const token of afterAny) {
      if (beforeAny.has(token)) continue;
      const posting = mutable(this.anyField, token);
      if (posting === undefined) this.anyField.set(token, [docNr]);
      else insertSorted(posting, docNr);
    }
    for (const field of SEARCH_FIELDS) {
      const fieldPostings = this.postings.get(field) as Map<string, Posting>;
      const before = old === undefined ? new Set<string>() : this.fieldTokens(old, field);
      const after = this.fieldTokens(record, field);
      for (const token of before) {
        if (after.has(token)) continue;
        const posting = mutable(fieldPostings, token);
        if (posting === undefined) continue;
        removeSorted(posting, docNr);
        if (posting.length === 0) fieldPostings.delete(token);
      }
      for (const token of after) {
        if (before.has(token)) continue;
        const posting = mutable(fieldPostings, token);
        if (posting === undefined) fieldPostings.set(token, [docNr]);
        else insertSorted(posting, docNr);
      }
    }
    this.docs[docNr] = { record, sortKey: nameSortKey(record.name) };
    this.setInStore(docNr, record.inStore);
    this.ranksValid = false;
  }

  /** Takes a document out of every posting list. */
  private unpost(docNr: number): void {
    const doc = this.docs[docNr];
    if (doc === undefined) return;
    for (const token of this.allTokens(doc.record)) this.unpostAny(token, docNr);
    for (const field of SEARCH_FIELDS) {
      const fieldPostings = this.postings.get(field) as Map<string, Posting>;
      for (const token of this.fieldTokens(doc.record, field)) {
        const posting = mutable(fieldPostings, token);
        if (posting === undefined) continue;
        removeSorted(posting, docNr);
        if (posting.length === 0) fieldPostings.delete(token);
      }
    }
  }

  private allTokens(record: DrillableRecord): Set<string> {
    const tokens = new Set<string>();
    for (const field of SEARCH_FIELDS) for (const token of this.fieldTokens(record, field)) tokens.add(token);
    return tokens;
  }

  private unpostAny(token: string, docNr: number): void {
    const posting = mutable(this.anyField, token);
    if (posting === undefined) return;
    removeSorted(posting, docNr);
    if (posting.length === 0) this.anyField.delete(token);
  }

  private setInStore(docNr: number, inStore: boolean): void {
    if (docNr >= this.storeFlags.length) {
      const grown = new Uint8Array(Math.max(16, docNr * 2));
      grown.set(this.storeFlags);
      this.storeFlags = grown;
    }
    this.storeFlags[docNr] = inStore ? 1 : 0;
  }

  private refreshRanks(): void {
    const live: number[] = [];
    for (let nr = 0; nr < this.docs.length; nr++) if (this.docs[nr] !== undefined) live.push(nr);
    const docs = this.docs as IndexedDoc[];
    live.sort((a, b) => {
      const x = docs[a] as IndexedDoc;
      const y = docs[b] as IndexedDoc;
      return (
        compareStrings(x.sortKey, y.sortKey) ||
        compareStrings(x.record.name, y.record.name) ||
        compareStrings(x.record.id, y.record.id)
      );
    });
    const ranks = new Int32Array(this.docs.length).fill(-1);
    live.forEach((nr, rank) => {
      ranks[nr] = rank;
    });
    this.ranks = ranks;
    this.byRank = Int32Array.from(live);
    this.ranksValid = true;
  }
}
