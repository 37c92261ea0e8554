import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { apiVersionOf, CURRENT_API_VERSION } from "@drill-practice/tooling/api-versions";
import { listOperations } from "@drill-practice/tooling/operations";
import { describe, expect, it } from "vitest";
import { loadBundle, observedOperations, operationsOf } from "./spec-fixtures.ts";

const full = loadBundle("openapi.json");
const components = full.components as unknown as Record<string, Record<string, Record<string, unknown>>>;
const schemas = full.components.schemas;
const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

interface Marker {
  where: string;
  value: unknown;
}

function markers(node: unknown, where: string, found: Marker[] = []): Marker[] {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) markers(item, `${where}/${index}`, found);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-observed") found.push({ where, value });
      else markers(value, `${where}/${key}`, found);
    }
  }
  return found;
}

type Operation = Record<string, unknown> & {
  operationId: string;
  requestBody?: { $ref?: string };
  responses: Record<string, { $ref?: string }>;
  "x-observed"?: { source: string; note: string };
  "x-undocumented"?: string[];
};
const rawOperations = listOperations<Operation>(full);
const byId = (id: string) => {
  const found = rawOperations.find((o) => o.operation.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const refName = (ref: string | undefined) => ref?.split("/").pop();
const bodyOf = (ref: string | undefined) =>
  components.requestBodies?.[refName(ref) ?? ""] as
    | { content: Record<string, { schema?: { $ref?: string }; encoding?: Record<string, unknown> }> }
    | undefined;

/** The kinds of source an observed fact may name (spec/README.md, "What the deployed service shows"). */
const SOURCE_KIND = /\b(REF|SDK|LMS|BOT|TRAFFIC)\b/;

describe("the x-observed convention", () => {
  const all = markers(full, "#");

  it("writes every marker as { source, note } naming one of the recorded sources, with version where it differs", () => {
    expect(all.length).toBeGreaterThan(80);
    for (const { where, value } of all) {
      const keys = Object.keys(value as object).sort();
      expect(
        [
          ["note", "source"],
          ["note", "source", "version"],
        ],
        where,
      ).toContainEqual(keys);
      const { source, note, version } = value as { source: unknown; note: unknown; version?: unknown };
      expect(typeof note === "string" && note.trim().length > 10, where).toBe(true);
      expect(typeof source === "string" && SOURCE_KIND.test(source), where).toBe(true);
      if (version !== undefined) expect(["2.0", "2.1", "2.1.1"], where).toContain(version);
    }
  });

  it("marks a fact seen on a page of another version with that version", () => {
    for (const { where, value } of all) {
      const { source, version } = value as { source: string; version?: string };
      const pageVersion = /…\/api\/(2|2\.1|2\.1\.1)\/(?:endpoints|objects)\//.exec(source)?.[1];
      const operationVersion =
        /^#\/paths\/~1api~1(2|2\.1|2\.1\.1)~1/.exec(where)?.[1] ??
        /^#\/components\/\w+\/[A-Za-z0-9]+_v(2_0|2_1|2_1_1)(?![A-Za-z0-9_])/
          .exec(where)?.[1]
          ?.replaceAll("_", ".")
          .replace(/^2\.0$/, "2");
      if (pageVersion === undefined || operationVersion === undefined) continue;
      const normalized = pageVersion === "2" ? "2.0" : pageVersion;
      const own = operationVersion === "2" ? "2.0" : operationVersion;
      if (normalized === own) expect(version, where).toBeUndefined();
      else expect(version, where).toBe(normalized);
    }
  });

  it("defines every source kind in spec/README.md, recorded traffic included", () => {
    for (const kind of ["REF", "SDK", "LMS", "BOT", "TRAFFIC"]) expect(readme).toContain(`**${kind}**`);
    // How a finding of traffic recorded against the real service becomes an observed fact.
    expect(readme).toMatch(/pnpm drift:record --target/);
    expect(readme).toMatch(/source: "TRAFFIC /);
  });

  it("gives one fact one wording, so that renderers can list it once", () => {
    const sourcesByNote = new Map<string, Set<string>>();
    for (const { value } of all) {
      const { source, note } = value as { source: string; note: string };
      sourcesByNote.set(note, (sourcesByNote.get(note) ?? new Set()).add(source));
    }
    for (const [note, sources] of sourcesByNote) expect(sources.size, note).toBe(1);
  });

  it("lists every marked component in spec/README.md", () => {
    const marked = new Set(
      all
        .map(({ where }) => /^#\/components\/(\w+)\/(\w+)/.exec(where))
        .filter((match) => match !== null)
        .map((match) => `${match[1]}/${match[2]}`),
    );
    expect(marked.size).toBeGreaterThanOrEqual(10);
    for (const name of marked) expect(readme, name).toContain(`\`${name}\``);
  });

  it("never marks what the interface itself states", () => {
    const error = schemas.ErrorResponse as { properties: Record<string, Record<string, unknown>> };
    expect(error.properties.ID).not.toHaveProperty("x-observed");
    expect(schemas.TokenRequest).not.toHaveProperty("x-observed");
    expect(byId("exchangeToken").operation).not.toHaveProperty("x-observed");
    expect(byId("searchStore_v2_0").operation).not.toHaveProperty("x-observed");
  });
});

interface ErrorTable {
  source: string;
  version?: string;
  truncated?: boolean;
  ids: { id: string; status?: number }[];
}

describe("error tables (x-errors)", () => {
  const tables = rawOperations.filter((o) => o.operation["x-errors"] !== undefined);
  const describedBy = (response: unknown) =>
    (response as { description?: string } | undefined)?.description ?? "";

  it("gives each table a reference page and well-formed, unique identifiers", () => {
    expect(tables.length).toBeGreaterThan(0);
    for (const { operation } of tables) {
      const table = operation["x-errors"] as ErrorTable;
      const id = operation.operationId;
      expect(
        Object.keys(table).every((key) => ["source", "version", "truncated", "ids"].includes(key)),
        id,
      ).toBe(true);
      expect(table.source, id).toMatch(/^REF …\/api\/(2|2\.1|2\.1\.1|oauth)\//);
      expect(table.ids.length, id).toBeGreaterThan(0);
      const names = table.ids.map((entry) => entry.id);
      expect(new Set(names).size, id).toBe(names.length);
      for (const entry of table.ids) {
        expect(entry.id, id).toMatch(/^[a-z0-9_]+$/);
        if (entry.status !== undefined) expect(entry.status >= 400 && entry.status < 600, id).toBe(true);
      }
    }
  });

  it("answers each status code a page gives with a response naming its identifiers, and lists the rest under default", () => {
    for (const { operation } of tables) {
      const table = operation["x-errors"] as ErrorTable;
      const id = operation.operationId;
      const statuses = new Set(
        table.ids.flatMap((entry) => (entry.status === undefined ? [] : [String(entry.status)])),
      );
      // A 4xx answer that carries its own x-observed is an observed answer, not an error (DELETE drillable's 428 warnings).
      const errorStatuses = Object.keys(operation.responses).filter(
        (key) =>
          /^[45]\d\d$/.test(key) && !(operation.responses[key] as Record<string, unknown>)["x-observed"],
      );
      expect(errorStatuses.sort(), id).toEqual([...statuses].sort());
      for (const entry of table.ids) {
        const response =
          entry.status === undefined
            ? operation.responses.default
            : operation.responses[String(entry.status)];
        expect(describedBy(response), `${id} ${entry.id}`).toContain(`\`${entry.id}\``);
        // The token exchange answers the record's OAuthError; every API operation its ErrorResponse.
        const errorResponse = id === "exchangeToken" ? "OAuthError" : "Error";
        if (entry.status !== undefined) expect(refName(response?.$ref), id).toBe(errorResponse);
      }
      if (table.truncated) expect(describedBy(operation.responses.default), id).toMatch(/cut/);
    }
  });

  it("never gives an error status code without a page that shows it", () => {
    for (const { operation } of rawOperations) {
      const coded = Object.keys(operation.responses).filter((key) => /^[45]\d\d$/.test(key));
      if (
        coded.length === 0 ||
        operation.operationId === "exchangeToken" ||
        operation.operationId.startsWith("searchStore")
      )
        continue;
      expect(operation["x-errors"], operation.operationId).toBeDefined();
    }
  });
});

describe("request bodies", () => {
  it("sends every PUT and POST body as form fields, only the drill upload as multipart", () => {
    const withBody = rawOperations.filter((o) => o.operation.requestBody !== undefined);
    // API 2.1.1 operations carry the marker of their own page instead (test/versions.test.ts).
    const ownPage = (path: string) => apiVersionOf(path)?.id === CURRENT_API_VERSION.id;
    // An observed operation beside the interface's carries the page that shows its path instead
    // (test/inventory.test.ts); the body's marker still says what the body is.
    const observedIds = new Set(observedOperations.map((o) => o.operationId));
    const observedBody = (o: { operation: { operationId?: string } }) =>
      observedIds.has(o.operation.operationId ?? "");
    // 77 of the interface's 2.1 and 2.0 operations; the observed ones that take a body come on top.
    expect(withBody.filter((o) => !ownPage(o.path) && !observedBody(o)).length).toBe(77);
    expect(
      withBody
        .filter(observedBody)
        .map((o) => o.operation.operationId)
        .sort(),
    ).toEqual([
      "addDrillToCourseAtPosition_v2_1",
      "addToRepertoireByDrillId_v2_0",
      "registerPushDeviceByPlatformAndAddress_v2_0",
      "updateClientAppByClientId_v2_0",
      "updateEmailAddressByEmail_v2_0",
      "updateGroupStaffByUserIdAndPermission_v2_0",
    ]);
    for (const { method, path, operation } of withBody) {
      expect(["put", "post"], operation.operationId).toContain(method);
      if (operation.operationId === "exchangeToken") continue;
      const body = bodyOf(operation.requestBody?.$ref);
      const types = Object.keys(body?.content ?? {});
      const expected = operation.operationId.startsWith("uploadDrill_v2_1")
        ? ["multipart/form-data"]
        : ["application/x-www-form-urlencoded"];
      expect(types, operation.operationId).toEqual(expected);
      // The operation's own marker: for a PUT the fact about the PUT itself, otherwise the body's fact
      // with the same note as the body's marker (a renderer lists identical notes once).
      const own = operation["x-observed"]?.note;
      const bodyNote = (body as unknown as { "x-observed"?: { note: string } })["x-observed"]?.note;
      expect(bodyNote, operation.operationId).toBeDefined();
      if (ownPage(path) || observedIds.has(operation.operationId)) continue;
      if (method === "put" && operation.operationId !== "submitAnswer_v2_0")
        expect(own, operation.operationId).toBe(
          "A PUT without parameters must still carry Content-Length: 0.",
        );
      else expect(own, operation.operationId).toBe(bodyNote);
    }
    expect(JSON.stringify(components.requestBodies)).not.toContain("application/json");
  });

  it("keeps the fields of the open form body unknown but lets lists through", () => {
    const form = schemas.FormFields as { type: string; additionalProperties: { anyOf: unknown[] } };
    expect(form.type).toBe("object");
    expect(JSON.stringify(form.additionalProperties.anyOf)).toContain('"type":"array"');
    expect(form).toHaveProperty("x-undocumented");
  });
});

describe("the 2.0 practice loop", () => {
  it("takes the answer as the form field answer, repeated for several values", () => {
    const { operation } = byId("submitAnswer_v2_0");
    const body = bodyOf(operation.requestBody?.$ref);
    const form = body?.content["application/x-www-form-urlencoded"];
    expect(form?.schema?.$ref).toBe("#/components/schemas/AnswerRequest");
    expect(form?.encoding?.answer).toEqual({ style: "form", explode: true });
    const request = schemas.AnswerRequest as { required: string[]; properties: { answer: unknown } };
    expect(request.required).toEqual(["answer"]);
    expect(JSON.stringify(request.properties.answer)).toMatch(/"type":"array"/);
  });

  it("replies with the 2.0 AnswerResponse, every top-level field optional", () => {
    const { operation } = byId("submitAnswer_v2_0");
    expect(refName(operation.responses["2XX"]?.$ref)).toBe("Answer");
    expect(Object.keys(schemas.AnswerResponse?.properties as object)).toEqual([
      "proficiency",
      "evaluation",
      "feedback",
      "notifications",
      "objectiveEvaluations",
      "progress",
    ]);
    expect(schemas.AnswerResponse).not.toHaveProperty("required");
    expect(schemas.Evaluation?.required).toEqual(["result", "termEvaluations"]);
    // Answers: the page's values are known, the field stays open (x-known-values, no enum).
    type Field = { enum?: string[]; "x-known-values"?: string[] };
    const evaluation = schemas.Evaluation?.properties as Record<string, Field>;
    expect(evaluation.result?.["x-known-values"]).toEqual(["CORRECT", "INCORRECT"]);
    expect(evaluation.timing?.["x-known-values"]).toEqual(["ON_TIME", "TOO_LATE"]);
    const term = schemas.TermEvaluation?.properties as Record<string, Field>;
    expect(term.result?.["x-known-values"]).toEqual(["CORRECT", "INCORRECT", "MISSED"]);
    for (const field of [evaluation.result, evaluation.timing, term.result])
      expect(field?.enum).toBeUndefined();
    expect(schemas.TermEvaluation?.required).toEqual(["value", "result"]);
  });

  it("gives Proficiency its range and a required overall", () => {
    expect(schemas.Proficiency?.required).toEqual(["overall"]);
    for (const field of Object.values(schemas.Proficiency?.properties as Record<string, object>)) {
      expect(field).toMatchObject({ type: "integer", minimum: 0, maximum: 100 });
    }
  });

  it("adds the optional context and timeLimit to the question", () => {
    const properties = schemas.Question?.properties as Record<string, Record<string, unknown>>;
    expect(properties.context).toHaveProperty("x-observed");
    expect(properties.timeLimit).toMatchObject({ type: "integer" });
    expect(properties.timeLimit).toHaveProperty("x-observed");
    expect(schemas.Question?.required ?? []).not.toContain("context");
    expect(schemas.Question?.required ?? []).not.toContain("timeLimit");
  });

  it("types the 2.1 answer and question with 2.1 shapes, never the 2.0 ones, the answer's form still open", () => {
    const schemaRef = (id: string) => {
      const success = byId(id).operation.responses["2XX"] as unknown as {
        content?: Record<string, { schema?: { $ref?: string } }>;
      };
      return refName(success.content?.["application/json"]?.schema?.$ref);
    };
    const answer = byId("submitAnswer_v2_1").operation;
    expect(schemaRef("submitAnswer_v2_1")).toBe("AnswerResponse_v2_1");
    expect(refName(answer.requestBody?.$ref)).toBe("FormFields");
    expect(schemaRef("getQuestion_v2_1")).toBe("QuestionResponse_v2_1");
    // The 2.1 reply names only what a 2.1.1 client reads; the 2.0 reply's other fields are not carried over.
    expect(Object.keys(schemas.AnswerResponse_v2_1?.properties as object)).toEqual([
      "proficiency",
      "evaluation",
    ]);
  });
});

describe("errors and the token header", () => {
  it("keeps the interface's ID and adds the observed id and description beside it", () => {
    // The interface requires ID; the record's ErrorResponse page requires id and description.
    expect(schemas.ErrorResponse?.required).toEqual(["ID", "id", "description"]);
    const properties = schemas.ErrorResponse?.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(["ID", "id", "description"]);
    expect(properties.id).toHaveProperty("x-observed");
    expect(properties.description).toHaveProperty("x-observed");
  });

  it("answers errors of every API operation with ErrorResponse", () => {
    for (const { path, operation } of rawOperations) {
      if (!path.startsWith("/api/")) continue;
      const ref = operation.responses.default?.$ref;
      if (ref === undefined) continue; // the store search describes its own errors inline
      expect(refName(ref), operation.operationId).toBe("Error");
    }
    const error = components.responses?.Error as {
      content: Record<string, { schema: { $ref: string } }>;
    };
    expect(error.content["application/json"]?.schema.$ref).toBe("#/components/schemas/ErrorResponse");
  });

  it("documents OAuth as a second, case-sensitive scheme word of the bearer scheme", () => {
    const scheme = components.securitySchemes?.BearerAuth as { scheme: string; description: string };
    expect(scheme.scheme).toBe("bearer");
    expect(scheme.description).toContain("OAuth <token>");
    expect(scheme.description).toMatch(/case-sensitive/);
    expect(scheme).toHaveProperty("x-observed");
  });

  it("answers token exchange errors as the record's OAuthError: id and description, invalid_request with 400", () => {
    const { operation } = byId("exchangeToken");
    expect(refName(operation.responses["400"]?.$ref)).toBe("OAuthError");
    expect(refName(operation.responses.default?.$ref)).toBe("OAuthError");
    expect(schemas.OAuthError?.required).toEqual(["id", "description"]);
    expect(operation["x-errors"]).toMatchObject({
      truncated: true,
      ids: [{ id: "invalid_request", status: 400 }],
    });
  });

  it("keeps the operations list helper in step with the raw paths", () => {
    expect(operationsOf(full).length).toBe(rawOperations.length);
  });
});
