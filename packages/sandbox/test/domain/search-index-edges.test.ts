/**
 * Edge cases of the search index's building blocks, with expectations read off small inputs: merging
 * sorted document lists, cutting text into tokens, and posting lists and name order after drills are
 * added, changed and removed.
 */
import { describe, expect, it } from "vitest";
import { unionSorted } from "../../src/domain/posting-lists.js";
import { intersectSorted, SearchIndex } from "../../src/domain/search-index.js";
import { fieldTexts, foldText, tokenize } from "../../src/domain/text-tokens.js";
import type { Course } from "../../src/domain/types.js";
import { drill } from "../support/domain-data.js";

const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((to - from) / step) }, (_, i) => from + i * step);

describe("intersectSorted", () => {
  it("keeps the common documents of short lists, in order, whichever comes first", () => {
    const cases: [number[], number[], number[]][] = [
      [[], [], []],
      [[], [1, 2], []],
      [[1, 2], [], []],
      [
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, 3],
      ],
      [[1, 3, 5], [2, 4, 6], []],
      [
        [0, 5, 9],
        [0, 9],
        [0, 9],
      ],
      [[1, 2, 3, 4], [4, 5], [4]],
      [[7], [1, 2, 7], [7]],
    ];
    for (const [a, b, common] of cases) {
      expect([...intersectSorted(a, b)], `${a} & ${b}`).toEqual(common);
      expect([...intersectSorted(b, a)], `${b} & ${a}`).toEqual(common);
    }
  });

  it("finds a few documents in a list more than sixteen times longer", () => {
    const long = range(0, 400, 2); // 200 even numbers
    expect([...intersectSorted([0, 3, 198, 398, 399], long)]).toEqual([0, 198, 398]);
    expect([...intersectSorted(long, [1, 399])]).toEqual([]);
    expect([...intersectSorted(long, [398])]).toEqual([398]);
    expect([...intersectSorted([-1, 0], long)]).toEqual([0]);
    // Past the long list's end: nothing more is found.
    expect([...intersectSorted([396, 500, 600], long)]).toEqual([396]);
    expect([...intersectSorted(Int32Array.of(2, 4, 500), Int32Array.from(long))]).toEqual([2, 4]);
  });

  it("finds documents far apart in a much longer list, whatever the gaps between them", () => {
    const long = range(0, 10_000); // every document up to 9,999
    const picks = [1, 2, 3, 70, 71, 1_000, 4_095, 4_096, 9_998, 9_999];
    expect([...intersectSorted(picks, long)]).toEqual(picks);
    expect([...intersectSorted(long, [...picks, 10_000, 20_000])]).toEqual(picks);
    // From document 0, every distance: some land exactly on the end of a galloping step (1, 3, 7, …).
    for (let distance = 1; distance <= 300; distance++) {
      expect([...intersectSorted([0, distance], long)], `0 and ${distance}`).toEqual([0, distance]);
    }
    const odd = long.filter((n) => n % 2 === 1);
    expect([...intersectSorted(odd, [0, 2, 4_095, 4_096, 9_999])]).toEqual([4_095, 9_999]);
  });

  it("forgets the documents of one intersection of similar lists before the next", () => {
    const upTo200 = range(0, 200);
    const evens = upTo200.filter((n) => n % 2 === 0);
    const odds = upTo200.filter((n) => n % 2 === 1);
    const multiplesOfThree = upTo200.filter((n) => n % 3 === 0);
    expect([...intersectSorted(evens, multiplesOfThree)]).toEqual(upTo200.filter((n) => n % 6 === 0));
    // Nothing of the first intersection may carry over into the next.
    expect([...intersectSorted(odds, multiplesOfThree)]).toEqual(upTo200.filter((n) => n % 6 === 3));
    expect([...intersectSorted(range(0, 50), range(100, 160))]).toEqual([]);
  });

  it("walks lists of like length to the end of either, wherever they start and stop", () => {
    // The longer list ends first: the rest of the shorter one cannot match.
    expect([...intersectSorted([1, 5, 9, 20], [0, 1, 2, 5, 6])]).toEqual([1, 5]);
    // The shorter list starts before and ends after the longer one.
    expect([...intersectSorted([0, 7, 8, 1_000_000], [3, 7, 8, 9, 10])]).toEqual([7, 8]);
    expect([...intersectSorted([4, 1_000_001], [1, 2, 3, 4, 1_000_001])]).toEqual([4, 1_000_001]);
  });
});

describe("unionSorted", () => {
  it("merges without repeats, in order, whichever comes first", () => {
    const cases: [number[], number[], number[]][] = [
      [[], [], []],
      [[], [1, 2], [1, 2]],
      [[3], [], [3]],
      [
        [1, 2],
        [1, 2],
        [1, 2],
      ],
      [
        [1, 3, 5],
        [2, 4, 6],
        [1, 2, 3, 4, 5, 6],
      ],
      [
        [1, 2],
        [3, 4, 5],
        [1, 2, 3, 4, 5],
      ],
      [
        [0, 9],
        [1, 2, 9, 10, 11],
        [0, 1, 2, 9, 10, 11],
      ],
    ];
    for (const [a, b, all] of cases) {
      expect(unionSorted(a, b), `${a} | ${b}`).toEqual(all);
      expect(unionSorted(b, a), `${b} | ${a}`).toEqual(all);
    }
  });

  it("gives a plain array of its own, also for an empty side", () => {
    const list = Int32Array.of(1, 2);
    const merged = unionSorted(list, []);
    expect(merged).toEqual([1, 2]);
    merged.push(3);
    expect([...list]).toEqual([1, 2]);
    expect(unionSorted([], Int32Array.of(4))).toEqual([4]);
  });
});

describe("foldText and tokenize", () => {
  // tokenize folds case and accents and cuts at every character that is neither letter nor digit,
  // in any script.
  it.each<[string, string[]]>([
    ["Rock'n'Roll — São Paulo, 1969", ["rock", "n", "roll", "sao", "paulo", "1969"]],
    ["CAFÉ café Cafe", ["cafe", "cafe", "cafe"]],
    ["Größe Ærø", ["große", "ærø"]],
    ["日本語 テスト", ["日本語", "テスト"]],
    [" -- ", []],
    ["a_b-c.d/e+f", ["a", "b", "c", "d", "e", "f"]],
    ["3.14 ×2", ["3", "14", "2"]],
    ["«Ελλάδα»—Россия", ["ελλαδα", "россия"]],
    ["word  word", ["word", "word"]],
    ["", []],
    ["...", []],
    ["x", ["x"]],
  ])("tokenize(%j) gives %j", (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it("fold compatibility forms, marks and case", () => {
    expect(foldText("ﬁne Ｃａｆé ①")).toBe("fine cafe 1");
    expect(foldText("ÀÉÎÕÜ Ç")).toBe("aeiou c");
    expect(foldText("PLAIN ascii, kept!")).toBe("plain ascii, kept!");
    expect(foldText("Tab\there")).toBe("tab\there");
  });

  it("give a drill's items as contents, and a course none", () => {
    const d = drill(
      "d",
      "N",
      "S",
      "D",
      ["t1", "t2"],
      [
        ["ask 1", "tell 1"],
        ["ask 2", "tell 2"],
      ],
    );
    expect(fieldTexts(d, "CONTENTS")).toEqual(["ask 1", "tell 1", "ask 2", "tell 2"]);
    expect(fieldTexts(d, "TAGS")).toEqual(["t1", "t2"]);
    expect(fieldTexts(d, "NAME")).toEqual(["N"]);
    expect(fieldTexts(d, "SUBJECT")).toEqual(["S"]);
    expect(fieldTexts(d, "DESCRIPTION")).toEqual(["D"]);
    const course: Course = {
      id: "c",
      type: "COURSE",
      name: "C",
      subject: "S",
      description: "D",
      tags: [],
      inStore: true,
      drillIds: ["d"],
    };
    expect(fieldTexts(course, "CONTENTS")).toEqual([]);
  });
});

describe("SearchIndex after changes", () => {
  // Given in this order; the build numbers them in name order: apple 0, banana 1, cherry 2, date 3.
  const records = () => [
    drill("d-cherry", "Cherry", "Fruit", "Red", ["tree"], [["x", "y"]]),
    drill("d-apple", "apple", "Fruit", "Green", ["tree", "common"], [["x", "z"]]),
    drill("d-date", "Date", "Fruit", "Brown", ["palm"], [["y", "z"]], false),
    drill("d-banana", "Banana", "Fruit", "Yellow", ["plant", "common"], [["x", "x"]]),
  ];
  const ids = (index: SearchIndex, list: ArrayLike<number>) =>
    Array.from(list, (doc) => index.record(doc)?.id);
  const inNameOrder = (index: SearchIndex) =>
    range(0, index.size).map((rank) => index.record(index.docAtRank(rank))?.id);

  it("lists documents once and in number order, also a token repeated in a field", () => {
    const index = SearchIndex.build(records());
    expect(Array.from(index.postingAnyField("x"))).toEqual([0, 1, 2]);
    expect(ids(index, index.postingAnyField("x"))).toEqual(["d-apple", "d-banana", "d-cherry"]);
    expect(ids(index, index.posting("CONTENTS", "x"))).toEqual(["d-apple", "d-banana", "d-cherry"]);
    expect(ids(index, index.posting("TAGS", "common"))).toEqual(["d-apple", "d-banana"]);
    expect(ids(index, index.postingAnyField("fruit"))).toEqual(["d-apple", "d-banana", "d-cherry", "d-date"]);
    expect(ids(index, index.posting("NAME", "fruit"))).toEqual([]);
    expect(ids(index, index.postingAnyField("nowhere"))).toEqual([]);
    expect(index.size).toBe(4);
    expect(index.capacity).toBe(4);
    expect([...index.inStoreFlags().subarray(0, 4)]).toEqual([1, 1, 1, 0]);
  });

  it("numbers documents in name order, names folded, whatever order they come in", () => {
    const index = SearchIndex.build(records());
    expect(inNameOrder(index)).toEqual(["d-apple", "d-banana", "d-cherry", "d-date"]);
    expect([...index.nameRanks()]).toEqual([0, 1, 2, 3]);
    expect(index.ranksFollowDocNumbers()).toBe(true);
    expect(index.docAtRank(4)).toBe(-1);
    expect(index.nameRank(9)).toBe(Number.MAX_SAFE_INTEGER);
    expect(SearchIndex.build(records().reverse()).docNumber("d-apple")).toBe(0);
  });

  it("gives a document added out of name order its place and back, and says the orders part", () => {
    const index = SearchIndex.build(records());
    // Sorts last: document order is still name order.
    index.upsert(drill("d-fig", "Fig", "Fruit", "Purple", ["tree"], [["x", "y"]]));
    expect(index.ranksFollowDocNumbers()).toBe(true);
    // Document 5, second in name order.
    index.upsert(drill("d-avocado", "Avocado", "Fruit", "Green", ["tree"], [["x", "y"]]));
    expect(index.ranksFollowDocNumbers()).toBe(false);
    expect([...index.nameRanks()]).toEqual([0, 2, 3, 4, 5, 1]);
    for (let doc = 0; doc < 6; doc++) expect(index.docAtRank(index.nameRank(doc))).toBe(doc);
    expect(inNameOrder(index)).toEqual(["d-apple", "d-avocado", "d-banana", "d-cherry", "d-date", "d-fig"]);
    // Renamed to sort last again, it restores the agreement.
    index.upsert(drill("d-avocado", "Yam", "Fruit", "Green", ["tree"], [["x", "y"]]));
    expect(index.ranksFollowDocNumbers()).toBe(true);
  });

  it("inserts a changed early document into the middle of a list and drops it from lists it left", () => {
    const index = SearchIndex.build(records());
    // d-banana (document 1) gains "tree" and "y" and loses "plant" and "x".
    index.upsert(drill("d-banana", "Banana", "Fruit", "Yellow", ["tree", "common"], [["q", "y"]]));
    expect(ids(index, index.posting("TAGS", "tree"))).toEqual(["d-apple", "d-banana", "d-cherry"]);
    expect(ids(index, index.postingAnyField("y"))).toEqual(["d-banana", "d-cherry", "d-date"]);
    expect(ids(index, index.posting("TAGS", "plant"))).toEqual([]);
    expect(ids(index, index.postingAnyField("x"))).toEqual(["d-apple", "d-cherry"]);
    // Unchanged tokens keep it, once.
    expect(ids(index, index.posting("TAGS", "common"))).toEqual(["d-apple", "d-banana"]);
    // Changing the same document again, back to its first version.
    index.upsert(records()[3] as ReturnType<typeof drill>);
    expect(ids(index, index.posting("TAGS", "tree"))).toEqual(["d-apple", "d-cherry"]);
    expect(ids(index, index.postingAnyField("x"))).toEqual(["d-apple", "d-banana", "d-cherry"]);
    expect(index.size).toBe(4);
  });

  it("moves a token between fields of the same document", () => {
    const index = SearchIndex.build(records());
    // "palm" leaves d-date's tags and enters its name: still in the any-field list, once.
    index.upsert(drill("d-date", "Date palm", "Fruit", "Brown", ["desert"], [["y", "z"]], true));
    expect(ids(index, index.posting("TAGS", "palm"))).toEqual([]);
    expect(ids(index, index.posting("NAME", "palm"))).toEqual(["d-date"]);
    expect(ids(index, index.postingAnyField("palm"))).toEqual(["d-date"]);
    expect(index.inStoreFlags()[3]).toBe(1);
  });

  it("follows renames in name order, and forgets removed documents", () => {
    const index = SearchIndex.build(records());
    index.upsert(drill("d-apple", "Zucchini", "Vegetable", "Green", ["plant"], [["x", "z"]]));
    expect(inNameOrder(index)).toEqual(["d-banana", "d-cherry", "d-date", "d-apple"]);
    expect(index.remove("d-banana")).toBe(true);
    expect(index.remove("d-banana")).toBe(false);
    expect(index.size).toBe(3);
    expect(index.record(1)).toBeUndefined();
    expect(index.docNumber("d-banana")).toBeUndefined();
    expect(index.nameRank(1)).toBe(-1);
    expect(inNameOrder(index)).toEqual(["d-cherry", "d-date", "d-apple"]);
    expect(ids(index, index.posting("TAGS", "plant"))).toEqual(["d-apple"]);
    expect(ids(index, index.postingAnyField("yellow"))).toEqual([]);
    // Added again, it gets a new number, after every earlier one.
    index.upsert(drill("d-banana", "Banana", "Fruit", "Yellow", ["plant"], [["x", "x"]]));
    expect(index.docNumber("d-banana")).toBe(4);
    expect(index.capacity).toBe(5);
    expect(ids(index, index.posting("TAGS", "plant"))).toEqual(["d-apple", "d-banana"]);
    expect(inNameOrder(index)).toEqual(["d-banana", "d-cherry", "d-date", "d-apple"]);
  });

  it("gives the live documents of a list of IDs, ascending, once each, and again after a change", () => {
    const index = SearchIndex.build(records());
    const ids = ["d-date", "nowhere", "d-apple", "d-date", "d-banana"];
    expect([...index.docNumbersOf(ids)]).toEqual([0, 1, 3]);
    index.remove("d-apple");
    expect([...index.docNumbersOf(ids)]).toEqual([1, 3]);
    index.upsert(drill("d-apple", "Apple", "Fruit", "Green", ["tree"], [["x", "z"]]));
    expect([...index.docNumbersOf(ids)]).toEqual([1, 3, 4]);
    expect([...index.docNumbersOf([])]).toEqual([]);
  });

  it("forgets a remembered list of IDs after any change, an addition and a removal in a row included", () => {
    const index = SearchIndex.build(records());
    const ids = ["d-date", "d-apple", "d-banana"];
    expect([...index.docNumbersOf(ids)]).toEqual([0, 1, 3]);
    index.upsert(drill("d-fig", "Fig", "Fruit", "Purple", ["tree"], [["x", "y"]]));
    expect(index.remove("d-date")).toBe(true);
    expect([...index.docNumbersOf(ids)]).toEqual([0, 1]);
  });

  it("gives fresh name ranks right after a change, whichever question comes first", () => {
    const index = SearchIndex.build(records());
    index.upsert(drill("d-avocado", "Avocado", "Fruit", "Green", ["tree"], [["x", "y"]]));
    expect([...index.nameRanks()]).toEqual([0, 2, 3, 4, 1]);
    index.upsert(drill("d-apple", "Zucchini", "Vegetable", "Green", ["plant"], [["x", "z"]]));
    expect(index.nameRank(0)).toBe(4);
    index.remove("d-banana");
    expect(index.docAtRank(1)).toBe(2);
  });

  it("grows its store flags for documents added after the build", () => {
    const index = SearchIndex.build([]);
    for (let i = 0; i < 40; i++)
      index.upsert(drill(`n-${i}`, `N ${i}`, "S", "D", ["t"], [["a", "b"]], i % 3 === 0));
    const flags = index.inStoreFlags();
    expect(range(0, 40).map((doc) => flags[doc])).toEqual(range(0, 40).map((i) => (i % 3 === 0 ? 1 : 0)));
    expect(index.postingAnyField("t").length).toBe(40);
  });
});
