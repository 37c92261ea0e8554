import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../src/openapi-document.ts";
import { redocDefinition } from "../src/redoc-definition.ts";

const observed = { source: "REF …/api/2/objects/user", note: "Bodies are form fields." };

function input(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "T", version: "2.0", "x-undocumented": ["status codes"], "x-logo": { url: "logo.svg" } },
    tags: [{ name: "a", "x-displayName": "Group A" }],
    "x-tagGroups": [{ name: "API", tags: ["a"] }],
    paths: {
      "/api/2/user": {
        parameters: [{ $ref: "#/components/parameters/User" }],
        get: {
          operationId: "getUser",
          tags: ["a"],
          "x-undocumented": ["errors"],
          "x-observed": observed,
          "x-errors": [{ id: "ERR_X" }],
          "x-codeSamples": [{ lang: "curl", source: "curl x", "x-observed": "kept: sample data" }],
          responses: {
            "200": {
              description: "ok",
              headers: { "x-request-id": { schema: { type: "string", "x-observed": observed } } },
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/User/properties/name" },
                  examples: { one: { value: { "x-observed": "an example's field" } } },
                },
              },
            },
          },
        },
      },
      // Only path-level parameters: Redoc shows nothing of it.
      "/api/2.1/user/{user}": { parameters: [{ name: "user", in: "path", required: true }] },
    },
    components: {
      schemas: {
        User: {
          type: "object",
          "x-undocumented": ["which fields are always present"],
          properties: {
            name: { type: "string", enum: ["x-a"], "x-observed": observed },
            "x-legacy": { type: "string", default: { "x-b": 1 } },
          },
        },
        Unused: { type: "string" },
      },
      parameters: {
        User: { name: "user", in: "query", schema: { type: "string" } },
        Other: { name: "o", in: "query" },
      },
      securitySchemes: { BearerAuth: { type: "http", scheme: "bearer", "x-observed": observed } },
    },
  };
}

describe("redocDefinition", () => {
  it("drops the markers the notes already render, keeps what Redoc reads and every data value", () => {
    const out = redocDefinition(input());
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/"x-(undocumented|observed|errors)":\{|"x-(undocumented|observed|errors)":\[/);
    expect(out.info).toEqual({ title: "T", version: "2.0", "x-logo": { url: "logo.svg" } });
    expect(out.tags).toEqual([{ name: "a", "x-displayName": "Group A" }]);
    expect(out["x-tagGroups"]).toEqual([{ name: "API", tags: ["a"] }]);
    const get = out.paths?.["/api/2/user"]?.get as Record<string, unknown>;
    expect(Object.keys(get).sort()).toEqual(["operationId", "responses", "tags", "x-codeSamples"]);
    // Code samples and examples are shown as they are, whatever keys they hold.
    expect(get["x-codeSamples"]).toEqual([
      { lang: "curl", source: "curl x", "x-observed": "kept: sample data" },
    ]);
    const ok = (get.responses as Record<string, Record<string, unknown>>)["200"];
    expect(ok?.content).toEqual({
      "application/json": {
        schema: { $ref: "#/components/schemas/User/properties/name" },
        examples: { one: { value: { "x-observed": "an example's field" } } },
      },
    });
    // A header or property named x-… is a name, not an extension.
    expect(ok?.headers).toEqual({ "x-request-id": { schema: { type: "string" } } });
    expect((out.components as Record<string, unknown>).schemas).toEqual({
      User: {
        type: "object",
        properties: {
          name: { type: "string", enum: ["x-a"] },
          "x-legacy": { type: "string", default: { "x-b": 1 } },
        },
      },
    });
  });

  it("drops path items without an operation and components nothing shown refers to", () => {
    const out = redocDefinition(input());
    expect(Object.keys(out.paths ?? {})).toEqual(["/api/2/user"]);
    const components = out.components as Record<string, Record<string, unknown>>;
    expect(Object.keys(components.parameters ?? {})).toEqual(["User"]);
    expect(Object.keys(components.schemas ?? {})).toEqual(["User"]);
    // Requirements name security schemes rather than $ref them: all stay (without markers).
    expect(components.securitySchemes).toEqual({ BearerAuth: { type: "http", scheme: "bearer" } });
  });

  it("shows a form's named fields only, without an 'any additional property' row", () => {
    const doc = input();
    const schemas = (doc.components as Record<string, Record<string, unknown>>).schemas ?? {};
    schemas.Form = {
      type: "object",
      properties: {
        name: { type: "string" },
        meta: { type: "object", properties: {}, additionalProperties: true },
      },
      additionalProperties: true,
    };
    schemas.Bag = { type: "object", additionalProperties: true };
    schemas.Strict = { type: "object", properties: { id: { type: "string" } }, additionalProperties: false };
    const get = doc.paths?.["/api/2/user"]?.get as { responses: Record<string, unknown> };
    get.responses["201"] = {
      description: "refs",
      content: {
        "application/json": {
          schema: {
            oneOf: ["Form", "Bag", "Strict"].map((name) => ({ $ref: `#/components/schemas/${name}` })),
          },
        },
      },
    };
    const out = redocDefinition(doc);
    const kept = (out.components as Record<string, Record<string, Record<string, unknown>>>).schemas ?? {};
    expect(kept.Form).toEqual({
      type: "object",
      properties: { name: { type: "string" }, meta: { type: "object", properties: {} } },
    });
    // A map without named fields stays open; a closed one stays closed.
    expect(kept.Bag).toEqual({ type: "object", additionalProperties: true });
    expect(kept.Strict?.additionalProperties).toBe(false);
  });

  it("leaves its input untouched", () => {
    const original = input();
    const copy = structuredClone(original);
    redocDefinition(original);
    expect(original).toEqual(copy);
  });
});
