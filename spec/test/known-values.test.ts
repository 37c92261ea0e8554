import { describe, expect, it } from "vitest";
import { loadBundle } from "./spec-fixtures.ts";

type Node = Record<string, unknown>;
const full = loadBundle("openapi.json") as unknown as Node;
const schemas = (full.components as { schemas: Record<string, Node> }).schemas;
const requestBodies = (full.components as { requestBodies: Record<string, Node> }).requestBodies;

/** Every node carrying `x-known-values`, with its JSON pointer. */
function marked(node: unknown, where: string, found: [string, Node][] = []): [string, Node][] {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) marked(item, `${where}/${index}`, found);
  } else if (node && typeof node === "object") {
    if ("x-known-values" in node) found.push([where, node as Node]);
    for (const [key, value] of Object.entries(node)) marked(value, `${where}/${key}`, found);
  }
  return found;
}

/** Names of the schemas a request body reaches, following `$ref`s. */
function requestSchemas(): Set<string> {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (node && typeof node === "object") {
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
        const name = ref.slice("#/components/schemas/".length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      }
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(requestBodies);
  for (const item of Object.values(full.paths as Record<string, Record<string, Node>>))
    for (const operation of Object.values(item)) visit(operation.requestBody);
  return reached;
}

describe("x-known-values: the values an answer's page lists, the field left open", () => {
  const all = marked(full, "#");

  it("marks the answer fields whose pages list values, in both versions", () => {
    const where = all.map(([pointer]) => pointer);
    for (const field of [
      "#/components/schemas/Beacon_v2_1/properties/proximity",
      "#/components/schemas/Playable_v2_1/properties/type",
      "#/components/schemas/Objective_v2_1/properties/type",
      "#/components/schemas/Preferences_v2_1/properties/direction",
      "#/components/schemas/Objective_v2_0/properties/type",
      "#/components/schemas/ClientApp_v2_0/properties/status",
      "#/components/schemas/Drillable/properties/type",
      "#/components/schemas/Evaluation/properties/result",
    ])
      expect(where).toContain(field);
    expect(all.length).toBeGreaterThanOrEqual(12);
  });

  it("gives the 2.0 objective type the three values of its page", () => {
    const type = (schemas.Objective_v2_0?.properties as Record<string, Node> | undefined)?.type;
    expect(type?.["x-known-values"]).toEqual(["PERMANENT", "ONEOFF", "TEST"]);
  });

  it("keeps each marked field an open string: no enum, unique values, each named in the description", () => {
    for (const [where, node] of all) {
      expect(node.type, where).toBe("string");
      expect(node, where).not.toHaveProperty("enum");
      expect(node, where).not.toHaveProperty("const");
      const values = node["x-known-values"] as unknown[];
      expect(Array.isArray(values) && values.length >= 2, where).toBe(true);
      expect(new Set(values).size, where).toBe(values.length);
      for (const value of values) {
        expect(typeof value, where).toBe("string");
        expect(String(node.description), where).toContain(`\`${String(value)}\``);
      }
    }
  });

  it("never marks a request field: fields a caller sends list their accepted values as an enum", () => {
    const requests = requestSchemas();
    expect(requests.has("CreateGroupForm_v2_1")).toBe(true);
    for (const [where] of all) {
      const name = /^#\/components\/schemas\/([^/]+)/.exec(where)?.[1];
      expect(name, where).toBeDefined();
      expect(requests.has(name ?? ""), where).toBe(false);
    }
    const mode = (schemas.CreateGroupForm_v2_1?.properties as Record<string, Node> | undefined)
      ?.catalogRestrictionMode;
    expect(mode?.enum).toEqual(["REQUIRE", "GRANT"]);
  });
});
