import { API_VERSIONS, apiVersionOf, CURRENT_API_VERSION } from "@drill-practice/tooling/api-versions";
import { listOperations } from "@drill-practice/tooling/operations";
import { describe, expect, it } from "vitest";
import { loadBundle, operationsOf } from "./spec-fixtures.ts";

const full = loadBundle("openapi.json");
type Marked = {
  operationId: string;
  deprecated?: boolean;
  "x-retired"?: string;
  "x-observed"?: { source?: string; note?: string };
};
const operations = listOperations<Marked>(full);
const current = operations.filter(({ path }) => apiVersionOf(path) === CURRENT_API_VERSION);

describe("API 2.1.1, traced by its pages", () => {
  it("has operations, each suffixed _v2_1_1", () => {
    expect(current.length).toBeGreaterThan(0);
    for (const { operation } of current) expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+_v2_1_1$/);
  });

  it("names on every 2.1.1 operation its own 2.1.1 page, or other evidence, never another version's page", () => {
    for (const { operation } of current) {
      const { source = "", note = "" } = operation["x-observed"] ?? {};
      const where = operation.operationId;
      expect(note.trim().length, `${where}: the marker's note`).toBeGreaterThan(10);
      const page = /…\/api\/(2|2\.1|2\.1\.1)\//.exec(source)?.[1];
      if (page !== undefined) expect(page, `${where}: ${source}`).toBe(CURRENT_API_VERSION.id);
      else expect(source, `${where}: evidence other than a page`).toMatch(/\b(REF|SDK|LMS|BOT|TRAFFIC)\b/);
    }
  });

  it("bundles openapi-v2.1.1.json with only its operations and tags, plus token exchange and discovery", () => {
    const bundle = loadBundle("openapi-v2.1.1.json");
    const ids = operationsOf(bundle).map((o) => o.operationId);
    expect(ids.sort()).toEqual(
      [
        ...current.map(({ operation }) => operation.operationId),
        "exchangeToken",
        "getAuthorizationServerMetadata",
      ].sort(),
    );
    for (const tag of bundle.tags) {
      expect(tag.name.startsWith(CURRENT_API_VERSION.tagPrefix) || tag.name === "authentication").toBe(true);
    }
    expect(bundle.info).toMatchObject({ title: "Drill Practice Service API 2.1.1", version: "2.1.1" });
  });
});

describe("retired versions", () => {
  it("marks every operation of a retired version deprecated, with the date it was switched off", () => {
    const retired = API_VERSIONS.filter((version) => version.retired !== undefined);
    expect(retired.map((version) => version.id)).toEqual(["2.1", "2.0"]);
    for (const { path, operation } of operations) {
      const version = apiVersionOf(path);
      if (version?.retired) {
        expect(operation.deprecated, operation.operationId).toBe(true);
        expect(operation["x-retired"], operation.operationId).toBe(version.retired.date);
      } else expect(operation["x-retired"], operation.operationId).toBeUndefined();
    }
  });

  it("says in the description which version the service answers today and when the others stopped", () => {
    const description = String((full.info as { description?: string }).description).replace(/\s+/g, " ");
    expect(description).toContain("**2.1.1** under `/api/2.1.1/`, the version the service answers today");
    expect(description).toContain("removed on 1 March 2025");
    expect(description).toContain("switched off on 1 December 2023");
  });
});
