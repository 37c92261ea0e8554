/**
 * Store search ordering and paging on datasets built so the right answer is evident, plus the proof
 * that the top-k engine gives exactly what sorting every match gave (same totals, same order) on
 * generated datasets. Timing lives in the bench, not here.
 */
import { describe, expect, it } from "vitest";
import { generateLargeDataset } from "../../scripts/dataset/large-dataset.js";
import { Prng } from "../../src/domain/random.js";
import { createState, type SandboxState } from "../../src/domain/state.js";
import type { StoreSearchParams } from "../../src/domain/store-search.js";
import { tokenize } from "../../src/domain/text-tokens.js";
import { selectPage } from "../../src/domain/top-k.js";
import type { Catalog, Drill, SandboxData } from "../../src/domain/types.js";
import { drill } from "../support/domain-data.js";
import { searchStoreSortingAll } from "../support/sort-all-store-search.js";

const USER = "u1";

function dataset(drills: Drill[], catalogs: Catalog[] = []): SandboxData {
  return {
    organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
    users: [
      { id: "sa", name: "Service account", emails: [], thirdPartyIds: [], organizationId: "org" },
      { id: USER, name: "User", emails: [], thirdPartyIds: [], organizationId: "org" },
    ],
    drills,
    courses: [],
    catalogs,
    groups: [],
  };
}

function ids(state: SandboxState, params: StoreSearchParams): { total: number; ids: string[] } {
  const page = state.searchStore(USER, params);
  return { total: page.total, ids: page.drills.map((d) => d.id) };
}

/** `count` drills named "Set 0000" … with zero-padded numbers, so name order is number order. */
function numberedDrills(count: number, extraTag: (n: number) => string): Drill[] {
  const drills: Drill[] = [];
  for (let n = 0; n < count; n++) {
    const number = String(n).padStart(4, "0");
    drills.push(
      drill(`id-${number}`, `Set ${number}`, "Numbers", "A numbered set", [extraTag(n)], [["a", "b"]]),
    );
  }
  // Shuffled, so the order given is not name order: the build must sort them, and drills added after
  // it get numbers out of name order.
  const rng = new Prng(7);
  for (let i = drills.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [drills[i], drills[j]] = [drills[j] as Drill, drills[i] as Drill];
  }
  return drills;
}

describe("selectPage", () => {
  it("returns exactly the slice of the sorted keys, on both the heap and the full-sort path", () => {
    const rng = new Prng(3);
    const keys = Array.from({ length: 1000 }, (_, i) => i * 3 + 1);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [keys[i], keys[j]] = [keys[j] as number, keys[i] as number];
    }
    const sorted = [...keys].sort((a, b) => a - b);
    for (const [start, size] of [
      [0, 10],
      [37, 5],
      [0, 249],
      [240, 20],
      [700, 50],
      [990, 50],
      [1000, 10],
      [0, 0],
    ] as const) {
      const page = [...selectPage(Float64Array.from(keys), start, size)];
      expect(page, `start ${start} size ${size}`).toEqual(sorted.slice(start, start + size));
    }
  });
});

/**
 * Two ways to the same state: built at once (the build numbers documents in name order, so a page of
 * one word is read off in order), or with every other drill added after the build in shuffled order
 * (document numbers out of name order, so matches are ranked).
 */
const BUILDS = [
  {
    build: "built at once",
    inOrder: true,
    make: (data: SandboxData) => createState(data),
  },
  {
    build: "with drills added after the build",
    inOrder: false,
    make: (data: SandboxData) => {
      const state = createState({ ...data, drills: data.drills.filter((_, i) => i % 2 === 0) });
      for (const added of data.drills.filter((_, i) => i % 2 === 1)) state.upsertDrill(added);
      return state;
    },
  },
];

describe.each(BUILDS)("store search order and paging on evident datasets, $build", ({ inOrder, make }) => {
  const COUNT = 600;
  // Every drill has the tag "all"; every third also "three", every fifth also "five" (one tag each,
  // the lowest divisor wins), so each query's answer follows from the numbers.
  const tag = (n: number) => (n % 3 === 0 ? "three" : n % 5 === 0 ? "five" : "other");
  const drills = numberedDrills(COUNT, tag).map((d) => ({ ...d, tags: [...d.tags, "all"] }));
  const state = make(dataset(drills));

  it("has document numbers in name order exactly when built at once", () => {
    expect(state.index.ranksFollowDocNumbers()).toBe(inOrder);
  });
  const idOf = (n: number) => `id-${String(n).padStart(4, "0")}`;
  const numbers = (predicate: (n: number) => boolean) =>
    Array.from({ length: COUNT }, (_, n) => n).filter(predicate);

  it("lists a one-word match in name order, whatever page is asked", () => {
    const all = numbers(() => true).map(idOf);
    for (const [start, size] of [
      [0, 10],
      [10, 10],
      [290, 20],
      [590, 20],
      [600, 5],
    ] as const) {
      expect(ids(state, { query: "all", resultStart: start, resultSize: size })).toEqual({
        total: COUNT,
        ids: all.slice(start, start + size),
      });
    }
    expect(ids(state, { query: "all" }).ids).toEqual(all);
  });

  it("ranks drills matching more words first, then by name", () => {
    // "three five all": multiples of 3 and multiples of 5 (not of 3) match two words, the rest one.
    const two = numbers((n) => tag(n) !== "other").map(idOf);
    const one = numbers((n) => tag(n) === "other").map(idOf);
    const result = ids(state, { query: "three five all" });
    expect(result.total).toBe(COUNT);
    expect(result.ids).toEqual([...two, ...one]);
    expect(ids(state, { query: "three five all", resultStart: two.length - 2, resultSize: 4 }).ids).toEqual([
      ...two.slice(-2),
      ...one.slice(0, 2),
    ]);
  });

  it("keeps only drills with every word of an AND group, and honours searchField", () => {
    const threes = numbers((n) => tag(n) === "three").map(idOf);
    expect(ids(state, { query: "three AND all", resultSize: 1000 })).toEqual({
      total: threes.length,
      ids: threes,
    });
    expect(ids(state, { query: "three", searchField: "NAME" })).toEqual({ total: 0, ids: [] });
    expect(
      ids(state, { query: "three", searchField: ["NAME", "TAGS"], resultStart: 5, resultSize: 3 }).ids,
    ).toEqual(threes.slice(5, 8));
  });

  it("lists a catalog in name order and pages through it", () => {
    const members = numbers((n) => n % 7 === 0);
    const withCatalog = make(
      dataset(drills, [
        { id: "cat", name: "Sevens", drillableIds: [...members].reverse().map(idOf), userIds: [USER] },
      ]),
    );
    expect(ids(withCatalog, { catalog: "cat", resultStart: 10, resultSize: 5 })).toEqual({
      total: members.length,
      ids: members.slice(10, 15).map(idOf),
    });
    expect(ids(withCatalog, { catalog: "cat", query: "all", resultStart: 3, resultSize: 2 })).toEqual({
      total: members.length,
      ids: members.slice(3, 5).map(idOf),
    });
    expect(ids(withCatalog, { catalog: "cat", query: "three", resultSize: 3 })).toEqual({
      total: members.filter((n) => tag(n) === "three").length,
      ids: members
        .filter((n) => tag(n) === "three")
        .slice(0, 3)
        .map(idOf),
    });
  });
});

describe.each(BUILDS)("top-k engine against sorting every match, $build", ({ inOrder, make }) => {
  const data = generateLargeDataset(3_000);
  const state = make(data);
  const index = state.index;
  const context = {
    index,
    catalog: (id: string) => state.catalog(id),
    toDrillables: (records: Parameters<SandboxState["toDrillables"]>[0], user: string) =>
      state.toDrillables(records, user),
  };
  // Queries made from the dataset's own words, so every kind of query finds something.
  const rng = new Prng(11);
  const words = [
    ...new Set(data.drills.slice(0, 200).flatMap((d) => tokenize(`${d.name} ${d.tags.join(" ")}`))),
  ];
  const word = () => words[rng.int(words.length)] as string;
  const queries: StoreSearchParams[] = [];
  for (let i = 0; i < 40; i++) {
    queries.push({ query: word() });
    queries.push({ query: `${word()} ${word()} ${word()}` });
    queries.push({ query: `${word()} AND ${word()}` });
    queries.push({ query: `${word()} ${word()} AND ${word()}`, searchField: ["NAME", "TAGS"] });
    queries.push({ query: word(), searchField: "DESCRIPTION" });
  }
  // The benchmark's mix (bench/fixtures.ts), which once checked this order as a row of its own.
  queries.push(
    { query: "spanish" },
    { query: "the" },
    { query: "planets moons rivers" },
    { query: "spanish AND vocabulary" },
    { query: "elements", searchField: ["NAME", "TAGS"] },
  );
  const user =
    data.users.find((u) => u.organizationId !== undefined && u.id !== "svc-sandbox-academy")?.id ?? "";
  const catalog = data.catalogs[0]?.id ?? "";

  it("gives the same totals and the same order for every query and page", () => {
    expect(state.index.ranksFollowDocNumbers()).toBe(inOrder);
    let compared = 0;
    for (const base of queries) {
      for (const [start, size] of [
        [0, 10],
        [0, 1],
        [25, 25],
        [400, 10],
        [0, undefined],
      ] as const) {
        const params = { ...base, resultStart: start, ...(size === undefined ? {} : { resultSize: size }) };
        const expected = searchStoreSortingAll(context, user, params);
        const actual = state.searchStore(user, params);
        expect(actual.total, JSON.stringify(params)).toBe(expected.total);
        expect(
          actual.drills.map((d) => d.id),
          JSON.stringify(params),
        ).toEqual(expected.drills.map((d) => d.id));
        compared++;
      }
    }
    for (const start of [0, 10, 25]) {
      const params = { catalog, resultStart: start, resultSize: 10 };
      expect(state.searchStore(user, params)).toEqual(searchStoreSortingAll(context, user, params));
    }
    expect(compared).toBe(queries.length * 5);
    // The comparison is only worth something if the queries found things.
    expect(queries.filter((q) => state.searchStore(user, q).total > 10).length).toBeGreaterThan(
      queries.length / 4,
    );
  });
});
