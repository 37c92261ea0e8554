/**
 * Builds the packed posting lists of a whole dataset at once (see {@link PostingLists}).
 */
import type { PostingLists } from "./posting-lists.js";
import { ANY_FIELD, LIST_KINDS } from "./posting-lists.js";
import { fieldTexts, tokenize } from "./text-tokens.js";
import type { DrillableRecord, SearchField } from "./types.js";
import { SEARCH_FIELDS } from "./types.js";

/** Fields whose texts repeat across drills (items, tags, subjects), so their token numbers are memoized. */
const REPEATING_FIELDS: ReadonlySet<SearchField> = new Set<SearchField>(["SUBJECT", "TAGS", "CONTENTS"]);

/**
 * Two passes over the documents. `add` counts each list's documents; `finish` allocates one array for
 * all lists at their exact sizes and fills it, document by document, so every list comes out sorted.
 * The second pass gets the token numbers of repeating texts from the memo of the first, and those of
 * names and descriptions (mostly unique, so not worth memoizing) from a log the first pass wrote; no
 * text is tokenized twice, and no list is ever grown (growing a million arrays left their outgrown
 * copies behind as garbage, which set the process's peak memory).
 */
export class PostingBuilder {
  readonly #lists: PostingLists;
  readonly #memo = new Map<string, Int32Array>();
  /** Per slot (`nr * LIST_KINDS + kind`): documents counted, and the last document counted. */
  #count: Int32Array = new Int32Array(0);
  #last: Int32Array = new Int32Array(0);
  /** Name and description slots, once per document each, in document order; document d's end at `#docEnds[d]`. */
  #log: Int32Array = new Int32Array(1 << 16);
  #logLength = 0;
  #docEnds: Int32Array = new Int32Array(1024);

  constructor(lists: PostingLists) {
    this.#lists = lists;
  }

  /** Counts a document's tokens; documents must come numbered 0, 1, 2, … */
  add(record: DrillableRecord, docNr: number): void {
    for (let kind = 0; kind < SEARCH_FIELDS.length; kind++) {
      const field = SEARCH_FIELDS[kind] as SearchField;
      if (REPEATING_FIELDS.has(field)) {
        for (const text of fieldTexts(record, field)) {
          const numbers = this.#numbersOf(text);
          for (let k = 0; k < numbers.length; k++)
            this.#count2((numbers[k] as number) * LIST_KINDS, kind, docNr);
        }
      } else {
        for (const text of fieldTexts(record, field)) {
          for (const token of tokenize(text)) {
            const base = this.#numberOf(token) * LIST_KINDS;
            if (this.#last[base + kind] !== docNr) this.#append(base + kind);
            this.#count2(base, kind, docNr);
          }
        }
      }
    }
    if (docNr >= this.#docEnds.length) this.#docEnds = grown(this.#docEnds, docNr + 1);
    this.#docEnds[docNr] = this.#logLength;
  }

  /** Packs every list into the storage; `records[d]` must be the document added as number d. */
  finish(records: readonly DrillableRecord[]): void {
    const slots = this.#lists.tokenCount * LIST_KINDS;
    const offsets = new Int32Array(slots + 1);
    for (let slot = 0; slot < slots; slot++)
      offsets[slot + 1] = (offsets[slot] as number) + (this.#count[slot] as number);
    const packed = new Int32Array(offsets[slots] as number);
    // From here on `#count` holds each list's next free position.
    const next = this.#count;
    next.set(offsets.subarray(0, slots));
    const last = this.#last.fill(-1);
    const place = (slot: number, docNr: number) => {
      if (last[slot] === docNr) return;
      last[slot] = docNr;
      // Not `packed[(next[slot] as number)++]`: Stryker's instrumented copy of that form does not parse.
      const position = next[slot] as number;
      packed[position] = docNr;
      next[slot] = position + 1;
    };
    let at = 0;
    records.forEach((record, docNr) => {
      for (let kind = 0; kind < SEARCH_FIELDS.length; kind++) {
        const field = SEARCH_FIELDS[kind] as SearchField;
        if (!REPEATING_FIELDS.has(field)) continue;
        for (const text of fieldTexts(record, field)) {
          const numbers = this.#memo.get(text) as Int32Array;
          for (let k = 0; k < numbers.length; k++) {
            const base = (numbers[k] as number) * LIST_KINDS;
            place(base + kind, docNr);
            place(base + ANY_FIELD, docNr);
          }
        }
      }
      for (const end = this.#docEnds[docNr] as number; at < end; at++) {
        const slot = this.#log[at] as number;
        place(slot, docNr);
        place(slot - (slot % LIST_KINDS) + ANY_FIELD, docNr);
      }
    });
    this.#lists.pack(offsets, packed);
    this.#memo.clear();
    this.#log = new Int32Array(0);
    this.#count = new Int32Array(0);
    this.#last = new Int32Array(0);
  }

  /** Counts the document once in the token's list of this kind and in its any-field list. */
  #count2(base: number, kind: number, docNr: number): void {
    this.#countOnce(base + kind, docNr);
    this.#countOnce(base + ANY_FIELD, docNr);
  }

  #countOnce(slot: number, docNr: number): void {
    if (this.#last[slot] === docNr) return;
    this.#last[slot] = docNr;
    this.#count[slot] = (this.#count[slot] as number) + 1;
  }

  #append(slot: number): void {
    if (this.#logLength === this.#log.length) this.#log = grown(this.#log, this.#logLength + 1);
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
    const nr = this.#lists.numberOf(token);
    const slots = (nr + 1) * LIST_KINDS;
    if (slots > this.#count.length) {
      this.#count = grown(this.#count, slots);
      this.#last = grown(this.#last, slots, -1);
    }
    return nr;
  }
}

/** A copy of `array` with room for at least `length` entries (twice as many), new ones set to `fill`. */
function grown(array: Int32Array, length: number, fill = 0): Int32Array {
  const copy = new Int32Array(Math.max(1024, length * 2));
  if (fill !== 0) copy.fill(fill, array.length);
  copy.set(array);
  return copy;
}
