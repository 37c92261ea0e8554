import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { asOpenApiDocument, listOperations, type OpenApiDocument } from "../src/openapi-document.ts";
import { addUndocumentedNotes, undocumentedNote, undocumentedNoteLead } from "../src/undocumented-notes.ts";

async function fixture(): Promise<OpenApiDocument> {
  const path = join(import.meta.dirname, "fixtures", "openapi-v2.1.json");
  return asOpenApiDocument(JSON.parse(await readFile(path, "utf8")), path);
}

function operation(document: OpenApiDocument, path: string, method = "get") {
  const found = listOperations(document).find((entry) => entry.path === path && entry.method === method);
  if (!found) throw new Error(`fixture has no ${method} ${path}`);
  return found.operation;
}

describe("undocumentedNote", () => {
  it("renders a Markdown blockquote naming every unknown item", () => {
    expect(undocumentedNote(["request body", "status codes"])).toBe(
      `> **${undocumentedNoteLead}** request body, status codes.`,
    );
  });
});

describe("addUndocumentedNotes", () => {
  it("prepends the note to the description of each marked operation and keeps the marker", async () => {
    const input = await fixture();
    const { document, noted } = addUndocumentedNotes(input);

    expect(noted).toEqual(["GET /api/2.1/store", "GET /api/2.1/version"]);
    const version = operation(document, "/api/2.1/version");
    expect(version.description).toBe(
      `${undocumentedNote(["response body", "error format", "status codes"])}\n\nReturns the backend API version.`,
    );
    expect(version["x-undocumented"]).toEqual(["response body", "error format", "status codes"]);
    // No description before: the note becomes the description.
    expect(operation(document, "/api/2.1/store").description).toBe(
      undocumentedNote(["error format", "status codes"]),
    );
  });

  it("leaves operations without the marker alone", async () => {
    const input = await fixture();
    const { document } = addUndocumentedNotes(input);
    expect(operation(document, "/daas/oauth/token", "post")).toEqual(
      operation(input, "/daas/oauth/token", "post"),
    );
  });

  it("does not modify its input", async () => {
    const input = await fixture();
    const before = structuredClone(input);
    addUndocumentedNotes(input);
    expect(input).toEqual(before);
  });

  it("does not stack notes when run twice", async () => {
    const once = addUndocumentedNotes(await fixture()).document;
    const twice = addUndocumentedNotes(once).document;
    expect(twice).toEqual(once);
  });

  it("notes the document's own description when info carries the marker", async () => {
    const input = await fixture();
    input.info["x-undocumented"] = ["rate limits"];
    const { document, notedInfo } = addUndocumentedNotes(input);
    expect(notedInfo).toBe(true);
    expect(document.info.description).toBe(
      `${undocumentedNote(["rate limits"])}\n\nA tiny fixture for the docs build tests.`,
    );
    expect(addUndocumentedNotes(await fixture()).notedInfo).toBe(false);
  });

  it.each([
    ["an empty list", []],
    ["a string", "response body"],
    ["a list with a number", ["response body", 3]],
    ["a list with a blank entry", ["response body", "  "]],
  ])("rejects %s as marker, naming the operation", async (_label, marker) => {
    const input = await fixture();
    operation(input, "/api/2.1/store")["x-undocumented"] = marker;
    expect(() => addUndocumentedNotes(input)).toThrow(/^GET \/api\/2\.1\/store: "x-undocumented"/);
  });
});
