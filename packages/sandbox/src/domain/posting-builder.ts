/**
 * Builds the packed posting lists of a whole dataset at once (see {@link PostingLists}).
 */
import type { PostingLists } from "./posting-lists.js";
import { LIST_KINDS } from "./posting-lists.js";
import { fieldTexts, tokenize } from "./text-tokens.js";
import type { DrillableRecord, SearchField } from "./types.js";
import { SEARCH_FIELDS } from "./types.js";

/** Fields whose texts repeat across drills (items, tags, subjects), so their token numbers are memoized. */
const REPEATING_FIELDS: ReadonlySet<SearchField> = new Set<SearchField>(["SUBJECT", "TAGS", "CONTENTS"]);

/** Entries per chunk of the slot log: 2^18 (1 MB). */
const LOG_CHUNK_BITS = 18;
const LOG_CHUNK = 1 << LOG_CHUNK_BITS;

/**
 * Two passes. `add` numbers each document's tokens, counts each list's documents and logs the
 * document's list slots (each once) in one flat log; `finish` allocates one array for all lists at
 * their exact sizes and fills it from the log alone, so every list comes out sorted. No text is read
 * or tokenized twice, no map is consulted in the second pass, and no list is ever grown (growing a
 * million arrays left their outgrown copies behind as garbage, which set the process's peak memory).
 * Repeating texts (items, tags, subjects) have their token numbers memoized.
 */
export class PostingBuilder {
  readonly #lists: PostingLists;
  readonly #memo = new Map<string, Int32Array>();
  /** Per slot (`nr * LIST_KINDS + kind`): documents counted, and the last document counted. */
  #count: Int32Array = new Int32Array(0);
  #last: Int32Array = new Int32Array(0);
  /**
   * The field slots of each document, each once, in document order; document d's end at `#docEnds[d]`.
   * Kept in fixed-size chunks, not one array grown by doubling, whose outgrown copies (tens of MB at
   * 100,000 drills) stayed in the process's memory until a collection.
   */
  #log: Int32Array[] = [new Int32Array(LOG_CHUNK)];
  #logLength = 0;
  #docEnds: Int32Array = new Int32Array(1024);

  constructor(lists: PostingLists) {
    this.#lists = lists;
  }

  /** Counts and logs a document's tokens; documents must come numbered 0, 1, 2, … */
  add(record: DrillableRecord, docNr: number): void {
    for (let kind = 0; kind < SEARCH_FIELDS.length; kind++) {
      const field = SEARCH_FIELDS[kind] as SearchField;
      const texts = fieldTexts(record, field);
      for (let t = 0; t < texts.length; t++) {
        const text = texts[t] as string;
        if (REPEATING_FIELDS.has(field)) {
          const numbers = this.#numbersOf(text);
          for (let k = 0; k < numbers.length; k++)
            this.#note((numbers[k] as number) * LIST_KINDS, kind, docNr);
        } else {
          const tokens = tokenize(text);
          for (let k = 0; k < tokens.length; k++)
            this.#note(this.#numberOf(tokens[k] as string) * LIST_KINDS, kind, docNr);
        }
      }
    }
    if (docNr >= this.#docEnds.length) this.#docEnds = grown(this.#docEnds, docNr + 1);
    this.#docEnds[docNr] = this.#logLength;
  }

  /** Packs every list into the storage; `documents` is how many were added. */
  finish(documents: number): void {
    const slots = this.#lists.tokenCount * LIST_KINDS;
    const offsets = new Int32Array(slots + 1);
    for (let slot = 0; slot < slots; slot++)
      offsets[slot + 1] = (offsets[slot] as number) + (this.#count[slot] as number);
    const packed = new Int32Array(offsets[slots] as number);
    // From here on `#count` holds each list's next free position.
    const next = this.#count;
    next.set(offsets.subarray(0, slots));
    let at = 0;
    for (let docNr = 0; docNr < documents; docNr++) {
      for (const end = this.#docEnds[docNr] as number; at < end; at++) {
        // A field slot is logged once per document (any-field lists are not packed, see PostingLists).
        const slot = (this.#log[at >>> LOG_CHUNK_BITS] as Int32Array)[at & (LOG_CHUNK - 1)] as number;
        const position = next[slot] as number;
        packed[position] = docNr;
        next[slot] = position + 1;
      }
    }
    this.#lists.pack(offsets, packed);
    this.#memo.clear();
    this.#log = [];
    this.#count = new Int32Array(0);
    this.#last = new Int32Array(0);
  }

  /** Counts the document once in the token's list of this kind, logging the slot. */
  #note(base: number, kind: number, docNr: number): void {
    const slot = base + kind;
    if (this.#last[slot] === docNr) return;
    this.#last[slot] = docNr;
    this.#count[slot] = (this.#count[slot] as number) + 1;
    const at = this.#logLength++;
    let chunk = this.#log[at >>> LOG_CHUNK_BITS];
    if (chunk === undefined) {
      chunk = new Int32Array(LOG_CHUNK);
      this.#log.push(chunk);
    }
    chunk[at & (LOG_CHUNK - 1)] = slot;
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
