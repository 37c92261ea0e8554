/**
 * The search index of datasets large enough to outgrow the builder's first buffers (a thousand-odd
 * documents, tens of thousands of name and description words), and the store flags of removed drills.
 * Every expectation follows from how the records are made: names sort in the order the drills are
 * given, and the build numbers documents in name order, so drill i is document i.
 */
import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../src/domain/search-index.js";
import { drill } from "../support/domain-data.js";

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe("SearchIndex.build of large datasets", () => {
  it("finds the name and description words of every one of 1,030 drills", () => {
    const count = 1030;
    const records = range(0, count).map((i) =>
      drill(
        `d-${i}`,
        `Name ${String(i).padStart(4, "0")} n${i}`,
        "Subject",
        `About a${i}`,
        ["tag"],
        [["ask", "tell"]],
      ),
    );
    const index = SearchIndex.build(records);
    for (const i of [0, 1, 1022, 1023, 1024, 1025, 1026, 1029]) {
      expect(Array.from(index.posting("NAME", `n${i}`)), `n${i}`).toEqual([i]);
      expect(Array.from(index.posting("DESCRIPTION", `a${i}`)), `a${i}`).toEqual([i]);
      expect(Array.from(index.postingAnyField(`n${i}`)), `n${i} anywhere`).toEqual([i]);
    }
    expect(Array.from(index.posting("NAME", "name"))).toEqual(range(0, count));
    expect(Array.from(index.posting("DESCRIPTION", "about"))).toEqual(range(0, count));
  });

  it("finds every word of a description of 70,000 distinct words", () => {
    const words = range(0, 70_000).map((i) => `w${i}`);
    const index = SearchIndex.build([
      drill("short", "A short one", "S", "Tiny", [], []),
      drill("long", "B long one", "S", words.join(" "), [], []),
    ]);
    for (const word of ["w0", "w65533", "w65534", "w65535", "w65536", "w69999"]) {
      expect(Array.from(index.posting("DESCRIPTION", word)), word).toEqual([1]);
      expect(Array.from(index.postingAnyField(word)), `${word} anywhere`).toEqual([1]);
    }
    expect(Array.from(index.posting("DESCRIPTION", "tiny"))).toEqual([0]);
  });
});

describe("SearchIndex.remove", () => {
  it("clears the store flag of a removed drill and keeps the others'", () => {
    const index = SearchIndex.build([
      drill("a", "A", "S", "D", ["t"], [], true),
      drill("b", "B", "S", "D", ["t"], [], true),
      drill("c", "C", "S", "D", ["t"], [], false),
    ]);
    expect(index.remove("a")).toBe(true);
    expect([...index.inStoreFlags().subarray(0, 3)]).toEqual([0, 1, 0]);
    expect(Array.from(index.posting("TAGS", "t"))).toEqual([1, 2]);
  });
});
