/**
 * Storage of the search index's posting lists: for each token and each list kind (one per search
 * field, then "any field"), the ascending document numbers that hold the token there.
 */
import type { SearchField } from "./types.js";
import { SEARCH_FIELDS } from "./types.js";

/**
 * List kinds per token: one per search field (in {@link SEARCH_FIELDS} order), then the any-field list.
 */
export const LIST_KINDS = SEARCH_FIELDS.length + 1;

/**
 * Kind of the list of documents that hold a token in any field.
 */
export const ANY_FIELD = SEARCH_FIELDS.length;

/**
 * List kind of a search field.
 */
export function fieldKind(field: SearchField): number {
  return SEARCH_FIELDS.indexOf(field);
}

const EMPTY: ArrayLike<number> = new Int32Array(0);

/**
 * Union of two ascending lists of document numbers, without duplicates.
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

/**
 * Every token gets a number; the list of token `nr` and kind `kind` is slot `nr * LIST_KINDS + kind`.
 * The lists of the initial dataset are packed into one `Int32Array` with an offset per slot (a few
 * bytes per entry and no object per list: at 100,000 drills most of a million lists hold one or two
 * documents). A list that changes afterwards is copied out into a plain array, which then replaces
 * its packed version. The any-field lists are not packed: each is the union of the token's field
 * lists, made the first time it is asked for and kept with the changed ones (the index keeps it
 * current from then on). Packed, they were 45 % of the entries (3.7 million of 8.1 million on the
 * bench's 100,000 drills), for tokens most of which no search ever names.
 */
export class PostingLists {
  #numbers = new Map<string, number>();
  #tokens = 0;
  /** Packed lists: slot `s` is `#packed[#offsets[s] .. #offsets[s + 1])`; slots past the end are empty. */
  #offsets: Int32Array = new Int32Array(1);
  #packed: Int32Array = new Int32Array(0);
  /** Lists changed since they were packed, or added since; these take the packed ones' place. */
  readonly #changed = new Map<number, number[]>();

  /** How many distinct tokens have numbers. */
  get tokenCount(): number {
    return this.#tokens;
  }

  /** The token's number, giving it the next one if it has none. */
  numberOf(token: string): number {
    let nr = this.#numbers.get(token);
    if (nr === undefined) {
      nr = this.#tokens++;
      this.#numbers.set(token, nr);
    }
    return nr;
  }

  /**
   * Ascending document numbers of the token's list of this kind. The returned list belongs to the
   * storage: do not modify it.
   */
  list(token: string, kind: number): ArrayLike<number> {
    const nr = this.#numbers.get(token);
    return nr === undefined ? EMPTY : this.#list(nr * LIST_KINDS + kind);
  }

  /** The token's list of this kind as a plain array that may be changed (kept sorted by the caller). */
  mutable(nr: number, kind: number): number[] {
    const slot = nr * LIST_KINDS + kind;
    let list = this.#changed.get(slot);
    if (list === undefined) {
      list = Array.from(this.#list(slot));
      this.#changed.set(slot, list);
    }
    return list;
  }

  /**
   * An independent copy: the packed lists are shared (nothing writes into them), the changed ones
   * and the token numbers are copied.
   */
  clone(): PostingLists {
    const copy = new PostingLists();
    copy.#numbers = new Map(this.#numbers);
    copy.#tokens = this.#tokens;
    copy.#offsets = this.#offsets;
    copy.#packed = this.#packed;
    for (const [slot, list] of this.#changed) copy.#changed.set(slot, list.slice());
    return copy;
  }

  /**
   * Replaces every list with packed ones: slot `s` gets `packed[offsets[s] .. offsets[s + 1])`.
   * Meant for the initial build, before any list has changed.
   */
  pack(offsets: Int32Array, packed: Int32Array): void {
    this.#offsets = offsets;
    this.#packed = packed;
    this.#changed.clear();
  }

  #list(slot: number): ArrayLike<number> {
    const changed = this.#changed.get(slot);
    if (changed !== undefined) return changed;
    if (slot % LIST_KINDS === ANY_FIELD) return this.#anyField(slot);
    if (slot + 1 >= this.#offsets.length) return EMPTY;
    return this.#packed.subarray(this.#offsets[slot], this.#offsets[slot + 1]);
  }

  /** The any-field list of a slot with none kept yet: the union of the token's field lists, kept. */
  #anyField(slot: number): ArrayLike<number> {
    const first = slot - ANY_FIELD;
    let union: number[] = [];
    for (let kind = 0; kind < ANY_FIELD; kind++) union = unionSorted(union, this.#list(first + kind));
    if (union.length === 0) return EMPTY;
    this.#changed.set(slot, union);
    return union;
  }
}
