import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { asOpenApiDocument, listOperations, type OpenApiDocument } from "../src/openapi-document.ts";
import {
  addOperationNotes,
  observedFacts,
  observedLead,
  operationLabels,
  replaceOperationIds,
  sandboxLead,
  undocumentedLead,
} from "../src/operation-notes.ts";

const fixture = async (version: string): Promise<OpenApiDocument> =>
  asOpenApiDocument(
    JSON.parse(await readFile(join(import.meta.dirname, "fixtures", `openapi-v${version}.json`), "utf8")),
    version,
  );

const support = {
  simulated: { searchStore_v2_1: "store search, as `searchStore_v2_0`" },
  programmable: true,
};

function op(document: OpenApiDocument, id: string) {
  const entry = listOperations(document).find((e) => e.operation.operationId === id);
  if (!entry) throw new Error(id);
  return entry;
}

describe("replaceOperationIds", () => {
  it("names a 2.1.1 operation by method and path, not by a 2.1 prefix of its ID", () => {
    const labels = new Map([
      ["getGroup_v2_1", "GET /api/2.1/group/{group}"],
      ["getGroup_v2_1_1", "GET /api/2.1.1/group/{group}"],
    ]);
    expect(replaceOperationIds("as `getGroup_v2_1`, then `getGroup_v2_1_1`", labels)).toBe(
      "as `GET /api/2.1/group/{group}`, then `GET /api/2.1.1/group/{group}`",
    );
  });
});

describe("addOperationNotes", () => {
  it("gives each operation one block: not shown, observed (with sources), sandbox; in that order", async () => {
    const input = await fixture("2.1");
    const labels = operationLabels([input, await fixture("2.0")]);
    const { document, noted, observed } = addOperationNotes(input, support, labels);
    const store = op(document, "searchStore_v2_1").operation;
    const text = store.description ?? "";
    const positions = [undocumentedLead, observedLead, sandboxLead].map((lead) => text.indexOf(lead));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const lead of [undocumentedLead, observedLead, sandboxLead])
      expect(text.split(lead)).toHaveLength(2);
    expect(text).toContain('class="dp-note dp-note-observed"');
    expect(text).toContain(
      'Errors carry a <code>description</code> as well. (source: REF <a href="https://www.drillster.com/info/developers/api/2/objects/error">…/api/2/objects/error</a>)',
    );
    expect(text).toContain("Words are matched in any case. (source: SDK Api.java)");
    // The operationId in the sandbox's text became what a reader knows: method and path.
    expect(text).toContain("<code>GET /api/2/store</code>");
    expect(text).not.toContain("searchStore_v2_0");
    expect(noted).toContain("GET /api/2.1/store");
    expect(observed).toEqual(["GET /api/2.1/store"]);
  });

  it("says an operation the sandbox does not simulate answers 501 unless programmed", async () => {
    const { document } = addOperationNotes(await fixture("2.1"), support);
    const version = op(document, "getVersion_v2_1").operation.description ?? "";
    expect(version).toContain("<code>501</code> <code>not_simulated</code> unless you program a response");
    const plain = addOperationNotes(await fixture("2.1"), { ...support, programmable: false }).document;
    expect(op(plain, "getVersion_v2_1").operation.description).not.toContain("program");
  });

  it("says what the sandbox answers instead of 501 for an operation with an example answer", async () => {
    const examples = {
      getVersion_v2_1: "answers the example of its reference page (header `Drill-Sandbox-Example`)",
    };
    const { document } = addOperationNotes(await fixture("2.1"), { ...support, examples });
    const text = op(document, "getVersion_v2_1").operation.description ?? "";
    expect(text).toContain(
      "not simulated, but it answers the example of its reference page (header <code>Drill-Sandbox-Example</code>).",
    );
    expect(text).not.toContain("not_simulated");
  });

  it("links each reference page of an observed fact and names the page's version where it differs", async () => {
    const input = await fixture("2.1");
    const store = op(input, "searchStore_v2_1").operation;
    store["x-observed"] = {
      source: "REF …/api/2.1.1/endpoints/store/get; SDK Api.java",
      note: "The store answers a page of drills.",
      version: "2.1.1",
    };
    const text =
      op(addOperationNotes(input, support).document, "searchStore_v2_1").operation.description ?? "";
    expect(text).toContain(
      'The store answers a page of drills. (source: REF <a href="https://www.drillster.com/info/developers/api/2.1.1/endpoints/store/get">…/api/2.1.1/endpoints/store/get</a>; SDK Api.java, a page of API 2.1.1)',
    );
  });

  it("leaves the input alone, keeps the markers and drops internal wording from summaries", async () => {
    const input = await fixture("2.1");
    const before = JSON.stringify(input);
    const entry = op(input, "getVersion_v2_1");
    entry.operation.summary = "GET version (function not given)";
    const { document } = addOperationNotes(input, support);
    expect(op(document, "getVersion_v2_1").operation.summary).toBe("version");
    expect(op(document, "getVersion_v2_1").operation["x-undocumented"]).toEqual(
      entry.operation["x-undocumented"],
    );
    entry.operation.summary = JSON.parse(before).paths["/api/2.1/version"].get.summary;
    expect(JSON.stringify(input)).toBe(before);
  });

  it("rejects malformed markers, naming the operation", async () => {
    const input = await fixture("2.1");
    op(input, "getVersion_v2_1").operation["x-observed"] = { source: "", note: "x" };
    expect(() => addOperationNotes(input, support)).toThrow(
      /GET \/api\/2\.1\/version|version.*x-observed.*source/,
    );
    op(input, "getVersion_v2_1").operation["x-observed"] = undefined;
    op(input, "getVersion_v2_1").operation["x-undocumented"] = [];
    expect(() => addOperationNotes(input, support)).toThrow(/GET \/api\/2\.1\/version: "x-undocumented"/);
  });
});

describe("observedFacts", () => {
  it("collects facts of the operation, its parameters and request body through $refs, each note once, never a schema's", () => {
    const document = asOpenApiDocument(
      {
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/a": {
            put: {
              operationId: "a",
              "x-observed": { source: "S1", note: "form fields" },
              requestBody: { $ref: "#/components/requestBodies/Form" },
              responses: { default: { $ref: "#/components/responses/Error" } },
            },
          },
        },
        components: {
          requestBodies: {
            Form: {
              "x-observed": { source: "S2", note: "form fields" },
              content: {
                "application/x-www-form-urlencoded": { schema: { $ref: "#/components/schemas/F" } },
              },
            },
          },
          schemas: {
            F: {
              properties: {
                answer: { type: "string", "x-observed": { source: "S3", note: "answer field" } },
              },
            },
          },
          responses: { Error: { description: "e", "x-observed": { source: "S4", note: "error ids" } } },
        },
      },
      "inline",
    );
    const [entry] = listOperations(document);
    const facts = observedFacts(document, "/a", entry?.operation ?? {});
    // S3 is on the schema: the schema's own note shows it (addComponentNotes), not every operation's.
    expect(facts).toEqual([{ source: "S1", note: "form fields" }]);
  });

  it("gives each operation of the spec only the facts marked outside the schemas: on it, its parameters, body and answers", async () => {
    const bundlesDir = join(import.meta.dirname, "..", "..", "..", "spec", "dist");
    for (const version of ["2.1", "2.0"]) {
      const path = join(bundlesDir, `openapi-v${version}.json`);
      const bundle = asOpenApiDocument(JSON.parse(await readFile(path, "utf8")), path);
      // Every note marked somewhere other than under components/schemas.
      const outside = new Set<string>();
      const walk = (value: unknown, inSchemas: boolean): void => {
        if (typeof value !== "object" || value === null) return;
        for (const [key, child] of Object.entries(value)) {
          if (key === "x-observed" && !inSchemas) outside.add((child as { note: string }).note.trim());
          else walk(child, inSchemas);
        }
      };
      const { schemas, ...otherComponents } = (bundle.components ?? {}) as Record<string, unknown>;
      walk(bundle.paths, false);
      walk(otherComponents, false);
      expect(schemas).toBeDefined();
      let withFacts = 0;
      for (const { method, path: route, operation } of listOperations(bundle)) {
        const facts = observedFacts(bundle, route, operation);
        if (facts.length > 0) withFacts++;
        const strays = facts.filter((fact) => !outside.has(fact.note)).map((fact) => fact.note);
        expect(strays, `${method.toUpperCase()} ${route}`).toEqual([]);
      }
      expect(withFacts).toBeGreaterThan(10);
    }
    // The case that was reported: creating a group said what groups, playables and members look like.
    const bundle21 = asOpenApiDocument(
      JSON.parse(await readFile(join(bundlesDir, "openapi-v2.1.json"), "utf8")),
      "2.1",
    );
    const create = op(bundle21, "createGroup_v2_1");
    const notes = observedFacts(bundle21, create.path, create.operation).map((fact) => fact.note);
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatch(/^Creating a group /);
  });
});
