/**
 * Search text: how field texts are folded and cut into tokens, for the index and for queries alike.
 */
import type { DrillableRecord, SearchField } from "./types.js";

const ASCII_ONLY = /^[\x20-\x7e]*$/;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Folds text for matching: compatibility decomposition, combining marks removed, lower case. So
 * `Café`, `CAFE` and `café` fold alike, and `Ærø` folds to `ærø` (letters that are not composed of a base
 * letter plus a mark are kept).
 */
export function foldText(text: string): string {
  // Most drill text is plain ASCII; skipping normalize() there roughly halves indexing time.
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/**
 * Splits text into search tokens: folded (see {@link foldText}), cut at every character that is not a
 * letter or digit in any script. Empty pieces are dropped; duplicates are kept.
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
