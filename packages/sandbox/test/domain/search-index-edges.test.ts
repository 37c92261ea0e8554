/**
 * Edge cases of the search index's building blocks, with expectations read off small inputs: merging
 * sorted document lists, cutting text into tokens, and posting lists and name order after drills are
 * added, changed and removed.
 */
import { describe, expect, it } from "vitest";
import { intersectSorted, SearchIndex, unionSorted } from "../../src/domain/search-index.js";
import { fieldTexts, foldText, tokenize } from "../../src/domain/text-tokens.js";
import type { Course } from "../../src/domain/types.js";
import { drill } from "./fixture.js";

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
    // The evens were the longer list above; none of them may count as present now.
    expect([...intersectSorted(odds, multiplesOfThree)]).toEqual(upTo200.filter((n) => n % 6 === 3));
    expect([...intersectSorted(range(0, 50), range(100, 160))]).toEqual([]);
  });

  it("finds a document numbered exactly as high as the marks reach after they last grew", () => {
    // Marks for documents up to 1,000,000 leave room for 1,250,001 of them (a quarter more): numbers
    // 0 to 1,250,000. Document 1,250,001 needs them to grow again.
    const high = 1_000_000;
    expect([...intersectSorted([1, 2, high], [1, 3, high])]).toEqual([1, high]);
    const edge = high + 1 + (high >> 2);
    expect([...intersectSorted([5, 6, edge], [5, 7, edge])]).toEqual([5, edge]);
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
  it("folds case and accents and cuts at everything but letters and digits", () => {
    expect(tokenize("Rock'n'Roll — São Paulo, 1969")).toEqual(["rock", "n", "roll", "sao", "paulo", "1969"]);
    expect(tokenize("CAFÉ café Cafe")).toEqual(["cafe", "cafe", "cafe"]);
    expect(tokenize("Größe Ærø")).toEqual(["große", "ærø"]);
    expect(tokenize("日本語 テスト")).toEqual(["日本語", "テスト"]);
    expect(tokenize(" -- ")).toEqual([]);
  });

  it("fold compatibility forms, marks and case", () => {
    expect(foldText("ﬁne Ｃａｆé ①")).toBe("fine cafe 1");
    expect(foldText("ÀÉÎÕÜ Ç")).toBe("aeiou c");
    expect(foldText("PLAIN ascii, kept!")).toBe("plain ascii, kept!");
    expect(foldText("Tab\there")).toBe("tab\there");
  });

  it("cut at every character that is neither letter nor digit, in any script", () => {
    expect(tokenize("a_b-c.d/e+f")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(tokenize("3.14 ×2")).toEqual(["3", "14", "2"]);
    expect(tokenize("«Ελλάδα»—Россия")).toEqual(["ελλαδα", "россия"]);
    expect(tokenize("word  word")).toEqual(["word", "word"]);
    expect(tokenize("")).toEqual([]);
    expect(tokenize("...")).toEqual([]);
    expect(tokenize("x")).toEqual(["x"]);
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
  // Documents 0 … 3 in this order; name order: apple, banana, cherry, date.
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
    expect(ids(index, index.postingAnyField("x"))).toEqual(["d-cherry", "d-apple", "d-banana"]);
    expect(ids(index, index.posting("CONTENTS", "x"))).toEqual(["d-cherry", "d-apple", "d-banana"]);
    expect(ids(index, index.posting("TAGS", "common"))).toEqual(["d-apple", "d-banana"]);
    expect(ids(index, index.postingAnyField("fruit"))).toEqual(["d-cherry", "d-apple", "d-date", "d-banana"]);
    expect(ids(index, index.posting("NAME", "fruit"))).toEqual([]);
    expect(ids(index, index.postingAnyField("nowhere"))).toEqual([]);
    expect(index.size).toBe(4);
    expect(index.capacity).toBe(4);
    expect([...index.inStoreFlags().subarray(0, 4)]).toEqual([1, 1, 0, 1]);
  });

  it("orders names folded, and gives each document its place and back", () => {
    const index = SearchIndex.build(records());
    expect(inNameOrder(index)).toEqual(["d-apple", "d-banana", "d-cherry", "d-date"]);
    for (let doc = 0; doc < 4; doc++) expect(index.docAtRank(index.nameRank(doc))).toBe(doc);
    expect([...index.nameRanks()]).toEqual([2, 0, 3, 1]);
    expect(index.docAtRank(4)).toBe(-1);
    expect(index.nameRank(9)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("inserts a changed early document into the middle of a list and drops it from lists it left", () => {
    const index = SearchIndex.build(records());
    // d-cherry (document 0) gains "common" and "palm" and loses "tree" and "x".
    index.upsert(drill("d-cherry", "Cherry", "Fruit", "Red", ["palm", "common"], [["q", "y"]]));
    expect(ids(index, index.posting("TAGS", "common"))).toEqual(["d-cherry", "d-apple", "d-banana"]);
    expect(ids(index, index.postingAnyField("palm"))).toEqual(["d-cherry", "d-date"]);
    expect(ids(index, index.posting("TAGS", "tree"))).toEqual(["d-apple"]);
    expect(ids(index, index.postingAnyField("x"))).toEqual(["d-apple", "d-banana"]);
    // Unchanged tokens keep it, once.
    expect(ids(index, index.postingAnyField("y"))).toEqual(["d-cherry", "d-date"]);
    // Changing the same document again, back to its first version.
    index.upsert(records()[0] as ReturnType<typeof drill>);
    expect(ids(index, index.posting("TAGS", "common"))).toEqual(["d-apple", "d-banana"]);
    expect(ids(index, index.postingAnyField("x"))).toEqual(["d-cherry", "d-apple", "d-banana"]);
    expect(index.size).toBe(4);
  });

  it("moves a token between fields of the same document", () => {
    const index = SearchIndex.build(records());
    // "palm" leaves d-date's tags and enters its name: still in the any-field list, once.
    index.upsert(drill("d-date", "Date palm", "Fruit", "Brown", ["desert"], [["y", "z"]], true));
    expect(ids(index, index.posting("TAGS", "palm"))).toEqual([]);
    expect(ids(index, index.posting("NAME", "palm"))).toEqual(["d-date"]);
    expect(ids(index, index.postingAnyField("palm"))).toEqual(["d-date"]);
    expect(index.inStoreFlags()[2]).toBe(1);
  });

  it("follows renames in name order, and forgets removed documents", () => {
    const index = SearchIndex.build(records());
    index.upsert(drill("d-apple", "Zucchini", "Vegetable", "Green", ["plant"], [["x", "z"]]));
    expect(inNameOrder(index)).toEqual(["d-banana", "d-cherry", "d-date", "d-apple"]);
    expect(index.remove("d-banana")).toBe(true);
    expect(index.remove("d-banana")).toBe(false);
    expect(index.size).toBe(3);
    expect(index.record(3)).toBeUndefined();
    expect(index.docNumber("d-banana")).toBeUndefined();
    expect(index.nameRank(3)).toBe(-1);
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

  it("grows its store flags for documents added after the build", () => {
    const index = SearchIndex.build([]);
    for (let i = 0; i < 40; i++)
      index.upsert(drill(`n-${i}`, `N ${i}`, "S", "D", ["t"], [["a", "b"]], i % 3 === 0));
    const flags = index.inStoreFlags();
    expect(range(0, 40).map((doc) => flags[doc])).toEqual(range(0, 40).map((i) => (i % 3 === 0 ? 1 : 0)));
    expect(index.postingAnyField("t").length).toBe(40);
  });
});
