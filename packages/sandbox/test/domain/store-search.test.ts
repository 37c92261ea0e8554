import { describe, expect, it, vi } from "vitest";
import type { SandboxState } from "../../src/domain/state.js";
import { createState } from "../../src/domain/state.js";
import type { StoreSearchParams } from "../../src/domain/store-search.js";
import { parseQuery } from "../../src/domain/store-search.js";
import { C1, D1, D2, D3, D4, D5, D6, domainError, fixtureData } from "../support/domain-data.js";

/** IDs in name order (case and accents folded, as the search orders), for expectations. */
function byName(...records: { id: string; name: string }[]): string[] {
  const key = (name: string) =>
    name
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase();
  return [...records]
    .sort((a, b) => (key(a.name) < key(b.name) ? -1 : key(a.name) > key(b.name) ? 1 : 0))
    .map((r) => r.id);
}

function ids(state: SandboxState, params: StoreSearchParams, user = "u1"): string[] {
  return state.searchStore(user, params).drills.map((d) => d.id);
}

describe("parseQuery", () => {
  const groups = (q: string) => {
    const parsed = parseQuery(q);
    return parsed.groups.map((g) => g.map((at) => parsed.words[at]?.tokens.join("+")));
  };

  it("treats plain words as alternatives", () => {
    expect(groups("spanish french")).toEqual([["spanish"], ["french"]]);
  });

  it("joins the words around AND into one required group", () => {
    expect(groups("a b AND c")).toEqual([["a"], ["b", "c"]]);
    expect(groups("a AND b c AND d")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(groups("a AND b AND c")).toEqual([["a", "b", "c"]]);
  });

  it("reads lowercase and mixed-case 'and' as a word", () => {
    expect(groups("a and b")).toEqual([["a"], ["and"], ["b"]]);
    expect(groups("a And b")).toEqual([["a"], ["and"], ["b"]]);
  });

  it("ignores dangling and repeated ANDs and words without letters or digits", () => {
    expect(groups("AND a AND")).toEqual([["a"]]);
    expect(groups("a AND AND b")).toEqual([["a", "b"]]);
    expect(groups("a - b")).toEqual([["a"], ["b"]]);
    expect(groups("AND")).toEqual([["and"]]);
    expect(groups("AND AND")).toEqual([["and"]]);
    expect(groups("rock'n'roll")).toEqual([["rock+n+roll"]]);
  });

  it("lists a repeated word once", () => {
    const parsed = parseQuery("dog Dog DOG AND cat");
    expect(parsed.words.map((w) => w.tokens)).toEqual([["dog"], ["cat"]]);
    expect(parsed.groups).toEqual([[0], [0, 1]]);
  });
});

describe("store search on the fixture", () => {
  const state = createState(fixtureData());

  it("finds one word in any field, sorted by name", () => {
    expect(ids(state, { query: "animals" })).toEqual(byName(D2, D1, C1));
  });

  it("is case-insensitive for query and text", () => {
    for (const query of ["spanish", "SPANISH", "SpAnIsH"]) {
      expect(ids(state, { query })).toEqual(byName(D1, C1, D3));
    }
    expect(ids(state, { query: "CAFÉ" })).toEqual(["d3"]);
    expect(ids(state, { query: "cafe" })).toEqual(["d3"]);
  });

  it("with several words finds any of them, most matching words first", () => {
    // Each matches one of the two words: name order decides.
    expect(ids(state, { query: "french food" })).toEqual(byName(D2, C1, D3));
    // d1 and c1 have both words, d2 only "animals", d3 only "spanish".
    expect(ids(state, { query: "spanish animals" })).toEqual([...byName(D1, C1), ...byName(D2, D3)]);
  });

  it("with AND requires all words", () => {
    expect(ids(state, { query: "spanish AND animals" })).toEqual(byName(D1, C1));
    expect(ids(state, { query: "spanish AND animals AND food" })).toEqual(["c1"]);
    expect(ids(state, { query: "music AND spanish" })).toEqual([]);
  });

  it("reads lowercase 'and' as an ordinary word", () => {
    // "and" occurs in the names or descriptions of c1, d2, d3, d4 and d5.
    expect(ids(state, { query: "and" })).toEqual(byName(D4, D2, D5, C1, D3));
    // c1 has all three words; d1, d2 and d3 two; d4 and d5 only "and".
    expect(ids(state, { query: "spanish and animals" })).toEqual([
      C1.id,
      ...byName(D2, D1, D3),
      ...byName(D4, D5),
    ]);
  });

  it("parses mixed queries as alternatives of AND groups", () => {
    // french OR (spanish AND food)
    // c1 and d3 match two of the words (spanish, food), d2 one (french).
    expect(ids(state, { query: "french spanish AND food" })).toEqual([...byName(C1, D3), D2.id]);
    // (french AND horse) OR (spanish AND coffee)
    expect(ids(state, { query: "french AND horse spanish AND coffee" })).toEqual(byName(D2, D3));
  });

  it("matches whole words only", () => {
    expect(ids(state, { query: "anim" })).toEqual([]);
    expect(ids(state, { query: "capital" })).toEqual([]);
    expect(ids(state, { query: "capitals" })).toEqual(["d4"]);
  });

  it("restricts the search to one field", () => {
    const only = (searchField: string, query: string) => ids(state, { query, searchField: [searchField] });
    expect(only("NAME", "food")).toEqual(["d3"]);
    expect(only("DESCRIPTION", "food")).toEqual(["c1"]);
    expect(only("TAGS", "food")).toEqual(["d3"]);
    expect(only("SUBJECT", "food")).toEqual([]);
    expect(only("CONTENTS", "food")).toEqual([]);
    expect(only("SUBJECT", "spanish")).toEqual(byName(D1, C1, D3));
    expect(only("DESCRIPTION", "spanish")).toEqual(byName(D1, C1));
    expect(only("CONTENTS", "dog")).toEqual(byName(D2, D1));
    expect(only("NAME", "dog")).toEqual([]);
    expect(only("TAGS", "vocabulary")).toEqual(byName(D2, D1));
  });

  it("accepts a single field as a string", () => {
    expect(ids(state, { query: "food", searchField: "DESCRIPTION" })).toEqual(["c1"]);
  });

  it("searches every repeated field", () => {
    expect(ids(state, { query: "food", searchField: ["NAME", "DESCRIPTION"] })).toEqual(byName(C1, D3));
    expect(ids(state, { query: "geography AND paris", searchField: ["SUBJECT", "CONTENTS"] })).toEqual([
      "d4",
    ]);
    expect(ids(state, { query: "geography AND paris", searchField: ["SUBJECT"] })).toEqual([]);
    expect(ids(state, { query: "food", searchField: ["NAME", "NAME"] })).toEqual(["d3"]);
  });

  it("rejects unknown search fields", () => {
    const error = domainError(() => state.searchStore("u1", { query: "food", searchField: ["name"] }));
    expect(error.id).toBe("search_field_invalid");
    expect(error.status).toBe(400);
    expect(error.message).toContain("searchField");
  });

  it("leaves drills that are not in the public store out of store searches", () => {
    expect(ids(state, { query: "secret" })).toEqual([]);
    expect(ids(state, { query: "hola" })).toEqual([]);
  });

  it("returns a catalog's contents sorted by name when there is no query", () => {
    expect(ids(state, { catalog: "cat1" })).toEqual(byName(D6, D1, C1));
    expect(ids(state, { catalog: "cat1", query: "" })).toEqual(byName(D6, D1, C1));
    expect(state.searchStore("u1", { catalog: "cat1" }).total).toBe(3);
  });

  it("searches only the catalog's drillables, in name, subject and tags", () => {
    expect(ids(state, { catalog: "cat1", query: "spanish" })).toEqual(byName(D6, D1, C1));
    expect(ids(state, { catalog: "cat1", query: "words" })).toEqual(["d6"]);
    // c1 mentions animals only in its description, which catalog searches skip.
    expect(ids(state, { catalog: "cat1", query: "animals" })).toEqual(["d1"]);
    expect(ids(state, { catalog: "cat1", query: "perro" })).toEqual([]);
    expect(ids(state, { catalog: "cat1", query: "french" })).toEqual([]);
    expect(ids(state, { catalog: "cat1", query: "spanish", searchField: ["TAGS"] })).toEqual([]);
    expect(ids(state, { catalog: "cat1", query: "course", searchField: ["TAGS", "NAME"] })).toEqual(["c1"]);
  });

  it("refuses DESCRIPTION and CONTENTS in catalog searches", () => {
    for (const searchField of [["DESCRIPTION"], ["CONTENTS"], ["NAME", "CONTENTS"]]) {
      const error = domainError(() =>
        state.searchStore("u1", { catalog: "cat1", query: "spanish", searchField }),
      );
      expect(error.id).toBe("search_field_not_supported");
      expect(error.status).toBe(400);
      expect(error.parameter).toBe("searchField");
    }
    const withoutQuery = domainError(() =>
      state.searchStore("u1", { catalog: "cat1", searchField: "DESCRIPTION" }),
    );
    expect(withoutQuery.id).toBe("search_field_not_supported");
  });

  it("refuses catalogs the user cannot access and unknown catalogs", () => {
    const denied = domainError(() => state.searchStore("u2", { catalog: "cat1" }));
    expect(denied.id).toBe("catalog_access_denied");
    expect(denied.status).toBe(403);
    expect(ids(state, { catalog: "cat2" }, "u2")).toEqual(["d4"]);
    const unknown = domainError(() => state.searchStore("u1", { catalog: "nope", query: "x" }));
    expect(unknown.id).toBe("catalog_not_found");
    expect(unknown.status).toBe(404);
  });

  it("answers query_missing without query and catalog", () => {
    for (const params of [{}, { query: "" }, { query: "   " }, { searchField: ["NAME"] }]) {
      const error = domainError(() => state.searchStore("u1", params));
      expect(error.id).toBe("query_missing");
      expect(error.status).toBe(400);
    }
  });

  it("finds nothing for a query without letters or digits", () => {
    expect(state.searchStore("u1", { query: "- ?" })).toEqual({ total: 0, drills: [] });
  });

  it("pages with resultStart and resultSize while total counts everything found", () => {
    expect(state.searchStore("u1", { query: "spanish", resultStart: "1", resultSize: "1" })).toMatchObject({
      total: 3,
      drills: [{ id: "c1" }],
    });
    expect(ids(state, { query: "spanish", resultStart: "1" })).toEqual(byName(D1, C1, D3).slice(1));
    expect(ids(state, { query: "spanish", resultSize: "2" })).toEqual(byName(D1, C1, D3).slice(0, 2));
    expect(state.searchStore("u1", { query: "spanish", resultSize: "0" })).toEqual({ total: 3, drills: [] });
    expect(state.searchStore("u1", { query: "spanish", resultStart: "9" })).toEqual({ total: 3, drills: [] });
    expect(ids(state, { catalog: "cat1", resultStart: 2, resultSize: 5 })).toEqual(["c1"]);
  });

  it("rejects paging values that are not non-negative integers", () => {
    for (const resultStart of ["abc", "-1", "1.5", " 1", -1, 1.5]) {
      const error = domainError(() => state.searchStore("u1", { query: "spanish", resultStart }));
      expect(error.id).toBe("parameter_invalid");
      expect(error.parameter).toBe("resultStart");
    }
    expect(domainError(() => state.searchStore("u1", { query: "x", resultSize: "ten" })).parameter).toBe(
      "resultSize",
    );
  });

  it("returns drillables with exactly the interface's fields", () => {
    const [first] = state.searchStore("u1", { query: "french" }).drills;
    expect(first).toEqual({
      id: "d2",
      name: "French animals",
      subject: "French",
      type: "DRILL",
      description: "Animals and pets",
    });
    expect(state.searchStore("u1", { query: "course" }).drills[0]?.type).toBe("COURSE");
  });

  it("works out what the user holds in their repertoire once for a page, not once per entry", () => {
    const fresh = createState(fixtureData());
    const held = vi.spyOn(fresh, "heldInRepertoire");
    const page = fresh.searchStore("u1", { query: "spanish french animals course" });
    expect(page.drills.length).toBeGreaterThan(2);
    expect(held).toHaveBeenCalledTimes(1);
  });

  it("answers user_not_found for an unknown acting user", () => {
    expect(domainError(() => state.searchStore("ghost", { query: "x" })).id).toBe("user_not_found");
  });
});

describe("index updates", () => {
  it("follows renamed, added and deleted drills", () => {
    const state = createState(fixtureData());
    state.upsertDrill({ ...D2, name: "French pets", tags: ["pets"] });
    expect(ids(state, { query: "animals", searchField: ["NAME"] })).toEqual(["d1"]);
    expect(ids(state, { query: "pets", searchField: ["NAME"] })).toEqual(["d2"]);
    expect(ids(state, { query: "pets", searchField: ["TAGS"] })).toEqual(["d2"]);
    // The all-fields search follows the change too: "french" left no field of d2's but the name.
    expect(ids(state, { query: "pets" })).toEqual(["d2"]);

    state.upsertDrill({ ...D2, id: "d7", name: "Aardvark animals" });
    expect(ids(state, { query: "animals", searchField: ["NAME"] })).toEqual(["d7", "d1"]);

    state.deleteDrillable("d1");
    // Words only d1 had are gone from every field, the all-fields search included.
    expect(ids(state, { query: "perro" })).toEqual([]);
    expect(ids(state, { query: "animals", searchField: ["NAME"] })).toEqual(["d7"]);
    expect(ids(state, { catalog: "cat1" })).toEqual(["d6", "c1"]);
    expect(state.drillable("c1")).toMatchObject({ drillIds: ["d3"] });
    expect(domainError(() => state.deleteDrillable("d1")).id).toBe("drillable_not_found");
  });
});
