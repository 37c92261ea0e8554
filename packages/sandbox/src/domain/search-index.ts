import { PostingBuilder } from "./posting-builder.js";
import { ANY_FIELD, fieldKind, PostingLists } from "./posting-lists.js";
import { fieldTexts, foldText, tokenize } from "./text-tokens.js";
import type { DrillableRecord, SearchField } from "./types.js";
import { SEARCH_FIELDS } from "./types.js";

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
  const at = lowerBound(list, value, 0, list.length);
  if (list[at] !== value) list.splice(at, 0, value);
}

/** Removes `value` from the sorted array if present. */
function removeSorted(list: number[], value: number): void {
  const at = lowerBound(list, value, 0, list.length);
  if (list[at] === value) list.splice(at, 1);
}

/** First position in `[from, to)` whose value is >= `value` (`to` if none). */
function lowerBound(list: ArrayLike<number>, value: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * First position after `from` whose value is >= `value`, where `list[from] < value`: steps of 1, 2, 4, …
 * find a window, a binary search finishes in it. Consecutive lookups of an intersection land close
 * together, so this costs the logarithm of the gap, not of the list.
 */
function gallop(list: ArrayLike<number>, value: number, from: number): number {
  let lo = from;
  let step = 1;
  while (lo + step < list.length && (list[lo + step] as number) < value) {
    lo += step;
    step *= 2;
  }
  return lowerBound(list, value, lo + 1, Math.min(lo + step, list.length));
}

/**
 * Intersection of two ascending lists of document numbers. When one list is much shorter, each of its
 * documents is looked up in the longer one by galloping forward from the previous find; otherwise both
 * are walked side by side.
 */
export function intersectSorted(a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Int32Array(small.length);
  let count = 0;
  if (small.length === 0) return out;
  if (small.length * 16 < large.length) {
    let at = 0;
    for (let k = 0; k < small.length && at < large.length; k++) {
      const value = small[k] as number;
      if ((large[at] as number) < value) at = gallop(large, value, at);
      if (large[at] === value) out[count++] = value;
    }
    return out.subarray(0, count);
  }
  // Lists of like length: one merge, the longer list's position only ever moving forward (three to
  // four times faster than marking the longer list's documents in a byte array and reading them back).
  let at = 0;
  const end = large.length;
  for (let k = 0; k < small.length; k++) {
    const value = small[k] as number;
    while (at < end && (large[at] as number) < value) at++;
    if (at === end) break;
    if (large[at] === value) out[count++] = value;
  }
  return out.subarray(0, count);
}

/**
 * Inverted index over drills and courses: for every search field, a map from token to the ascending
 * list of document numbers containing it. Each drillable gets a document number the first time it is
 * added and keeps it across updates, so posting lists stay sorted without rebuilding.
 *
 * The index is built once ({@link SearchIndex.build}) and kept current with {@link SearchIndex.upsert}
 * and {@link SearchIndex.remove}; queries never scan all documents.
 */
export class SearchIndex {
  #docs: (DrillableRecord | undefined)[] = [];
  #docById = new Map<string, number>();
  /** Per token: the documents holding it in each search field, and in any field (a search over all). */
  #lists = new PostingLists();
  /** 1 where the document is in the public store; read per match, so a flat array, not the record. */
  #storeFlags = new Uint8Array(0);
  #ranks: Int32Array = new Int32Array(0);
  #byRank: Int32Array = new Int32Array(0);
  #ranksValid = true;
  /** Whether name order is document-number order (see {@link SearchIndex.ranksFollowDocNumbers}). */
  #ranksFollowDocs = true;
  #liveCount = 0;
  /** Counts changes, so what is remembered from an earlier state of the index is known to be stale. */
  #changes = 0;
  readonly #idLists = new WeakMap<readonly string[], { changes: number; docs: Int32Array }>();

  /**
   * Builds an index over the given drills and courses.
   */
  static build(records: Iterable<DrillableRecord>): SearchIndex {
    const index = new SearchIndex();
    const builder = new PostingBuilder(index.#lists);
    // A repeated ID replaces the earlier version, as `upsert` does; it is applied after the bulk pass.
    const first: DrillableRecord[] = [];
    const repeated: DrillableRecord[] = [];
    // `docById` marks the IDs seen (no set beside it); `#addDoc` gives each its number below.
    const seen = index.#docById;
    for (const record of records) {
      if (seen.has(record.id)) repeated.push(record);
      else {
        seen.set(record.id, -1);
        first.push(record);
      }
    }
    // Numbered in name order, so document order is name order until a change says otherwise, and a
    // search of one group of words can page through its sorted matches without ranking them.
    const ordered = inNameOrder(first, Array.from(first.keys())).map((at) => first[at] as DrillableRecord);
    for (const record of ordered) builder.add(record, index.#addDoc(record));
    builder.finish(ordered.length);
    const identity = Int32Array.from(ordered.keys());
    index.#setRanks(identity, identity.slice());
    for (const record of repeated) index.upsert(record);
    return index;
  }

  /**
   * An independent copy of the index, far cheaper than building it again: the packed posting lists
   * of the build are shared, since changes never write into them.
   */
  clone(): SearchIndex {
    const copy = new SearchIndex();
    copy.#docs = this.#docs.slice();
    copy.#docById = new Map(this.#docById);
    copy.#lists = this.#lists.clone();
    copy.#storeFlags = this.#storeFlags.slice();
    copy.#ranks = this.#ranks;
    copy.#byRank = this.#byRank;
    copy.#ranksValid = this.#ranksValid;
    copy.#ranksFollowDocs = this.#ranksFollowDocs;
    copy.#liveCount = this.#liveCount;
    copy.#changes = this.#changes;
    return copy;
  }

  /** Number of drillables in the index. */
  get size(): number {
    return this.#liveCount;
  }

  /**
   * One more than the highest document number ever given: the length a per-document array needs.
   */
  get capacity(): number {
    return this.#docs.length;
  }

  /**
   * Adds a drillable, or replaces the indexed version of a drillable with the same ID.
   */
  upsert(record: DrillableRecord): void {
    const known = this.#docById.get(record.id);
    if (known !== undefined) {
      this.#replace(known, record);
      return;
    }
    const docNr = this.#addDoc(record);
    for (let kind = 0; kind < SEARCH_FIELDS.length; kind++) {
      for (const text of fieldTexts(record, SEARCH_FIELDS[kind] as SearchField)) {
        for (const token of tokenize(text)) {
          const nr = this.#lists.numberOf(token);
          // A new document has the highest number, so a repeated token shows up as the last entry.
          const posting = this.#lists.mutable(nr, kind);
          if (posting[posting.length - 1] !== docNr) posting.push(docNr);
          const any = this.#lists.mutable(nr, ANY_FIELD);
          if (any[any.length - 1] !== docNr) any.push(docNr);
        }
      }
    }
    this.#ranksValid = false;
    this.#changes++;
  }

  /**
   * Takes a drillable out of the index. Returns whether it was there.
   */
  remove(id: string): boolean {
    const docNr = this.#docById.get(id);
    if (docNr === undefined) return false;
    this.#unpost(docNr);
    this.#docs[docNr] = undefined;
    this.#setInStore(docNr, false);
    this.#docById.delete(id);
    this.#liveCount--;
    this.#ranksValid = false;
    this.#changes++;
    return true;
  }

  /**
   * Document number of a drillable, if indexed.
   */
  docNumber(id: string): number | undefined {
    return this.#docById.get(id);
  }

  /**
   * The live documents of these IDs (unknown ones left out), ascending and each once, as a catalog's
   * search scope. Remembered per list (by identity) until the index changes, so a catalog listed page
   * after page is looked up once. The returned array belongs to the index: do not modify it.
   */
  docNumbersOf(ids: readonly string[]): Int32Array {
    const known = this.#idLists.get(ids);
    if (known !== undefined && known.changes === this.#changes) return known.docs;
    const found: number[] = [];
    for (const id of ids) {
      const nr = this.#docById.get(id);
      if (nr !== undefined) found.push(nr);
    }
    const sorted = Int32Array.from(found).sort();
    let count = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (count === 0 || sorted[count - 1] !== sorted[i]) sorted[count++] = sorted[i] as number;
    }
    const docs = sorted.slice(0, count);
    this.#idLists.set(ids, { changes: this.#changes, docs });
    return docs;
  }

  /**
   * The drillable behind a document number.
   */
  record(docNr: number): DrillableRecord | undefined {
    return this.#docs[docNr];
  }

  /**
   * Ascending document numbers of drillables whose `field` contains `token` (an already folded token).
   * The returned array belongs to the index: do not modify it.
   */
  posting(field: SearchField, token: string): ArrayLike<number> {
    return this.#lists.list(token, fieldKind(field));
  }

  /**
   * Ascending document numbers of drillables that contain `token` in any search field.
   */
  postingAnyField(token: string): ArrayLike<number> {
    return this.#lists.list(token, ANY_FIELD);
  }

  /**
   * Per-document flags, 1 for drillables in the public store; indexed by document number. Belongs to
   * the index and changes with it: read it, do not keep it across changes.
   */
  inStoreFlags(): Uint8Array {
    return this.#storeFlags;
  }

  /**
   * Name-order positions by document number (-1 for removed ones), as {@link SearchIndex.nameRank}
   * gives them one by one. Belongs to the index: read it, do not keep it across changes.
   */
  nameRanks(): Int32Array {
    if (!this.#ranksValid) this.#refreshRanks();
    return this.#ranks;
  }

  /**
   * Position of a document in name order (see the module notes); smaller sorts first.
   */
  nameRank(docNr: number): number {
    if (!this.#ranksValid) this.#refreshRanks();
    return this.#ranks[docNr] ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * The document at a position in name order (the inverse of {@link SearchIndex.nameRank}).
   */
  docAtRank(rank: number): number {
    if (!this.#ranksValid) this.#refreshRanks();
    return this.#byRank[rank] ?? -1;
  }

  /**
   * Whether live documents in ascending number are in name order: true after a build, which numbers
   * documents in name order, until a change (a new drillable whose name does not sort last, a rename)
   * breaks it. Then an ascending list of matches is already a name-ordered one.
   */
  ranksFollowDocNumbers(): boolean {
    if (!this.#ranksValid) this.#refreshRanks();
    return this.#ranksFollowDocs;
  }

  /** Gives a new drillable the next document number (its lists are the caller's business). */
  #addDoc(record: DrillableRecord): number {
    const docNr = this.#docs.length;
    this.#docs.push(record);
    this.#docById.set(record.id, docNr);
    this.#setInStore(docNr, record.inStore);
    this.#liveCount++;
    return docNr;
  }

  #fieldTokens(record: DrillableRecord, field: SearchField): Set<string> {
    const tokens = new Set<string>();
    for (const text of fieldTexts(record, field)) for (const token of tokenize(text)) tokens.add(token);
    return tokens;
  }

  /**
   * Updates an indexed document in place. Only tokens that appear or disappear touch the posting lists,
   * so renaming a drill does not rewrite the long lists of its unchanged tags and items.
   */
  #replace(docNr: number, record: DrillableRecord): void {
    // Only live documents have an ID in `docById`, so the old version is there.
    const old = this.#docs[docNr] as DrillableRecord;
    const beforeAny = this.#allTokens(old);
    const afterAny = this.#allTokens(record);
    for (const token of beforeAny) {
      if (!afterAny.has(token))
        removeSorted(this.#lists.mutable(this.#lists.numberOf(token), ANY_FIELD), docNr);
    }
    for (const token of afterAny) {
      if (!beforeAny.has(token))
        insertSorted(this.#lists.mutable(this.#lists.numberOf(token), ANY_FIELD), docNr);
    }
    for (let kind = 0; kind < SEARCH_FIELDS.length; kind++) {
      const field = SEARCH_FIELDS[kind] as SearchField;
      const before = this.#fieldTokens(old, field);
      const after = this.#fieldTokens(record, field);
      for (const token of before) {
        if (!after.has(token)) removeSorted(this.#lists.mutable(this.#lists.numberOf(token), kind), docNr);
      }
      for (const token of after) {
        if (!before.has(token)) insertSorted(this.#lists.mutable(this.#lists.numberOf(token), kind), docNr);
      }
    }
    this.#docs[docNr] = record;
    this.#setInStore(docNr, record.inStore);
    this.#ranksValid = false;
  }

  /** Takes a live document out of every posting list. */
  #unpost(docNr: number): void {
    const record = this.#docs[docNr] as DrillableRecord;
    for (const token of this.#allTokens(record)) {
      removeSorted(this.#lists.mutable(this.#lists.numberOf(token), ANY_FIELD), docNr);
    }
    for (let kind = 0; kind < SEARCH_FIELDS.length; kind++) {
      for (const token of this.#fieldTokens(record, SEARCH_FIELDS[kind] as SearchField)) {
        removeSorted(this.#lists.mutable(this.#lists.numberOf(token), kind), docNr);
      }
    }
  }

  #allTokens(record: DrillableRecord): Set<string> {
    const tokens = new Set<string>();
    for (const field of SEARCH_FIELDS)
      for (const token of this.#fieldTokens(record, field)) tokens.add(token);
    return tokens;
  }

  #setInStore(docNr: number, inStore: boolean): void {
    if (docNr >= this.#storeFlags.length) {
      const grown = new Uint8Array(Math.max(16, docNr * 2));
      grown.set(this.#storeFlags);
      this.#storeFlags = grown;
    }
    this.#storeFlags[docNr] = inStore ? 1 : 0;
  }

  #refreshRanks(): void {
    const live: number[] = [];
    this.#docs.forEach((record, nr) => {
      if (record !== undefined) live.push(nr);
    });
    const byRank = Int32Array.from(inNameOrder(this.#docs, live));
    const ranks = new Int32Array(this.#docs.length).fill(-1);
    byRank.forEach((nr, rank) => {
      ranks[nr] = rank;
    });
    this.#setRanks(ranks, byRank);
  }

  #setRanks(ranks: Int32Array, byRank: Int32Array): void {
    this.#ranks = ranks;
    this.#byRank = byRank;
    this.#ranksValid = true;
    let ascending = true;
    for (let rank = 1; rank < byRank.length && ascending; rank++) {
      ascending = (byRank[rank - 1] as number) < (byRank[rank] as number);
    }
    this.#ranksFollowDocs = ascending;
  }
}

/**
 * The positions `at` (of live records) sorted by the names of `records[at]` (see {@link nameSortKey}). Sort
 * keys are made here, not kept per document: folding 100,000 names adds a few percent to the sort,
 * keeping them took 6 MB.
 */
function inNameOrder(records: readonly (DrillableRecord | undefined)[], at: number[]): number[] {
  const keys = Array.from(records, (record) => (record === undefined ? "" : nameSortKey(record.name)));
  return at.sort((a, b) => {
    const p = keys[a] as string;
    const q = keys[b] as string;
    // The records are read only on a tie of keys: most comparisons never touch them.
    if (p !== q) return p < q ? -1 : 1;
    const x = records[a] as DrillableRecord;
    const y = records[b] as DrillableRecord;
    return compareStrings(x.name, y.name) || compareStrings(x.id, y.id);
  });
}
