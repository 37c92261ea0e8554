import { describe, expect, it } from "vitest";
import { inventory, loadBundle, operationsOf } from "./spec-fixtures.ts";

const full = loadBundle("openapi.json");
const operations = operationsOf(full);
const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

describe("coverage of the interface's operations", () => {
  it("counts 218 operations: 122 of API 2.1, 94 of API 2.0, token exchange and discovery", () => {
    expect(inventory).toHaveLength(218);
    expect(inventory.filter((o) => o.version === "2.1")).toHaveLength(122);
    expect(inventory.filter((o) => o.version === "2.0")).toHaveLength(94);
    expect(inventory.filter((o) => o.version === null)).toHaveLength(2);
  });

  it("has exactly the inventory's operations in the full bundle, no more, no less", () => {
    const inSpec = new Map(operations.map((o) => [key(o), o.operationId]));
    const listed = new Map(inventory.map((o) => [key(o), o.operationId]));
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
      if (o.path.startsWith("/api/2.1/")) expect(o.operationId).toMatch(/^[a-z][A-Za-z]+_v2_1$/);
      else if (o.path.startsWith("/api/2/")) expect(o.operationId).toMatch(/^[a-z][A-Za-z]+_v2_0$/);
      else expect(o.operationId).toMatch(/^[a-z][A-Za-z]+$/);
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

describe("tags and versions", () => {
  it("tags every operation with exactly one tag of its own version", () => {
    for (const o of operations) {
      expect(o.tags, o.operationId).toHaveLength(1);
      const [tag] = o.tags ?? [];
      if (o.path.startsWith("/api/2.1/")) expect(tag).toMatch(/^v2\.1-/);
      else if (o.path.startsWith("/api/2/")) expect(tag).toMatch(/^v2\.0-/);
      else expect(tag).toBe("authentication");
    }
  });

  it("gathers each version's tags in its own tag group", () => {
    const groups = Object.fromEntries(full["x-tagGroups"].map((g) => [g.name, g.tags]));
    expect(Object.keys(groups)).toEqual(["API 2.1", "API 2.0", "Authentication"]);
    expect(groups["API 2.1"]?.every((t) => t.startsWith("v2.1-"))).toBe(true);
    expect(groups["API 2.0"]?.every((t) => t.startsWith("v2.0-"))).toBe(true);
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
      const expected = inventory.filter((o) => o.version === version || o.version === null).map(key);
      expect(ops.map(key).sort()).toEqual(expected.sort());
      expect(ops).toHaveLength(count + 2);
      const prefix = version === "2.1" ? "v2.1-" : "v2.0-";
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
