import { beforeAll, describe, expect, it } from "vitest";
import { client, expectRefused, sharedSandbox, tokenFor } from "../support/helpers.js";

const shared = sharedSandbox();
let ana: ReturnType<typeof client>;
let bob: ReturnType<typeof client>;

beforeAll(async () => {
  ana = client(shared(), await tokenFor(shared(), "u-ana"));
  bob = client(shared(), await tokenFor(shared(), "u-bob"));
});

interface Page {
  total: number;
  drills: { id: string }[];
}

/** Searches both versions, checks they agree, and returns total and IDs. */
async function search(query: string, as = ana): Promise<{ total: number; ids: string[] }> {
  const v21 = await as("GET", `/api/2.1/store?${query}`);
  const v20 = await as("GET", `/api/2/store?${query}`);
  expect(v21.status, JSON.stringify(v21.body)).toBe(200);
  expect(v20.body).toEqual(v21.body);
  const page = v21.body as Page;
  return { total: page.total, ids: page.drills.map((d) => d.id) };
}

describe("store search over HTTP", () => {
  it("returns Drillable objects with the interface's fields", async () => {
    const res = await ana("GET", "/api/2.1/store?query=french&searchField=SUBJECT");
    expect(res.body).toEqual({
      total: 1,
      drills: [
        {
          id: "fr-animals",
          name: "French animals",
          subject: "French",
          type: "DRILL",
          description: "Common animals in French",
        },
      ],
    });
  });

  it("matches one word in every field, case-insensitively, sorted by name", async () => {
    const expected = { total: 3, ids: ["es-animals", "course-spanish", "es-colours"] };
    expect(await search("query=spanish")).toEqual(expected);
    expect(await search("query=SPANISH")).toEqual(expected);
    expect(await search("query=SpAnIsH")).toEqual(expected);
  });

  it("matches any of several words, most matched words first", async () => {
    // The course matches "colours" through its description ("Animals and colours").
    expect(await search("query=french%20colours")).toEqual({
      total: 3,
      ids: ["fr-animals", "course-spanish", "es-colours"],
    });
    expect(await search(`query=${encodeURIComponent("spanish and animals")}`)).toEqual({
      total: 4,
      ids: ["course-spanish", "es-animals", "fr-animals", "es-colours"],
    });
  });

  it("requires every word joined by AND (capitals only)", async () => {
    expect(await search(`query=${encodeURIComponent("spanish AND animals")}`)).toEqual({
      total: 2,
      ids: ["es-animals", "course-spanish"],
    });
    expect(await search(`query=${encodeURIComponent("french AND colours")}`)).toEqual({ total: 0, ids: [] });
  });

  it("limits the search to the given fields", async () => {
    expect(await search("query=animals&searchField=NAME")).toEqual({
      total: 2,
      ids: ["fr-animals", "es-animals"],
    });
    expect(await search("query=animals&searchField=DESCRIPTION")).toEqual({
      total: 3,
      ids: ["fr-animals", "es-animals", "course-spanish"],
    });
    expect(await search("query=dog&searchField=CONTENTS")).toEqual({
      total: 2,
      ids: ["fr-animals", "es-animals"],
    });
    expect(await search("query=colours&searchField=TAGS")).toEqual({ total: 1, ids: ["es-colours"] });
    expect(await search("query=dog&searchField=NAME&searchField=TAGS")).toEqual({ total: 0, ids: [] });
    expect(await search("query=dog&searchField=NAME&searchField=CONTENTS")).toEqual({
      total: 2,
      ids: ["fr-animals", "es-animals"],
    });
  });

  it("ignores accents", async () => {
    expect(await search("query=pajaro&searchField=CONTENTS")).toEqual({ total: 1, ids: ["es-animals"] });
  });

  it("pages with resultStart and resultSize while total counts everything", async () => {
    expect(await search("query=spanish&resultStart=1&resultSize=1")).toEqual({
      total: 3,
      ids: ["course-spanish"],
    });
    expect(await search("query=spanish&resultStart=1")).toEqual({
      total: 3,
      ids: ["course-spanish", "es-colours"],
    });
    expect(await search("query=spanish&resultSize=2")).toEqual({
      total: 3,
      ids: ["es-animals", "course-spanish"],
    });
    expect(await search("query=spanish&resultSize=0")).toEqual({ total: 3, ids: [] });
    expect(await search("query=spanish&resultStart=9")).toEqual({ total: 3, ids: [] });
  });

  it("finds only store entries without a catalog", async () => {
    expect(await search("query=german")).toEqual({ total: 0, ids: [] });
  });

  it("lists a catalog by name without a query, and searches it with one", async () => {
    expect(await search("catalog=cat-business")).toEqual({ total: 2, ids: ["fr-animals", "de-business"] });
    expect(await search("catalog=cat-business&query=german")).toEqual({ total: 1, ids: ["de-business"] });
    expect(await search("catalog=cat-business&resultStart=1&resultSize=5")).toEqual({
      total: 2,
      ids: ["de-business"],
    });
  });

  it("answers query_missing without query and catalog", async () => {
    for (const path of [
      "/api/2/store",
      "/api/2.1/store",
      "/api/2.1/store?query=",
      "/api/2.1/store?searchField=NAME",
    ]) {
      const res = await ana("GET", path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ ID: "query_missing" });
    }
  });

  it("refuses DESCRIPTION and CONTENTS in a catalog search", async () => {
    const res = await ana("GET", "/api/2.1/store?catalog=cat-business&query=x&searchField=DESCRIPTION");
    expectRefused(res, 400, "search_field_not_supported", "searchField");
  });

  it("refuses unknown catalogs and users without access", async () => {
    const unknown = await ana("GET", "/api/2.1/store?catalog=nope");
    expectRefused(unknown, 404, "catalog_not_found");
    const denied = await bob("GET", "/api/2/store?catalog=cat-business");
    expectRefused(denied, 403, "catalog_access_denied");
  });
});
