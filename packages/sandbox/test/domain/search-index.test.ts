/**
 * The index's posting lists against a brute-force scan of the records they should describe, after
 * the bulk build and after changes on top of it (which copy packed lists out before changing them).
 */
import { describe, expect, it } from "vitest";
import { generateLargeDataset } from "../../scripts/dataset/large-dataset.js";
import { SearchIndex } from "../../src/domain/search-index.js";
import { fieldTexts, tokenize } from "../../src/domain/text-tokens.js";
import type { Course, Drill, DrillableRecord } from "../../src/domain/types.js";
import { SEARCH_FIELDS } from "../../src/domain/types.js";

/** Per record, the tokens of each search field, worked out from the texts. */
function fieldTokens(records: Iterable<DrillableRecord>): Map<string, Set<string>[]> {
  const out = new Map<string, Set<string>[]>();
  for (const record of records) {
    out.set(
      record.id,
      SEARCH_FIELDS.map((field) => new Set(fieldTexts(record, field).flatMap((text) => tokenize(text)))),
    );
  }
  return out;
}

/** IDs behind a posting list, after checking that it ascends without repeats. */
function indexed(index: SearchIndex, list: ArrayLike<number>): string[] {
  const docs = Array.from(list);
  expect(docs).toEqual([...new Set(docs)].sort((a, b) => a - b));
  return docs.map((doc) => index.record(doc)?.id ?? `(no record at ${doc})`).sort();
}

/** Every list of the tokens, as `field token → IDs`, from the index and from a scan of the records. */
function expectListsOf(index: SearchIndex, records: Map<string, DrillableRecord>, tokens: Iterable<string>) {
  const scan = fieldTokens(records.values());
  const expected: Record<string, string[]> = {};
  const actual: Record<string, string[]> = {};
  for (const token of tokens) {
    const holders = (kind?: number) =>
      [...scan]
        .filter(([, sets]) => (kind === undefined ? sets : [sets[kind]]).some((set) => set?.has(token)))
        .map(([id]) => id)
        .sort();
    expected[`any ${token}`] = holders();
    actual[`any ${token}`] = indexed(index, index.postingAnyField(token));
    SEARCH_FIELDS.forEach((field, kind) => {
      expected[`${field} ${token}`] = holders(kind);
      actual[`${field} ${token}`] = indexed(index, index.posting(field, token));
    });
  }
  expect(actual).toEqual(expected);
}

function tokensOf(records: Iterable<DrillableRecord>): Set<string> {
  const tokens = new Set<string>();
  for (const record of records) {
    for (const field of SEARCH_FIELDS) {
      for (const text of fieldTexts(record, field)) for (const token of tokenize(text)) tokens.add(token);
    }
  }
  return tokens;
}

describe("SearchIndex posting lists", () => {
  const drills = generateLargeDataset(120).drills;
  const course: Course = {
    id: "course-1",
    type: "COURSE",
    name: "All the Spanish sets",
    subject: "Spanish",
    description: "Every set, in one course",
    tags: ["spanish", "course"],
    inStore: true,
    drillIds: drills.slice(0, 3).map((d) => d.id),
  };

  it("hold exactly the documents whose fields hold each token after the bulk build", () => {
    const records = new Map<string, DrillableRecord>([...drills, course].map((r) => [r.id, r]));
    const index = SearchIndex.build(records.values());
    expect(index.size).toBe(records.size);
    expectListsOf(index, records, [...tokensOf(records.values()), "absent-token"]);
  });

  it("stay exact through replacements, removals and additions after the build", () => {
    const records = new Map<string, DrillableRecord>([...drills, course].map((r) => [r.id, r]));
    const index = SearchIndex.build(records.values());
    const before = tokensOf(records.values());
    const first = drills[0] as Drill;
    const changes: DrillableRecord[] = [
      // Renamed, with a new tag and without its first item.
      { ...first, name: "Brand new title 42", tags: [...first.tags, "fresh"], items: first.items.slice(1) },
      // A new drill sharing tokens with many packed lists.
      { ...(drills[1] as Drill), id: "new-drill", description: "spanish words and the numbers" },
      { ...course, name: "Renamed course", drillIds: [] },
    ];
    for (const change of changes) {
      index.upsert(change);
      records.set(change.id, change);
    }
    for (const id of [(drills[2] as Drill).id, (drills[3] as Drill).id, "new-drill"]) {
      expect(index.remove(id)).toBe(true);
      records.delete(id);
    }
    expect(index.remove("new-drill")).toBe(false);
    // The removed ID comes back as a new document.
    index.upsert(drills[2] as Drill);
    records.set((drills[2] as Drill).id, drills[2] as Drill);
    expect(index.size).toBe(records.size);
    expectListsOf(index, records, new Set([...before, ...tokensOf(records.values())]));
  });

  it("keep the last version of a repeated ID given to the build", () => {
    const first = drills[0] as Drill;
    const again: Drill = { ...first, name: "Second version", tags: ["only-tag"] };
    const index = SearchIndex.build([first, drills[1] as Drill, again]);
    const records = new Map<string, DrillableRecord>([
      [again.id, again],
      [(drills[1] as Drill).id, drills[1] as Drill],
    ]);
    expect(index.size).toBe(2);
    expectListsOf(index, records, tokensOf([first, ...records.values()]));
  });
});
