/**
 * The Try it panel's pure parts, on the real bundles: the table of operations (prefilled like the
 * samples, faithfulness from the sandbox), the request put together from a form, its copy as curl
 * and TypeScript through the samples' own writers, and the verdict on an answer.
 */
import { exampleAnsweredOperations, SIMULATED_OPERATIONS } from "@drill-practice/sandbox";
import { beforeAll, describe, expect, it } from "vitest";
import { curlSample, typescriptSample } from "../src/code-samples.ts";
import { sampleValues } from "../src/sample-values.ts";
import { apiVersions } from "../src/site-header.ts";
import { classify } from "../src/try-it/classify.ts";
import { tryItOperations } from "../src/try-it/operations.ts";
import type { TryItOperation } from "../src/try-it/protocol.ts";
import { buildRequest, encodeRequest, fieldKey, prefilledValues } from "../src/try-it/request.ts";
import { withoutProse } from "../src/try-it/sandbox-files.ts";
import { loadBundle } from "./helpers/site.ts";

let table: Map<string, TryItOperation>;

beforeAll(async () => {
  const bundles = await Promise.all(apiVersions.map((version) => loadBundle(version)));
  const answers = { simulated: SIMULATED_OPERATIONS, examples: await exampleAnsweredOperations() };
  const values = sampleValues(bundles);
  table = new Map(
    bundles.flatMap((bundle) => tryItOperations(bundle, values, answers)).map((op) => [op.operationId, op]),
  );
});

function operation(id: string): TryItOperation {
  const found = table.get(id);
  if (!found) throw new Error(`no ${id}`);
  return found;
}

describe("the table of operations", () => {
  it("reads each operation's faithfulness from the sandbox's exports", async () => {
    const examples = await exampleAnsweredOperations();
    for (const op of table.values()) {
      const expected =
        op.operationId in SIMULATED_OPERATIONS
          ? "simulated"
          : op.operationId in examples
            ? "example"
            : "not simulated";
      expect(op.faithfulness, op.operationId).toBe(expected);
    }
  });

  it("lists an operation's error identifiers, not the fields and warnings its prose names", () => {
    // The 2.1 group creation's error table.
    expect(operation("createGroup_v2_1").errorIds.sort()).toEqual(
      ["description_missing", "invalid_catalog_restriction_mode", "name_missing", "no_permission"].sort(),
    );
    // No table: the identifiers of its error answer's text, less its query fields `query` and `catalog`.
    expect(operation("searchStore_v2_0").errorIds.sort()).toEqual(["error", "query_missing"]);
    // The 428 answer's warnings are not errors; the table lists the errors.
    expect(operation("deleteDrillable_v2_1").errorIds).not.toContain("test_completed");
    // The shared error answer speaks of the error's `description` field, not of an error.
    const listing = [...table.values()].filter((op) => op.errorIds.includes("description"));
    expect(listing.map((op) => op.operationId)).toEqual([]);
  });

  it("marks required fields, offers enums as choices, and prefills the samples' values", () => {
    const search = operation("searchStore_v2_1");
    const query = search.fields.find((f) => f.name === "query");
    expect(query).toMatchObject({ in: "query", values: expect.arrayContaining([expect.any(String)]) });
    const searchField = search.fields.find((f) => f.name === "searchField");
    expect(searchField?.choices?.length).toBeGreaterThan(1);
    const course = operation("getCourse_v2_1").fields.find((f) => f.name === "course");
    expect(course).toMatchObject({ in: "path", required: true });
    const answer = operation("submitAnswer_v2_0");
    expect(answer.fields.find((f) => f.name === "reference")?.hint).toContain("reference");
    expect(answer.fields.find((f) => f.name === "answer")).toMatchObject({ in: "form", repeated: true });
  });
});

describe("buildRequest", () => {
  it("puts the path, the query and repeated form fields together as sent", () => {
    const op = operation("submitAnswer_v2_0");
    const values = prefilledValues(op);
    values.set(fieldKey({ in: "path", name: "reference" }), ["ref/1"]);
    values.set(fieldKey({ in: "form", name: "answer" }), ["one", "two", " "]);
    const built = buildRequest(op, values);
    if (!built.ok) throw new Error(built.problems.join("; "));
    expect(built.request.target).toBe("/api/2/answer/ref%2F1");
    expect(built.request.body).toEqual({
      form: [
        ["answer", "one"],
        ["answer", "two"],
      ],
    });
    // The curl and TypeScript copies are the samples' own writers on exactly these values.
    const curl = curlSample(built.sample);
    expect(curl).toContain("/api/2/answer/ref%2F1");
    expect(curl).toContain("--data-urlencode 'answer=one'");
    expect(curl).toContain("--data-urlencode 'answer=two'");
    expect(typescriptSample(built.sample)).toContain('"answer": ["one", "two"]');
  });

  it("refuses an empty required field and a value outside the choices, naming the field", () => {
    const op = operation("searchStore_v2_1");
    const values = prefilledValues(op);
    values.set(fieldKey({ in: "query", name: "searchField" }), ["nonsense"]);
    const built = buildRequest(op, values);
    expect(built.ok).toBe(false);
    if (!built.ok)
      expect(built.problems.join("\n")).toMatch(
        /^searchField \(query parameter\): "nonsense" is not one of /m,
      );
    const course = operation("getCourse_v2_1");
    const empty = buildRequest(course, new Map([[fieldKey({ in: "path", name: "course" }), [""]]]));
    expect(empty).toEqual({ ok: false, problems: ["course (path parameter): required"] });
  });
});

describe("classify", () => {
  const error = (id: string) => JSON.stringify({ id, ID: id, description: "d", message: "d" });

  it("tells a not-simulated answer, a documented error and a schema-valid answer apart", () => {
    const op = operation("addToRepertoire_v2_1");
    expect(classify(op, { status: 501, headers: [], body: error("not_simulated") }, "sandbox").kind).toBe(
      "not-simulated",
    );
    const listed = classify(op, { status: 400, headers: [], body: error("invalid_id") }, "sandbox");
    expect(listed).toEqual({
      kind: "documented-error",
      text: "Documented error `invalid_id`, listed for this operation.",
    });
    expect(classify(op, { status: 404, headers: [], body: error("not_found") }, "sandbox").text).toContain(
      "does not list",
    );
    expect(classify(op, { status: 200, headers: [], body: "{}" }, "sandbox").kind).toBe("schema-valid");
    // A success whose shape the interface does not show has no schema to be valid against.
    const shapeless = { ...op, successShape: "not shown" as const };
    expect(classify(shapeless, { status: 200, headers: [], body: "{}" }, "sandbox")).toEqual({
      kind: "documented-success",
      text: expect.stringContaining("no schema to check it against"),
    });
    expect(
      classify(op, { status: 500, headers: [], body: "{}", violation: "body/message: required" }, "sandbox")
        .kind,
    ).toBe("mismatch");
    // Your own server's answers are not checked against the schema, and the panel says so.
    expect(classify(op, { status: 200, headers: [], body: "{}" }, "server").kind).toBe("unchecked");
  });
});

describe("the sandbox's description as the worker fetches it", () => {
  it("leaves out the prose and keeps what the sandbox reads: examples, enums, property names, x-errors", () => {
    const schema = {
      type: "object",
      description: "A group.",
      properties: { description: { type: "string", description: "The group's own text." } },
      example: { description: "an example's field" },
      enum: ["description"],
      discriminator: { propertyName: "kind", mapping: { summary: "#/components/schemas/Summary" } },
    };
    const operation = {
      summary: "Get a group",
      description: "Long prose.",
      "x-observed": { note: "seen once" },
      "x-errors": { ids: [{ id: "no_permission", description: "kept: the sandbox reads x-errors" }] },
      "x-undocumented": ["paging"],
      responses: { "200": { description: "OK", content: { "application/json": { schema } } } },
    };
    expect(withoutProse(operation)).toEqual({
      "x-errors": operation["x-errors"],
      "x-undocumented": ["paging"],
      responses: {
        "200": {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { description: { type: "string" } },
                example: schema.example,
                enum: schema.enum,
                discriminator: schema.discriminator,
              },
            },
          },
        },
      },
    });
  });
});

describe("encodeRequest: what the panel and the worker send", () => {
  const base = { method: "PUT", target: "/api/2.1/x", authenticated: true, tokenExchange: false };

  it("sends form fields URL-encoded, repeated names kept, with the bearer token when given", () => {
    const { headers, body } = encodeRequest(
      {
        ...base,
        body: {
          form: [
            ["tag", "a b"],
            ["tag", "ü&="],
          ],
        },
      },
      "t0ken",
    );
    expect(headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(headers.get("authorization")).toBe("Bearer t0ken");
    expect(headers.get("accept")).toBe("application/json");
    expect(body).toBe("tag=a+b&tag=%C3%BC%26%3D");
    expect(new URLSearchParams(body).getAll("tag")).toEqual(["a b", "ü&="]);
  });

  it("sends a JSON body as written, and no authorization without a token", () => {
    const { headers, body } = encodeRequest({ ...base, body: { json: '{"name":"x"}' } });
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.has("authorization")).toBe(false);
    expect(body).toBe('{"name":"x"}');
  });

  it("puts a given form in place of the request's own (the worker's filled-in token exchange)", () => {
    const filled = new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer" });
    const { body } = encodeRequest({ ...base, tokenExchange: true, body: { form: [] } }, undefined, filled);
    expect(body).toBe("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer");
  });

  it("sends no body and no content type when the request has none", () => {
    const { headers, body } = encodeRequest({ ...base, method: "GET" });
    expect(body).toBeUndefined();
    expect(headers.has("content-type")).toBe(false);
  });
});
