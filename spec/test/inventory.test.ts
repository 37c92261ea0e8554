import { API_VERSIONS, apiVersion, apiVersionOf } from "@drill-practice/tooling/api-versions";
import { describe, expect, it } from "vitest";
import { inventory, loadBundle, observedOperations, operationsOf } from "./spec-fixtures.ts";

const full = loadBundle("openapi.json");
const operations = operationsOf(full);
/**
 * The versions the interface lists (2.1 and 2.0). API 2.1.1 is not in the interface: its
 * operations are traced by their reference pages instead (test/versions.test.ts).
 */
const INVENTORIED = new Set(["2.1", "2.0"]);
const inventoried = operations.filter((o) => {
  const version = apiVersionOf(o.path);
  return version === undefined || INVENTORIED.has(version.id);
});
const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
/** The reference pages' site; a marker's source writes it as `…` (spec/README.md, `x-observed`). */
const REFERENCE_SITE = "https://www.drillster.com/info/developers";
const sourceOf = (page: string) => `REF ${page.replace(REFERENCE_SITE, "…")}`;

describe("coverage of the interface's operations", () => {
  it("counts 218 operations: 122 of API 2.1, 94 of API 2.0, token exchange and discovery", () => {
    expect(inventory).toHaveLength(218);
    expect(inventory.filter((o) => o.version === "2.1")).toHaveLength(122);
    expect(inventory.filter((o) => o.version === "2.0")).toHaveLength(94);
    expect(inventory.filter((o) => o.version === null)).toHaveLength(2);
  });

  it("has exactly the inventory's operations and the listed observed ones in the full bundle, no more, no less (2.1.1 apart)", () => {
    const inSpec = new Map(inventoried.map((o) => [key(o), o.operationId]));
    const listed = new Map([...inventory, ...observedOperations].map((o) => [key(o), o.operationId]));
    const missing = [...listed.keys()].filter((k) => !inSpec.has(k));
    const extra = [...inSpec.keys()].filter((k) => !listed.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    expect(Object.fromEntries(inSpec)).toEqual(Object.fromEntries(listed));
  });

  it("lists every method + path once in the inventory", () => {
    const keys = inventory.map(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("gives every operation a unique operationId that names its version", () => {
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) {
      const suffix = apiVersionOf(o.path)?.operationSuffix ?? "";
      expect(o.operationId).toMatch(new RegExp(`^[a-z][A-Za-z]+${suffix}$`));
    }
  });

  it("keeps the listed path wherever the spec path differs, with a recorded reason", () => {
    for (const entry of inventory.filter((o) => o.listedPath !== o.path)) {
      const isEllipsis = entry.listedPath.includes("…") || entry.listedPath.includes("<");
      expect(isEllipsis || entry.note, `${entry.operationId} needs a note`).toBeTruthy();
      const operation = operations.find((o) => o.operationId === entry.operationId);
      expect(operation?.description).toContain(entry.listedPath);
    }
  });

  it("summarizes each operation with the interface's function where it gives one", () => {
    for (const entry of inventory) {
      const operation = operations.find((o) => o.operationId === entry.operationId);
      expect(operation?.summary, entry.operationId).toBeTruthy();
      if (entry.function && entry.version) {
        expect(operation?.description, entry.operationId).toContain(`"${entry.function}"`);
      }
    }
  });
});

describe("observed operations beside the interface's", () => {
  const interfaceOperation = (id: string) => inventory.find((o) => o.operationId === id);

  it("lists each observed operation once, none of them an operation of the interface", () => {
    const keys = observedOperations.map(key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of observedOperations) {
      expect(interfaceOperation(entry.operationId), entry.operationId).toBeUndefined();
      expect(inventory.map(key), entry.operationId).not.toContain(key(entry));
    }
  });

  it("names for each observed operation the reference page that shows its path, and marks the operation with it", () => {
    for (const entry of observedOperations) {
      expect(entry.page, `${entry.operationId}: its page`).toMatch(new RegExp(`^${REFERENCE_SITE}/api/`));
      const operation = operations.find((o) => o.operationId === entry.operationId) as
        | { "x-observed"?: { source?: string } }
        | undefined;
      expect(operation?.["x-observed"]?.source, entry.operationId).toBe(sourceOf(entry.page));
    }
  });

  it("stands each beside an operation of the interface: same version and method, the interface's path with further segments", () => {
    for (const entry of observedOperations) {
      const beside = interfaceOperation(entry.beside);
      expect(beside, `${entry.operationId} beside ${entry.beside}`).toBeDefined();
      expect(beside?.version).toBe(entry.version);
      expect(beside?.method).toBe(entry.method);
      // The interface's path may end in a slash (`/api/2/user/{user}/email-address/`); the segments follow it.
      const prefix = `${beside?.path.replace(/\/$/, "")}/`;
      expect(entry.path.startsWith(prefix) && entry.path.length > prefix.length, entry.operationId).toBe(
        true,
      );
      expect(apiVersionOf(entry.path)?.id).toBe(entry.version);
      // The reader of the observed operation learns that the interface does not list it, and which one it does.
      const operation = operations.find((o) => o.operationId === entry.operationId);
      expect(operation?.description, entry.operationId).toContain(
        `Not in the interface's ${entry.version} list: an observed operation beside \`${entry.beside}\``,
      );
    }
  });
});

describe("tags and versions", () => {
  it("tags every operation with exactly one tag of its own version", () => {
    for (const o of operations) {
      expect(o.tags, o.operationId).toHaveLength(1);
      const [tag = ""] = o.tags ?? [];
      const version = apiVersionOf(o.path);
      if (version) expect(tag.startsWith(version.tagPrefix), `${o.operationId}: ${tag}`).toBe(true);
      else expect(tag).toBe("authentication");
    }
  });

  it("gathers each version's tags in its own tag group", () => {
    const groups = Object.fromEntries(full["x-tagGroups"].map((g) => [g.name, g.tags]));
    // The version the service answers today comes first.
    expect(Object.keys(groups)).toEqual([...API_VERSIONS.map((v) => v.tagGroup), "Authentication"]);
    for (const version of API_VERSIONS) {
      expect(groups[version.tagGroup]?.every((t) => t.startsWith(version.tagPrefix))).toBe(true);
    }
    const grouped = Object.values(groups).flat();
    expect(new Set(grouped)).toEqual(new Set(full.tags.map((t) => t.name)));
  });

  it.each([
    ["openapi-v2.1.json", "2.1", 122],
    ["openapi-v2.0.json", "2.0", 94],
  ] as const)(
    "bundles %s with only API %s operations plus token exchange and discovery",
    (file, version, count) => {
      const bundle = loadBundle(file);
      const ops = operationsOf(bundle);
      const observed = observedOperations.filter((o) => o.version === version);
      const expected = [
        ...inventory.filter((o) => o.version === version || o.version === null),
        ...observed,
      ].map(key);
      expect(ops.map(key).sort()).toEqual(expected.sort());
      expect(ops).toHaveLength(count + observed.length + 2);
      const prefix = apiVersion(version).tagPrefix;
      for (const tag of bundle.tags)
        expect(tag.name.startsWith(prefix) || tag.name === "authentication").toBe(true);
      for (const name of [
        "ServiceAccountKeyFile",
        "AssertionHeader",
        "AssertionClaims",
        "AccessTokenResponse",
      ]) {
        expect(bundle.components.schemas[name], name).toBeDefined();
      }
    },
  );
});

describe("security", () => {
  it("requires the bearer scheme on every API operation and none on token exchange and discovery", () => {
    expect(full.security).toEqual([{ BearerAuth: [] }]);
    for (const o of operations) {
      if (o.path.startsWith("/api/")) expect(o.security, o.operationId).toBeUndefined();
      else expect(o.security, o.operationId).toEqual([]);
    }
  });
});
