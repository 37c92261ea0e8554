import { describe, expect, it } from "vitest";
import { addComponentNotes } from "../src/component-notes.ts";
import type { OpenApiDocument } from "../src/openapi-document.ts";
import { observedNoteHtml, undocumentedNoteHtml } from "../src/operation-notes.ts";

function input(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "T", version: "2.0" },
    paths: {},
    components: {
      schemas: {
        Drill: {
          type: "object",
          description: "A drill as the service answers it.",
          "x-undocumented": ["which fields are always present", "the `type` of `tags`"],
        },
        Bare: { type: "object", "x-undocumented": ["fields and types of this value"] },
        Plain: { type: "object", description: "Nothing left open." },
      },
      securitySchemes: {
        BearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "A token.",
          "x-undocumented": ["the header"],
        },
      },
    },
  };
}

describe("addComponentNotes", () => {
  it("puts the note in front of the description of each marked schema and scheme, and names them", () => {
    const { document, noted } = addComponentNotes(input());
    const schemas = (document.components as { schemas: Record<string, { description?: string }> }).schemas;
    expect(schemas.Drill?.description).toBe(
      `${undocumentedNoteHtml(["which fields are always present", "the `type` of `tags`"])}\n\nA drill as the service answers it.`,
    );
    expect(schemas.Drill?.description).toContain("the <code>type</code> of <code>tags</code>");
    // Without a description of its own the note is the description.
    expect(schemas.Bare?.description).toBe(undocumentedNoteHtml(["fields and types of this value"]));
    expect(schemas.Plain?.description).toBe("Nothing left open.");
    const schemes = (document.components as { securitySchemes: Record<string, { description?: string }> })
      .securitySchemes;
    expect(schemes.BearerAuth?.description).toBe(`${undocumentedNoteHtml(["the header"])}\n\nA token.`);
    expect(noted).toEqual(["schemas/Drill", "schemas/Bare", "securitySchemes/BearerAuth"]);
  });

  it("puts a schema's observed facts, its own and its properties', in one note on the schema, after the not-shown note", () => {
    const document = input();
    const schemas = (document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const own = { source: "REF …/api/2/objects/drill", note: "A drill has a name." };
    const field = { source: "SDK Api.java", note: "`tags` is a list." };
    Object.assign(schemas.Drill as object, {
      "x-observed": own,
      properties: {
        tags: { type: "array", "x-observed": field },
        // A referenced schema shows its own facts: not repeated here.
        owner: { $ref: "#/components/schemas/Plain" },
      },
    });
    (schemas.Plain as Record<string, unknown>)["x-observed"] = { source: "REF x", note: "Plain fact." };
    const { document: noted, observed } = addComponentNotes(document);
    const shown = (noted.components as { schemas: Record<string, { description?: string }> }).schemas;
    expect(shown.Drill?.description).toBe(
      `${undocumentedNoteHtml(["which fields are always present", "the `type` of `tags`"])}\n${observedNoteHtml([own, field])}\n\nA drill as the service answers it.`,
    );
    expect(shown.Plain?.description).toBe(
      `${observedNoteHtml([{ source: "REF x", note: "Plain fact." }])}\n\nNothing left open.`,
    );
    expect(observed).toEqual(["schemas/Drill", "schemas/Plain"]);
  });

  it("leaves its input untouched", () => {
    const original = input();
    const copy = structuredClone(original);
    addComponentNotes(original);
    expect(original).toEqual(copy);
  });

  it("refuses a malformed list, naming the component", () => {
    const bad = input();
    (bad.components as { schemas: Record<string, Record<string, unknown>> }).schemas.Bare = {
      "x-undocumented": [""],
    };
    expect(() => addComponentNotes(bad)).toThrow(
      'components/schemas/Bare: "x-undocumented"[0] must be a non-empty string',
    );
  });
});
