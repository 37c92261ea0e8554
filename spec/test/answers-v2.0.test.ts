import { listOperations } from "@drill-practice/tooling/operations";
import { describe, expect, it } from "vitest";
import { loadBundle } from "./spec-fixtures.ts";

// The API 2.0 answers typed from the service's 2.0 reference pages (x-observed), checked against the
// fields each page names. A typed answer that degrades to NotShown, or loses a field its page shows, fails.
const bundle = loadBundle("openapi-v2.0.json");
const components = bundle.components as unknown as Record<string, Record<string, Record<string, unknown>>>;
type Node = Record<string, unknown>;

const deref = (node: unknown): Node => {
  let current = node as Node;
  while (typeof current?.$ref === "string") {
    const [, kind, name] = (current.$ref as string).split("/").slice(1);
    current = components[kind as string]?.[name as string] as Node;
  }
  return current;
};
const operations = new Map<string, { method: string; path: string; operation: Node }>();
for (const { method, path, operation } of listOperations<Node>(bundle))
  operations.set(operation.operationId as string, { method, path, operation });
const op = (id: string) => {
  const found = operations.get(id);
  if (!found) throw new Error(`no operation ${id}`);
  return found.operation;
};
const success = (id: string) => {
  const responses = op(id).responses as Record<string, Node>;
  const status = ["200", "2XX", "204"].find((key) => key in responses);
  return { status, response: deref(responses[status as string]) };
};
const answerSchema = (id: string) => {
  const { response } = success(id);
  const media = (response.content as Record<string, Node> | undefined)?.["application/json"];
  return media ? deref(media.schema) : undefined;
};
/** Property names of a schema, following $ref, and the members of anyOf. */
const fieldsOf = (schema: Node | undefined): string[] => {
  if (!schema) return [];
  const own = Object.keys((schema.properties as object | undefined) ?? {});
  const members = ((schema.anyOf as Node[] | undefined) ?? []).flatMap((member) => {
    const resolved = deref(member);
    return resolved.type === "array" ? fieldsOf(deref(resolved.items)) : fieldsOf(resolved);
  });
  const items = schema.type === "array" ? fieldsOf(deref(schema.items)) : [];
  return [...own, ...members, ...items];
};

// operationId → fields the page's answer names (a selection: each must be present).
const named: Record<string, string[]> = {
  getOwnUser_v2_0: [
    "id",
    "name",
    "emailAddress",
    "memberSince",
    "avatar",
    "locale",
    "timeZone",
    "organization",
  ],
  getUser_v2_0: ["id", "name", "emailAddress", "organization"],
  updateOwnUser_v2_0: ["id", "type", "name", "emailAddress", "description", "timeZone"],
  addOrganizationStaff_v2_0: ["id", "name", "organization"],
  getSession_v2_0: ["locale", "user"],
  searchUsers_v2_0: ["total", "users"],
  listOrganizationStaff_v2_0: ["total", "users"],
  getOwnOrganization_v2_0: ["type", "id", "name", "emailAddress", "locale", "contract"],
  getOrganization_v2_0: ["type", "id", "name", "contract"],
  listOrganizations_v2_0: ["total", "users", "groupMemberQuota", "avatar"],
  getEmailAddress_v2_0: ["emailAddress", "primary", "address", "verified"],
  updateEmailAddress_v2_0: ["emailAddress", "primary"],
  listEmailAddresses_v2_0: ["total", "userEmailAddresses"],
  setPrimaryEmailAddress_v2_0: ["total", "userEmailAddresses"],
  updateDrill_v2_0: ["id", "type", "name", "subject", "description", "lastEdited"],
  createDrill_v2_0: ["id", "name", "type"],
  getDrillDetails_v2_0: [
    "id",
    "name",
    "subject",
    "type",
    "size",
    "description",
    "practice",
    "icon",
    "cover",
    "license",
  ],
  getTestQuestion_v2_0: ["question"],
  getTestResult_v2_0: [
    "completed",
    "correctlyAnswered",
    "drills",
    "includedColumnNames",
    "progress",
    "questions",
    "score",
  ],
  getTestResultFor_v2_0: ["completed", "score", "questions"],
  createGroup_v2_0: ["id", "name", "description", "drills", "members"],
  listGroupMembers_v2_0: ["id", "name", "description", "members"],
  listGroupObjectives_v2_0: ["id", "type", "reviewDate", "minimumProficiency", "drills"],
  updateGroupStaff_v2_0: ["group", "count", "groupStaffUsers"],
  revokeGroupStaff_v2_0: ["group", "count", "groupStaffUsers"],
  getGroupInvitation_v2_0: ["status", "user", "group"],
  respondToGroupInvitation_v2_0: ["status", "user", "group"],
  createCourse_v2_0: ["id", "type"],
  getGroupResults_v2_0: ["groupId", "averageProficiency", "averageDrillResults"],
  createClientApp_v2_0: ["id", "name", "secret", "redirectionEndpoint", "status"],
  // Typed by a 2.0 object page, or by the page of the same read in another form.
  getClientApp_v2_0: ["id", "name", "icon", "secret", "creator", "status"],
  updateClientApp_v2_0: ["id", "name", "redirectionEndpoint", "url"],
  listGroupStaff_v2_0: ["group", "total", "groupStaffUsers"],
  submitTestAnswer_v2_0: ["progress", "evaluation", "feedback"],
  getTestQuestionForTicket_v2_0: ["question"],
  getObjective_v2_0: ["id", "type", "reviewDate", "minimumProficiency", "drills"],
  // Lists whose wrapper no page shows: typed by their entries.
  listClientApps_v2_0: ["id", "name", "secret", "status"],
  listGroupInvitations_v2_0: ["status", "user", "group"],
  searchGroups_v2_0: ["id", "name", "description"],
  listObjectives_v2_0: ["id", "type", "reviewDate", "drills"],
};
const messages = ["addToRepertoire_v2_0", "addDrillToGroup_v2_0"];
const empty = ["removeFromRepertoire_v2_0"];
const noContent = [
  "removeOrganizationStaff_v2_0",
  "requestEmailVerification_v2_0",
  "registerPushDevice_v2_0",
];

describe("API 2.0 answers typed from the 2.0 reference pages", () => {
  it.each(Object.entries(named))("%s answers a schema with the fields its page names", (id, fields) => {
    const schema = answerSchema(id);
    expect(schema?.title, id).not.toBe("NotShown");
    const have = fieldsOf(schema);
    for (const field of fields) expect(have, `${id} ${field}`).toContain(field);
    expect(success(id).response["x-observed"], id).toBeDefined();
  });

  it("answers GET /api/2/user with User_v2_0, marked with the get-user page and its example", () => {
    const { status, response } = success("getOwnUser_v2_0");
    expect(status).toBe("2XX");
    expect(answerSchema("getOwnUser_v2_0")?.title).toBe("User_v2_0");
    expect((response["x-observed"] as Node).source).toBe("REF …/api/2/endpoints/get-user");
    const example = deref(
      (
        ((response.content as Record<string, Node>)["application/json"] as Node).examples as Record<
          string,
          Node
        >
      ).user,
    ).value as Node;
    expect(example).toMatchObject({
      id: "7OuHq-RcQO_snGWR58TnBw",
      name: "Phineas Flynn",
      emailAddress: "phineas@example.com",
    });
  });

  it("answers message-only, empty and 204 operations as their pages show", () => {
    for (const id of messages) expect(answerSchema(id)?.title, id).toBe("Message");
    for (const id of empty) expect(answerSchema(id)?.title, id).toBe("EmptyObject");
    for (const id of noContent) {
      const { status, response } = success(id);
      expect(status, id).toBe("204");
      expect(response.content, id).toBeUndefined();
      expect(response["x-observed"], id).toBeDefined();
    }
  });

  it("admits a bare list or an object holding it where no page shows a list's wrapper", () => {
    for (const id of [
      "listClientApps_v2_0",
      "listGroupInvitations_v2_0",
      "searchGroups_v2_0",
      "listObjectives_v2_0",
    ]) {
      const [array, object] = (answerSchema(id)?.anyOf ?? []) as Node[];
      expect(array?.type, id).toBe("array");
      expect(object, id).toMatchObject({ type: "object", additionalProperties: true });
      expect(String(answerSchema(id)?.["x-undocumented"]), id).toMatch(/wrapper/);
    }
  });

  it("keeps 2.0 shapes to 2.0 operations and versioned names", () => {
    const v21 = JSON.stringify(loadBundle("openapi-v2.1.json").components);
    for (const name of ["User_v2_0", "Session_v2_0", "GroupStaff_v2_0", "Actor_v2_0"])
      expect(v21).not.toContain(name);
    expect(
      Object.keys(components.schemas ?? {}).filter((n) => /_v2_0$/.test(n)).length,
    ).toBeGreaterThanOrEqual(25);
  });

  it("gives the 2.0 GroupStaff its group as a string and the permission MANAGE or VIEW", () => {
    const staff = deref({ $ref: "#/components/schemas/GroupStaff_v2_0" });
    const properties = staff.properties as Record<string, Node>;
    expect(properties.group?.type).toBe("string");
    expect(staff.required).toEqual(["group"]);
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(["total", "count"]));
    const entry = ((properties.groupStaffUsers as Node).items as Node).properties as Record<string, Node>;
    expect(entry.permission?.["x-known-values"]).toEqual(["MANAGE", "VIEW"]);
  });

  it("accepts minimumProficiency as the page's object says (integer) and as its example writes it (string)", () => {
    const objective = deref({ $ref: "#/components/schemas/Objective_v2_0" });
    expect((objective.properties as Record<string, Node>).minimumProficiency?.type).toEqual([
      "integer",
      "string",
    ]);
  });
});

describe("API 2.0 request forms", () => {
  const forms: Record<string, { fields: string[]; required: string[] }> = {
    updateOwnUser_v2_0: {
      fields: ["name", "locale", "timeZone", "description", "yearOfBirth", "domicile"],
      required: [],
    },
    updateDrill_v2_0: { fields: ["name", "subject", "description", "contentLanguage"], required: [] },
    createDrill_v2_0: {
      fields: ["name", "subject", "description", "tags"],
      required: ["name", "subject", "description"],
    },
    createClientApp_v2_0: {
      fields: ["name", "description", "redirectionEndpoint", "url", "iconKey"],
      required: ["name", "redirectionEndpoint"],
    },
    respondToGroupInvitation_v2_0: { fields: ["action"], required: ["action"] },
    createGroup_v2_0: { fields: ["name", "description"], required: ["name", "description"] },
    addOrganizationStaff_v2_0: { fields: ["name"], required: [] },
    createCourse_v2_0: { fields: ["name", "description"], required: ["name", "description"] },
    defineTest_v2_0: {
      fields: ["drill", "title", "instructions", "disclosure", "direction", "style"],
      required: ["drill"],
    },
  };
  it.each(Object.entries(forms))("%s takes the form fields its page lists", (id, { fields, required }) => {
    const body = deref(op(id).requestBody);
    const media = (body.content as Record<string, Node>)["application/x-www-form-urlencoded"] as Node;
    const schema = deref(media.schema);
    expect(Object.keys(schema.properties as object)).toEqual(fields);
    expect((schema.required as string[] | undefined) ?? []).toEqual(required);
    expect(schema.additionalProperties, id).toBe(true);
    expect(body["x-observed"], id).toBeDefined();
  });

  it("takes the repeated tags of POST drills as a list, one form field per tag, in the 2.0 bundle too", () => {
    for (const file of ["openapi.json", "openapi-v2.0.json"] as const) {
      const bundle = loadBundle(file);
      const components = bundle.components as unknown as Record<string, Record<string, Node>>;
      const body = components.requestBodies?.CreateDrillForm_v2_0 as Node;
      const media = (body.content as Record<string, Node>)["application/x-www-form-urlencoded"] as Node;
      expect(media.encoding).toEqual({ tags: { style: "form", explode: true } });
      const schema = bundle.components.schemas.CreateDrillForm_v2_0 as unknown as Node;
      expect((schema.properties as Record<string, Node>).tags).toMatchObject({
        type: "array",
        items: { type: "string" },
      });
    }
  });

  it("takes the repertoire's observed query parameters, searchField repeated", () => {
    const parameters = (op("listRepertoire_v2_0").parameters as Node[]).map(deref);
    expect(parameters.map((p) => p.name)).toEqual([
      "query",
      "searchField",
      "resultStart",
      "resultSize",
      "sortField",
    ]);
    expect(parameters[1]).toMatchObject({ style: "form", explode: true });
    expect(answerSchema("listRepertoire_v2_0")?.title).toBe("NotShown");
  });

  it("takes the observed query parameters of the 2.0 lists", () => {
    for (const id of [
      "searchUsers_v2_0",
      "listOrganizationStaff_v2_0",
      "listOrganizations_v2_0",
      "listGroupMembers_v2_0",
    ]) {
      const parameters = (op(id).parameters as Node[]).map(deref).filter((p) => p.in === "query");
      expect(
        parameters.map((p) => p.name),
        id,
      ).toEqual(["query", "resultStart", "resultSize"]);
      for (const parameter of parameters) expect(parameter["x-observed"], id).toBeDefined();
    }
  });
});

describe("API 2.0 error tables", () => {
  const coded: Record<string, Record<string, string[]>> = {
    updateEmailAddress_v2_0: {
      "400": ["invalid_user_id", "missing_input", "email_not_added", "invalid_email_address"],
      "401": ["not_authenticated"],
      "403": ["no_access"],
      "404": ["nonexistent_user"],
      "409": ["email_address_in_use"],
    },
    removeOrganizationStaff_v2_0: {
      "401": ["no_access"],
      "403": ["cannot_demote_self"],
      "404": ["organization_not_found", "not_found"],
    },
    createClientApp_v2_0: { "400": ["invalid_name", "invalid_redirection_uri"] },
    registerPushDevice_v2_0: {
      "400": ["no_platform_specified", "unsupported_platform", "no_token_specified"],
    },
  };
  it.each(Object.entries(coded))("%s answers each status its page gives", (id, statuses) => {
    const responses = op(id).responses as Record<string, Node>;
    for (const [status, ids] of Object.entries(statuses))
      for (const error of ids)
        expect(responses[status]?.description, `${id} ${status}`).toContain(`\`${error}\``);
  });

  it("says where a stored page cuts an error table", () => {
    for (const id of ["addOrganizationStaff_v2_0", "updateDrill_v2_0", "updateGroupStaff_v2_0"]) {
      expect((op(id)["x-errors"] as Node).truncated, id).toBe(true);
      expect((op(id)["x-undocumented"] as string[]).join(" "), id).toMatch(/cut/);
    }
  });

  it("lists identifiers without codes under default, never inventing one", () => {
    const responses = op("createDrill_v2_0").responses as Record<string, Node>;
    expect(Object.keys(responses).filter((key) => /^[45]/.test(key))).toEqual([]);
    expect(responses.default?.description).toContain("`subject_equal_to_name`");
  });
});
