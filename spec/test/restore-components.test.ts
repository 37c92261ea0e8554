import { describe, expect, it } from "vitest";
import { restoreComponents } from "../scripts/restore-components.ts";
import { loadBundle } from "./spec-fixtures.ts";

describe("per-version bundles", () => {
  it("put back what the tag filter drops from a schema with a field named tags", () => {
    const full = {
      paths: {},
      components: {
        schemas: {
          Form: {
            type: "object",
            properties: { name: { type: "string" }, tags: { $ref: "#/components/schemas/Tags" } },
          },
          Tags: { type: "array", items: { type: "string" } },
        },
      },
    };
    const filtered = {
      paths: { "/x": { post: { requestBody: { $ref: "#/components/requestBodies/F" } } } },
      components: { schemas: { Form: { type: "object" } }, requestBodies: { F: { description: "kept" } } },
    };
    const restored = restoreComponents(filtered, full) as typeof full & typeof filtered;
    expect(restored.components.schemas.Form).toEqual(full.components.schemas.Form);
    expect(restored.components.schemas.Tags).toEqual(full.components.schemas.Tags);
    expect(restored.components.requestBodies.F).toEqual({ description: "kept" });
    expect(restored.paths).toBe(filtered.paths);
  });

  it("names a component that neither bundle has", () => {
    const filtered = { paths: { "/x": { get: { $ref: "#/components/responses/Gone" } } }, components: {} };
    expect(() => restoreComponents(filtered, { components: {} })).toThrow(/responses\/Gone/);
  });

  it.each(["openapi-v2.1.json", "openapi-v2.0.json"] as const)(
    "%s carries the full bundle's text of every component it has",
    (file) => {
      const full = loadBundle("openapi.json").components as unknown as Record<
        string,
        Record<string, unknown>
      >;
      const version = loadBundle(file).components as unknown as Record<string, Record<string, unknown>>;
      for (const [kind, entries] of Object.entries(version))
        for (const [name, value] of Object.entries(entries))
          expect(value, `${kind}/${name}`).toEqual(full[kind]?.[name]);
    },
  );

  it.each(["openapi-v2.1.json", "openapi-v2.0.json"] as const)(
    "%s carries the full bundle's text of every operation it has",
    (file) => {
      const full = loadBundle("openapi.json").paths as Record<string, Record<string, unknown>>;
      const version = loadBundle(file).paths as Record<string, Record<string, unknown>>;
      let operations = 0;
      for (const [path, item] of Object.entries(version))
        for (const [method, operation] of Object.entries(item)) {
          operations++;
          expect(operation, `${method} ${path}`).toEqual(full[path]?.[method]);
        }
      expect(operations).toBeGreaterThan(90);
    },
  );
});
