/**
 * `selectPage` picks the page `[start, start + size)` of the keys in ascending order. Whatever path it
 * takes (a bounded heap for shallow pages, a full sort for deep ones), the page must be the same
 * slice of the sorted keys; the expectation here is that slice, of keys laid out so that a heap built
 * or maintained wrongly would keep the wrong ones.
 */
import { describe, expect, it } from "vitest";
import { Prng } from "../../src/domain/random.js";
import { selectPage } from "../../src/domain/top-k.js";

const ascending = (a: number, b: number) => a - b;

/** Every page from `start` 0 to n + 1 and `size` 0 to n + 2 (so k = start + size covers 0, 1, n-1, n, n+1 and beyond). */
function expectEveryPage(keys: readonly number[], label: string): void {
  const sorted = [...keys].sort(ascending);
  const n = keys.length;
  for (let start = 0; start <= n + 1; start++) {
    for (let size = 0; size <= n + 2; size++) {
      // A fresh copy each time: selectPage may reorder its input.
      const page = [...selectPage(Float64Array.from(keys), start, size)];
      expect(page, `${label}: start ${start}, size ${size}`).toEqual(sorted.slice(start, start + size));
    }
  }
}

/** Layouts of 0 … n-1 that put the largest of the first k keys at every position of a heap. */
function layouts(n: number): Record<string, number[]> {
  const up = Array.from({ length: n }, (_, i) => i);
  const rng = new Prng(n + 1);
  const shuffled = [...up];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j] as number, shuffled[i] as number];
  }
  const half = n >> 1;
  return {
    ascending: up,
    descending: [...up].reverse(),
    // The large half first, ascending: every later key is smaller than all the heap holds.
    "large half first": [...up.slice(half), ...up.slice(0, half)],
    // Large and small keys alternating.
    interleaved: up.map((_, i) => (i % 2 === 0 ? n - 1 - (i >> 1) : i >> 1)),
    shuffled,
  };
}

describe("selectPage", () => {
  it("returns the slice of the sorted keys for every page of 0, 1 and 2 keys", () => {
    expectEveryPage([], "no keys");
    expectEveryPage([5], "one key");
    expectEveryPage([7, 3], "two keys");
    expectEveryPage([3, 7], "two keys ascending");
  });

  it("returns the slice of the sorted keys for every page, on every layout", () => {
    // 48 keys: pages ending before the 12th key use the heap, the others the full sort.
    for (const [name, keys] of Object.entries(layouts(48))) expectEveryPage(keys, name);
    for (const [name, keys] of Object.entries(layouts(9))) expectEveryPage(keys, `9 keys ${name}`);
  });

  it("returns the slice of the sorted keys for keys spread wide, fractional, negative or past 2^31", () => {
    // Whether the keys are counted in a bit set or sorted, every page must be the same slice.
    const base = layouts(40).shuffled ?? [];
    const variants: Record<string, number[]> = {
      "spread over many bit-set words": base.map((key) => key * 37 + 5),
      "spread wider than a bit set pays": base.map((key) => key * 1_000),
      fractional: base.map((key) => key + 0.5),
      negative: base.map((key) => key - 20),
      "all negative": base.map((key) => key - 100),
      "past 2^31": base.map((key) => key + 2 ** 31 - 20),
    };
    for (const [name, keys] of Object.entries(variants)) expectEveryPage(keys, name);
  });

  it("forgets the keys of one deep page before the next, also after a repeated key", () => {
    // Deep pages (the whole list) of even and odd keys: none of one may show up in the other's.
    const evens = Float64Array.from({ length: 30 }, (_, i) => 2 * i);
    const odds = Float64Array.from({ length: 30 }, (_, i) => 2 * i + 1);
    const expectedOdds = [...odds];
    // Evens, odds, evens: whatever an earlier test left, each of the later two follows a clean page.
    expect([...selectPage(evens.slice(), 0, 30)]).toEqual([...evens]);
    expect([...selectPage(odds.slice(), 0, 30)]).toEqual(expectedOdds);
    expect([...selectPage(evens.slice(), 0, 30)]).toEqual([...evens]);
    // A repeat found part-way gives up the bit set; the keys marked before it must not stay behind.
    const withRepeat = Float64Array.of(0, 2, 4, 6, 8, 8, 10);
    expect([...selectPage(withRepeat, 0, 7)]).toEqual([0, 2, 4, 6, 8, 8, 10]);
    expect([...selectPage(odds.slice(), 0, 30)]).toEqual(expectedOdds);
  });

  it("returns the same values as a full sort when keys repeat", () => {
    // Equal keys are indistinguishable, so the page's values still equal the sorted slice's.
    const rng = new Prng(5);
    const ties = Array.from({ length: 40 }, () => rng.int(6));
    expectEveryPage(ties, "ties");
    expectEveryPage(new Array(20).fill(1), "all equal");
    expectEveryPage(
      [...(layouts(20)["large half first"] ?? []), ...(layouts(20).ascending ?? [])],
      "each twice",
    );
  });

  it("returns no keys for an empty or negative size, or a start at or past the end", () => {
    const keys = [9, 2, 7, 4, 1, 8, 3, 6, 5, 0, 11, 10];
    for (const [start, size] of [
      [0, 0],
      [0, -1],
      [3, -2],
      [0, -12],
      [12, 1],
      [13, 5],
    ] as const) {
      expect([...selectPage(Float64Array.from(keys), start, size)], `start ${start}, size ${size}`).toEqual(
        [],
      );
    }
  });

  it("takes an unbounded size as the rest of the keys", () => {
    expect([...selectPage(Float64Array.of(9, 2, 7, 4, 1), 1, Number.POSITIVE_INFINITY)]).toEqual([
      2, 4, 7, 9,
    ]);
    expect([...selectPage(Float64Array.of(9, 2, 7, 4, 1), 0, Number.POSITIVE_INFINITY)]).toEqual([
      1, 2, 4, 7, 9,
    ]);
  });
});
