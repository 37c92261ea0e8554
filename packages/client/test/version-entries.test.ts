import { describe, expect, it } from "vitest";
import * as allVersions from "../src/index.js";
import * as pagination from "../src/pagination.js";
import * as v20 from "../src/v2.0.js";
import * as v211 from "../src/v2.1.1.js";
import * as v21 from "../src/v2.1.js";
import { BASE_URL, DRILLABLE, json, recordingFetch } from "./helpers.js";

const entries = { "2.1.1": v211, "2.1": v21, "2.0": v20 } as const;
// Plain records of each entry's exports, to compare them name by name.
const mainExports: Record<string, unknown> = { ...allVersions };

describe("one-version entries", () => {
  it.each(Object.entries(entries))(
    "%s shares every runtime export of the main entry but createDrillClient (one error class each)",
    (_version, entry) => {
      const exports: Record<string, unknown> = { ...entry };
      const shared = Object.keys(mainExports).filter(
        (name) => name !== "createDrillClient" && name !== "SCHEMA_NAMES",
      );
      expect(shared.length).toBeGreaterThan(10);
      for (const name of shared) {
        expect(exports[name], name).toBe(mainExports[name]);
      }
      expect(Object.keys(exports).sort()).toEqual([...shared, "createDrillClient"].sort());
    },
  );

  it("the 2.0 entry's client sends the request like the all-versions client", async () => {
    const recorder = recordingFetch(() => json({ total: 1, drills: [DRILLABLE] }));
    const client = v20.createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data } = await client.GET("/api/2/store", {
      params: { query: { query: "spanish verbs", searchField: ["NAME", "TAGS"] } },
    });
    expect(data?.drills[0]?.id).toBe(DRILLABLE.id);
    expect(recorder.requests).toHaveLength(1);
    const url = new URL(recorder.requests[0]?.url ?? "");
    expect(url.pathname).toBe("/api/2/store");
    expect(url.searchParams.getAll("searchField")).toEqual(["NAME", "TAGS"]);
  });

  it("the 2.1.1 entry's client calls a 2.1.1 path and reads its typed answer", async () => {
    const beacon = { id: "b_0000_0001", proximity: "FAR", lingerDuration: "PT5M", playable: DRILLABLE };
    const recorder = recordingFetch(() => json({ beacons: [beacon], total: 1 }));
    const client = v211.createDrillClient({ baseUrl: BASE_URL, fetch: recorder.fetch, retry: false });
    const { data } = await client.GET("/api/2.1.1/beacons", { params: { query: { query: "B747" } } });
    expect(data?.beacons?.[0]?.proximity).toBe("FAR");
    const url = new URL(recorder.requests[0]?.url ?? "");
    expect([url.pathname, url.searchParams.get("query")]).toEqual(["/api/2.1.1/beacons", "B747"]);
  });

  it("the 2.1 entry's throwing client rejects with the shared DrillApiError", async () => {
    const recorder = recordingFetch(() => json({ ID: "not_found" }, { status: 404 }));
    const client = v21.createDrillClient({
      baseUrl: BASE_URL,
      fetch: recorder.fetch,
      retry: false,
      throwOnError: true,
    });
    const failure = await client.GET("/api/2.1/version").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(allVersions.DrillApiError);
    expect(failure).toMatchObject({ status: 404, errorId: "not_found" });
  });

  it.each([
    ["2.1.1", "2.1"],
    ["2.1", "2.1.1"],
    ["2.1", "2.0"],
    ["2.0", "2.1"],
  ] as const)("the %s entry rejects version %s, naming the option", (version, other) => {
    const create = entries[version].createDrillClient as (options: object) => unknown;
    expect(() => create({ baseUrl: BASE_URL, version: other })).toThrow(allVersions.DrillInvalidOptionError);
    expect(() => create({ baseUrl: BASE_URL, version: other })).toThrow(
      `this entry is for API ${version}, got "${other}"`,
    );
    expect(() => create({ baseUrl: BASE_URL, version })).not.toThrow();
  });

  it("options are still validated (the entry adds no path of its own)", () => {
    expect(() => v21.createDrillClient({ baseUrl: "drill.example" })).toThrow(
      allVersions.DrillInvalidOptionError,
    );
    expect(() => v20.createDrillClient(null as unknown as { baseUrl: string })).toThrow(/options/);
  });

  it("pagination has its own entry and is no longer in the main one", () => {
    expect(Object.keys(pagination).sort()).toEqual(["paginateStore", "paginateStorePages"]);
    expect("paginateStore" in allVersions).toBe(false);
  });
});
