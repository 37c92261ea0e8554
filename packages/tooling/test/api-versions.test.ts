import { describe, expect, it } from "vitest";
import { API_VERSIONS, apiVersion, apiVersionOf, CURRENT_API_VERSION } from "../src/api-versions.js";

describe("API versions", () => {
  it("finds the version of a path by its prefix, 2.1.1 apart from 2.1", () => {
    expect(apiVersionOf("/api/2.1.1/beacons")?.id).toBe("2.1.1");
    expect(apiVersionOf("/api/2.1/beacons")?.id).toBe("2.1");
    expect(apiVersionOf("/api/2/store")?.id).toBe("2.0");
    expect(apiVersionOf("/daas/oauth/token")).toBeUndefined();
  });

  it("has one current version, listed first, and dates the retired ones", () => {
    expect(CURRENT_API_VERSION.id).toBe("2.1.1");
    expect(API_VERSIONS[0]).toBe(CURRENT_API_VERSION);
    expect(API_VERSIONS.filter((v) => v.retired).map((v) => [v.id, v.retired?.date])).toEqual([
      ["2.1", "2025-03-01"],
      ["2.0", "2023-12-01"],
    ]);
  });

  it("rejects an unknown version id, naming the known ones", () => {
    expect(apiVersion("2.0").prefix).toBe("/api/2/");
    expect(() => apiVersion("3")).toThrow('unknown API version "3": expected one of 2.1.1, 2.1, 2.0');
  });
});
