/**
 * Store search rules on a handful of drills built here, so every answer can be read off the data:
 * - a query word matches a drill when each of the word's tokens is in one of the searched fields;
 * - words joined by `AND` form a group that needs all its words; groups are alternatives;
 * - results come by relevance (how many distinct query words a drill matches, most first, when the
 *   query has several words), then by name (case and accents folded), then exact name, then ID;
 * - only public-store drills without a catalog; a catalog's own drills (in the store or not) with one.
 */
import { describe, expect, it } from "vitest";
import { createState, type SandboxState } from "../../src/domain/state.js";
import type { StoreSearchParams } from "../../src/domain/store-search.js";
import { parseQuery } from "../../src/domain/store-search.js";
import type { Catalog, Drill, SandboxData } from "../../src/domain/types.js";
import { domainError, drill } from "../support/domain-data.js";

const USER = "u1";
const OTHER = "u2";

// Names in name order: "Roch", "Rock history", "Rock n", "Rock n roll", "Roll call" (and the hidden one).
const ROCK = drill("k-rock", "Rock history", "Music", "Guitars", ["rock"], [["loud", "quiet"]]);
const ROLL = drill("k-roll", "Roll call", "School", "Names", ["roll"], [["present", "absent"]]);
const RNR = drill("k-rnr", "Rock n roll", "Music", "Dance", ["dance"], [["twist", "jive"]]);
// "rock" and "n" in the name, "roll" only in the tags.
const SPLIT = drill("k-split", "Rock n", "Music", "Split", ["roll"], [["left", "right"]]);
const ROCH = drill("k-roch", "Roch", "Places", "A rock in the sea", ["sea"], [["rocher", "rock"]]);
const HIDDEN = drill("k-hidden", "Rock n roll secrets", "Music", "Staff", ["rock"], [["a", "b"]], false);

const CATALOG: Catalog = {
  id: "cat",
  name: "Mixed",
  // A dangling ID and a repeated one: the catalog lists each drill it has once.
  drillableIds: ["k-roll", "gone", "k-hidden", "k-rock", "k-roll"],
  userIds: [USER],
};

function dataset(drills: Drill[], catalogs: Catalog[] = [CATALOG]): SandboxData {
  return {
    organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
    users: [
      { id: "sa", name: "Service account", emails: [], thirdPartyIds: [], organizationId: "org" },
      { id: USER, name: "User", emails: [], thirdPartyIds: [], organizationId: "org" },
      { id: OTHER, name: "Other", emails: [], thirdPartyIds: [], organizationId: "org" },
    ],
    drills,
    courses: [],
    catalogs,
    groups: [],
  };
}

const state = createState(dataset([ROCK, ROLL, RNR, SPLIT, ROCH, HIDDEN]));

function search(params: StoreSearchParams, s: SandboxState = state): { total: number; ids: string[] } {
  const page = s.searchStore(USER, params);
  return { total: page.total, ids: page.drills.map((d) => d.id) };
}

describe("parseQuery edge cases", () => {
  const groups = (q: string) => {
    const parsed = parseQuery(q);
    return parsed.groups.map((g) => g.map((at) => parsed.words[at]?.tokens.join("+")));
  };

  it("finds no words in an empty or blank query", () => {
    expect(parseQuery("")).toEqual({ words: [], groups: [] });
    expect(parseQuery(" \t\n ")).toEqual({ words: [], groups: [] });
  });

  it("splits at any run of whitespace, leading and trailing included", () => {
    expect(groups("  a\t\tb \n c  ")).toEqual([["a"], ["b"], ["c"]]);
    expect(groups(" a  AND\tb ")).toEqual([["a", "b"]]);
  });

  it("reads a query of ANDs among blanks as the word 'and'", () => {
    expect(groups(" AND")).toEqual([["and"]]);
    expect(groups("\tAND  AND ")).toEqual([["and"]]);
  });

  it("counts a word repeated inside a group once", () => {
    expect(groups("dog AND Dog")).toEqual([["dog"]]);
    expect(groups("dog AND cat AND DOG")).toEqual([["dog", "cat"]]);
  });

  it("counts a group repeated in another order once", () => {
    expect(groups("a AND b b AND a")).toEqual([["a", "b"]]);
    expect(groups("c AND b AND a a AND c AND b b AND a")).toEqual([
      ["c", "b", "a"],
      ["b", "a"],
    ]);
  });

  it("tells groups apart by their words, however many words there are", () => {
    // Words w0 … w12 alone, then the group (w1 AND w2): a different group from the word w12.
    const alone = Array.from({ length: 13 }, (_, i) => `w${i}`);
    const parsed = parseQuery(`${alone.join(" ")} w1 AND w2`);
    expect(parsed.words).toHaveLength(13);
    expect(parsed.groups).toEqual([...alone.map((_, i) => [i]), [1, 2]]);
  });

  it("keeps a word of several tokens apart from the word of those tokens run together", () => {
    const parsed = parseQuery("rock'n'roll rocknroll Rock-N-Roll");
    expect(parsed.words).toEqual([
      { text: "rock'n'roll", tokens: ["rock", "n", "roll"] },
      { text: "rocknroll", tokens: ["rocknroll"] },
    ]);
    expect(parsed.groups).toEqual([[0], [1]]);
  });
});

describe("store search on a handful of drills", () => {
  it("needs every token of a word of several tokens, each in any searched field", () => {
    // k-rnr has all three in its name; k-split has "rock" and "n" in its name and "roll" in its tags;
    // k-rock and k-roll have only one each, k-hidden is not in the store.
    expect(search({ query: "rock'n'roll" })).toEqual({ total: 2, ids: ["k-split", "k-rnr"] });
    expect(search({ query: "rock'n'roll", searchField: ["NAME", "TAGS"] })).toEqual({
      total: 2,
      ids: ["k-split", "k-rnr"],
    });
    expect(search({ query: "rock'n'roll", searchField: "NAME" })).toEqual({ total: 1, ids: ["k-rnr"] });
    expect(search({ query: "rock'n'roll", searchField: "TAGS" })).toEqual({ total: 0, ids: [] });
  });

  it("merges a token's documents across the searched fields", () => {
    // "rock": names of k-rock, k-rnr, k-split; tags of k-rock; description and items of k-roch.
    expect(search({ query: "rock" })).toEqual({ total: 4, ids: ["k-roch", "k-rock", "k-split", "k-rnr"] });
    expect(search({ query: "rock", searchField: ["TAGS", "CONTENTS"] })).toEqual({
      total: 2,
      ids: ["k-roch", "k-rock"],
    });
    expect(search({ query: "rock", searchField: ["DESCRIPTION", "NAME"] })).toEqual({
      total: 4,
      ids: ["k-roch", "k-rock", "k-split", "k-rnr"],
    });
    expect(search({ query: "roll", searchField: "NAME" })).toEqual({ total: 2, ids: ["k-rnr", "k-roll"] });
    expect(search({ query: "roll", searchField: "SUBJECT" })).toEqual({ total: 0, ids: [] });
  });

  it("merges a rare token's documents across fields in a larger store too", () => {
    // 43 drills, "zebra" in two names and two tags lists: few documents among many.
    const fillers = Array.from({ length: 40 }, (_, i) =>
      drill(`f-${i}`, `Filler ${i}`, "Filler", "Nothing", ["filler"], [["x", "y"]]),
    );
    const zoo = createState(
      dataset(
        [
          ...fillers,
          drill("z-name", "Zebra crossing", "Roads", "Stripes", ["roads"], [["a", "b"]]),
          drill("z-tags", "Stripes", "Animals", "Africa", ["zebra", "horse"], [["c", "d"]]),
          drill("z-both", "A zebra", "Animals", "Africa", ["zebra"], [["e", "f"]]),
        ],
        [],
      ),
    );
    expect(search({ query: "zebra", searchField: ["NAME", "TAGS"] }, zoo)).toEqual({
      total: 3,
      ids: ["z-both", "z-tags", "z-name"],
    });
    expect(search({ query: "zebra", searchField: ["TAGS", "NAME"], resultStart: 1 }, zoo)).toEqual({
      total: 3,
      ids: ["z-tags", "z-name"],
    });
    expect(search({ query: "zebra", searchField: ["DESCRIPTION", "SUBJECT"] }, zoo)).toEqual({
      total: 0,
      ids: [],
    });
  });

  it("counts a field named twice once", () => {
    // Five names, three fields: "guitars" (k-rock's description) is not in any of them.
    expect(search({ query: "guitars", searchField: ["NAME", "TAGS", "NAME", "SUBJECT", "TAGS"] })).toEqual({
      total: 0,
      ids: [],
    });
    expect(search({ query: "rock", searchField: ["TAGS", "TAGS"] })).toEqual({ total: 1, ids: ["k-rock"] });
  });

  it("treats an empty list of fields as every field", () => {
    expect(search({ query: "guitars", searchField: [] })).toEqual({ total: 1, ids: ["k-rock"] });
    expect(search({ query: "rock", searchField: [] })).toEqual(search({ query: "rock" }));
  });

  it("counts every distinct word a drill matches, across groups, for the order", () => {
    // (rock AND roll) OR school. Words matched: k-rnr rock+roll, k-split rock+roll, k-roll roll+school:
    // two each, so name order alone; k-rock has "rock" but not the group, and not "school".
    expect(search({ query: "rock AND roll school" })).toEqual({
      total: 3,
      ids: ["k-split", "k-rnr", "k-roll"],
    });
    // sea OR music OR roll: k-rnr and k-split have music and roll (2), k-roch sea, k-rock music,
    // k-roll roll (1 each).
    expect(search({ query: "sea music roll" })).toEqual({
      total: 5,
      ids: ["k-split", "k-rnr", "k-roch", "k-rock", "k-roll"],
    });
  });

  it("ignores an alternative that finds nothing", () => {
    expect(search({ query: "zzz guitars" })).toEqual({ total: 1, ids: ["k-rock"] });
    expect(search({ query: "zzz AND rock guitars" })).toEqual({ total: 1, ids: ["k-rock"] });
    expect(search({ query: "zzz qqq" })).toEqual({ total: 0, ids: [] });
  });

  it("pages through the ranked results at and past both ends", () => {
    const all = ["k-roch", "k-rock", "k-split", "k-rnr"];
    for (let resultStart = 0; resultStart <= 5; resultStart++) {
      for (let resultSize = 0; resultSize <= 5; resultSize++) {
        expect(search({ query: "rock", resultStart, resultSize }), `${resultStart} ${resultSize}`).toEqual({
          total: 4,
          ids: all.slice(resultStart, resultStart + resultSize),
        });
      }
    }
    expect(search({ query: "rock", resultStart: "2" })).toEqual({ total: 4, ids: all.slice(2) });
  });

  it("takes paging numbers as they are, 0 and ones beyond digits' reach included", () => {
    expect(search({ query: "rock", resultStart: 0, resultSize: 1 })).toEqual({ total: 4, ids: ["k-roch"] });
    // 1e21 is an integer, though its decimal text is not plain digits.
    expect(search({ query: "rock", resultStart: 1e21 })).toEqual({ total: 4, ids: [] });
    expect(search({ query: "rock", resultStart: 3, resultSize: 1e21 })).toEqual({ total: 4, ids: ["k-rnr"] });
  });

  it("orders names that fold alike by exact name, then by ID", () => {
    const twins = createState(
      dataset(
        [
          drill("t-3", "café", "S", "D", ["twin"], [["a", "b"]]),
          drill("t-1", "Cafe", "S", "D", ["twin"], [["a", "b"]]),
          drill("t-2", "cafe", "S", "D", ["twin"], [["a", "b"]]),
          drill("t-0", "cafe", "S", "D", ["twin"], [["a", "b"]]),
        ],
        [],
      ),
    );
    // All fold to "cafe"; by code unit "Cafe" < "cafe" < "café"; the two "cafe" by ID.
    expect(search({ query: "twin" }, twins).ids).toEqual(["t-1", "t-0", "t-2", "t-3"]);
  });
});

describe("catalog search on a handful of drills", () => {
  it("lists each catalog drill once in name order, store or not, skipping unknown IDs", () => {
    expect(search({ catalog: "cat" })).toEqual({ total: 3, ids: ["k-rock", "k-hidden", "k-roll"] });
    expect(search({ catalog: "cat", resultStart: 1, resultSize: 1 })).toEqual({
      total: 3,
      ids: ["k-hidden"],
    });
    expect(search({ catalog: "cat", resultStart: 3 })).toEqual({ total: 3, ids: [] });
  });

  it("searches only the catalog's drills, by name, subject and tags unless told", () => {
    // k-rnr and k-split have "roll" but are not in the catalog.
    expect(search({ catalog: "cat", query: "roll" })).toEqual({ total: 2, ids: ["k-hidden", "k-roll"] });
    expect(search({ catalog: "cat", query: "rock" })).toEqual({ total: 2, ids: ["k-rock", "k-hidden"] });
    // "guitars" is only in k-rock's description, which a catalog search leaves out.
    expect(search({ catalog: "cat", query: "guitars" })).toEqual({ total: 0, ids: [] });
    expect(search({ catalog: "cat", query: "music school" })).toEqual({
      total: 3,
      ids: ["k-rock", "k-hidden", "k-roll"],
    });
    // rock OR roll: k-hidden has both (2), k-rock and k-roll one each.
    expect(search({ catalog: "cat", query: "rock roll" })).toEqual({
      total: 3,
      ids: ["k-hidden", "k-rock", "k-roll"],
    });
    expect(search({ catalog: "cat", query: "roll", searchField: "SUBJECT" })).toEqual({ total: 0, ids: [] });
  });
});

describe("store search errors name the parameter and the rule", () => {
  const error = (params: StoreSearchParams, user = USER) => {
    const e = domainError(() => state.searchStore(user, params));
    return { id: e.id, parameter: e.parameter, message: e.message };
  };

  it("for paging values", () => {
    expect(error({ query: "rock", resultStart: "x1" })).toEqual({
      id: "parameter_invalid",
      parameter: "resultStart",
      message: "resultStart: must be a non-negative integer written in digits",
    });
    expect(error({ query: "rock", resultSize: -3 })).toEqual({
      id: "parameter_invalid",
      parameter: "resultSize",
      message: "resultSize: must be a non-negative integer written in digits",
    });
    expect(error({ query: "rock", resultSize: 2.5 }).message).toBe(
      "resultSize: must be a non-negative integer written in digits",
    );
    expect(error({ query: "rock", resultSize: "12345678901234567890" })).toEqual({
      id: "parameter_invalid",
      parameter: "resultSize",
      message: `resultSize: too long to be a number (20 digits; at most ${Number.MAX_SAFE_INTEGER})`,
    });
  });

  it("for search fields", () => {
    expect(error({ query: "rock", searchField: ["NAME", "Tags"] })).toEqual({
      id: "search_field_invalid",
      parameter: "searchField",
      message: 'searchField: "Tags" is not one of NAME, DESCRIPTION, SUBJECT, TAGS, CONTENTS',
    });
    expect(
      error({ catalog: "cat", query: "rock", searchField: ["CONTENTS", "NAME", "DESCRIPTION"] }),
    ).toEqual({
      id: "search_field_not_supported",
      parameter: "searchField",
      message: "searchField: CONTENTS and DESCRIPTION cannot be searched in a catalog",
    });
  });

  it("for a missing query and for catalogs", () => {
    for (const params of [{}, { query: " " }, { catalog: "" }, { query: "", catalog: "" }]) {
      expect(error(params), JSON.stringify(params)).toEqual({
        id: "query_missing",
        parameter: "query",
        message: "query: required when no catalog is given",
      });
    }
    expect(error({ catalog: "nope" })).toEqual({
      id: "catalog_not_found",
      parameter: "catalog",
      message: 'catalog: no catalog with ID "nope"',
    });
    expect(error({ catalog: "cat", query: "rock" }, OTHER)).toEqual({
      id: "catalog_access_denied",
      parameter: "catalog",
      message: 'catalog: the user has no access to catalog "cat"',
    });
  });
});
