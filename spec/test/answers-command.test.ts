import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import { describe, expect, it } from "vitest";
import {
  type BundleDocument,
  classifyOperations,
  countByVersion,
  formatCounts,
} from "../scripts/answer-kinds.ts";
import { loadBundle, observedOperations, operationsOf } from "./spec-fixtures.ts";

const observed = { source: "REF …/api/2/objects/x", note: "Seen on the page." };
const json = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  description: "answer",
  ...extra,
  content: { "application/json": { schema } },
});
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** One operation of each kind, in both versions, plus the token exchange. */
const sample: BundleDocument = {
  paths: {
    "/api/2/user": {
      get: { operationId: "getUser_v2_0", responses: { "2XX": json(ref("schemas", "User")) } },
      put: {
        operationId: "updateUser_v2_0",
        requestBody: ref("requestBodies", "UserForm"),
        responses: { "2XX": json(ref("schemas", "Message"), { "x-observed": observed }) },
      },
      delete: { operationId: "deleteUser_v2_0", responses: { "204": { description: "gone" } } },
    },
    "/api/2.1/user": {
      get: { operationId: "getUser_v2_1", responses: { "2XX": ref("responses", "NotShown") } },
      put: {
        operationId: "updateUser_v2_1",
        requestBody: ref("requestBodies", "FormFields"),
        "x-errors": { source: observed.source, ids: [{ id: "not_found", status: 404 }] },
        responses: {
          "2XX": json(ref("schemas", "EmptyObject"), { "x-observed": observed }),
          "404": json(ref("schemas", "User")),
        },
      },
      post: {
        operationId: "upload_v2_1",
        requestBody: { content: { "multipart/form-data": { schema: ref("schemas", "MultipartBody") } } },
        responses: { "2XX": json({ type: "object", properties: { id: { type: "string" } } }) },
      },
    },
    "/daas/oauth/token": {
      post: {
        operationId: "exchangeToken",
        requestBody: {
          content: { "application/x-www-form-urlencoded": { schema: ref("schemas", "Token") } },
        },
        responses: { "200": json(ref("schemas", "Token")), default: json(ref("schemas", "User")) },
      },
    },
  },
  components: {
    schemas: {
      User: { type: "object", "x-observed": observed, properties: { id: { type: "string" } } },
      Message: { type: "object", properties: { description: { type: "string" } } },
      EmptyObject: { type: "object" },
      NotShown: {},
      MultipartBody: {},
      FormFields: { type: "object" },
      Token: { type: "object", properties: { access_token: { type: "string" } } },
      UserForm: { type: "object", properties: { name: { type: "string" } } },
    },
    responses: {
      NotShown: {
        description: "not shown",
        content: { "application/json": { schema: ref("schemas", "NotShown") } },
      },
    },
    requestBodies: {
      UserForm: {
        "x-observed": observed,
        content: { "application/x-www-form-urlencoded": { schema: ref("schemas", "UserForm") } },
      },
      FormFields: {
        content: { "application/x-www-form-urlencoded": { schema: ref("schemas", "FormFields") } },
      },
    },
  },
};

describe("the answers command's sorting", () => {
  const kinds = new Map(classifyOperations(sample).map((k) => [k.operationId, k]));
  const kind = (id: string) => {
    const found = kinds.get(id);
    if (!found) throw new Error(`no ${id}`);
    return found;
  };

  it("sorts success answers into fields, message-only, empty and open", () => {
    expect(kind("getUser_v2_0")).toMatchObject({
      answer: "fields",
      answerSchema: "User",
      answerObserved: true,
    });
    expect(kind("updateUser_v2_0")).toMatchObject({ answer: "message", answerObserved: true });
    expect(kind("deleteUser_v2_0")).toMatchObject({ answer: "empty", answerObserved: false });
    expect(kind("updateUser_v2_1")).toMatchObject({ answer: "empty", answerSchema: "EmptyObject" });
    expect(kind("getUser_v2_1")).toMatchObject({ answer: "open", answerObserved: false });
  });

  it("counts an inline answer schema that names fields, and reads only 2xx answers", () => {
    expect(kind("upload_v2_1")).toMatchObject({ answer: "fields", answerObserved: false });
    // Its 404 answers a User, which must not make the empty success answer a typed one.
    expect(kind("updateUser_v2_1").answer).toBe("empty");
    expect(kind("exchangeToken")).toMatchObject({ answer: "fields", answerSchema: "Token" });
  });

  it("counts request bodies other than the open form fields and the open upload as typed", () => {
    expect(kind("updateUser_v2_0")).toMatchObject({ typedRequest: true, requestObserved: true });
    expect(kind("exchangeToken")).toMatchObject({ typedRequest: true, requestObserved: false });
    expect(kind("updateUser_v2_1").typedRequest).toBe(false);
    expect(kind("upload_v2_1").typedRequest).toBe(false);
    expect(kind("getUser_v2_0").typedRequest).toBe(false);
  });

  it("counts per version, observed apart from the interface", () => {
    const [, v21, v20, auth] = countByVersion([...kinds.values()]);
    expect(v21).toEqual({
      version: "2.1",
      operations: 3,
      fields: { total: 1, observed: 0 },
      message: { total: 0, observed: 0 },
      empty: { total: 1, observed: 1 },
      typedRequests: { total: 0, observed: 0 },
      errorTables: { total: 1, observed: 1 },
    });
    expect(v20).toMatchObject({
      operations: 3,
      fields: { total: 1, observed: 1 },
      message: { total: 1, observed: 1 },
      empty: { total: 1, observed: 0 },
      typedRequests: { total: 1, observed: 1 },
    });
    expect(auth).toMatchObject({ operations: 1, fields: { total: 1, observed: 0 } });
    const table = formatCounts([v21, v20, auth].filter((v) => v !== undefined));
    expect(table).toMatch(
      /^answers naming fields +1 \(0 obs\., 1 if\.\) +1 \(1 obs\., 0 if\.\) +1 \(0 obs\., 1 if\.\) +3 \(1 obs\., 2 if\.\)$/m,
    );
  });

  it("refuses a $ref that points nowhere", () => {
    const broken: BundleDocument = {
      paths: { "/api/2/x": { get: { operationId: "x", responses: { "2XX": ref("responses", "Missing") } } } },
      components: {},
    };
    expect(() => classifyOperations(broken)).toThrow("#/components/responses/Missing points nowhere");
  });
});

describe("the answers command on the bundle", () => {
  const kinds = classifyOperations(loadBundle("openapi.json") as unknown as BundleDocument);

  it("sorts every operation and agrees with the markers of the bundle", () => {
    expect(kinds).toHaveLength(operationsOf(loadBundle("openapi.json")).length);
    const byId = new Map(kinds.map((k) => [k.operationId, k]));
    // Given by the interface: the token exchange's request and answer, the 2.0 question.
    expect(byId.get("exchangeToken")).toMatchObject({
      answer: "fields",
      typedRequest: true,
      requestObserved: false,
    });
    expect(byId.get("getQuestion_v2_0")).toMatchObject({ answer: "fields", answerObserved: false });
    // Observed: the 2.0 answer's form and reply, the 2.1 repertoire's message.
    expect(byId.get("submitAnswer_v2_0")).toMatchObject({
      answer: "fields",
      answerObserved: true,
      requestObserved: true,
    });
    expect(byId.get("addToRepertoire_v2_1")).toMatchObject({
      answer: "message",
      answerObserved: true,
      errorTable: true,
    });
    for (const k of kinds) {
      if (k.answer === "message") expect(k.answerSchema, k.operationId).toBe("Message");
      if (
        k.version === "2.1" &&
        k.answerSchema !== undefined &&
        !["Message", "EmptyObject"].includes(k.answerSchema)
      )
        expect(k.answerSchema, `${k.operationId}: a 2.0 shape never types a 2.1 operation`).toMatch(/_v2_1$/);
      if (k.version === "2.1.1")
        expect(
          k.answerSchema ?? "",
          `${k.operationId}: a 2.0 shape never types a 2.1.1 operation`,
        ).not.toMatch(/_v2_0$/);
    }
  });

  it("prints the counts from the command line", () => {
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const out = execFileSync(
      process.execPath,
      [tsx, fileURLToPath(new URL("../scripts/answers.ts", import.meta.url))],
      {
        encoding: "utf8",
      },
    );
    const expected = formatCounts(countByVersion(kinds));
    expect(out.trim()).toBe(expected);
    const perVersion = [...API_VERSIONS.map((v) => v.id), "auth"].map(
      (id) => kinds.filter((k) => k.version === id).length,
    );
    // The interface's operations and the observed ones beside them (inventory/observed-operations.json).
    const observed = (version: string) => observedOperations.filter((o) => o.version === version).length;
    expect(perVersion.slice(1)).toEqual([122 + observed("2.1"), 94 + observed("2.0"), 2]);
    expect(out).toMatch(new RegExp(`^operations +${perVersion.join(" +")} +${kinds.length}$`, "m"));
  });
});
