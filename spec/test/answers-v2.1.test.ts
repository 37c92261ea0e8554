import { listOperations } from "@drill-practice/tooling/operations";
import { describe, expect, it } from "vitest";
import { loadBundle, operationsOf } from "./spec-fixtures.ts";

// API 2.1 answers typed from the service's 2.1 pages, or from 2.1.1 pages for the same method and path.
const full = loadBundle("openapi.json");
const components = full.components as unknown as Record<string, Record<string, Record<string, unknown>>>;
const schemas = full.components.schemas;
const operations = operationsOf(full);
type Node = Record<string, unknown>;
const byId = (id: string) => {
  const found = operations.find((o) => o.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found as unknown as Node & { responses: Record<string, Node>; parameters?: Node[] };
};
const refName = (ref: unknown) => (typeof ref === "string" ? ref.split("/").pop() : undefined);
const successOf = (id: string) => {
  const responses = byId(id).responses;
  const key = Object.keys(responses).find((k) => /^2/.test(k));
  if (!key) throw new Error(`${id} has no success answer`);
  return { status: key, response: responses[key] as Node };
};
const schemaOf = (id: string) => {
  const content = successOf(id).response.content as
    | Record<string, { schema?: { $ref?: string } }>
    | undefined;
  return refName(content?.["application/json"]?.schema?.$ref);
};
const propertiesOf = (name: string) => Object.keys((schemas[name]?.properties ?? {}) as object);

/** The practice preferences' fields: the store form takes the very fields the answers show. */
const PREFERENCES = ["direction", "style", "unknownColumns", "useIntroductions", "autoAdvancement"];

// operationId → the component its page names, and the fields the page shows for it.
const named: [string, string, string[]][] = [
  ["searchGroups_v2_1", "Groups_v2_1", ["total", "groups"]],
  [
    "getGroup_v2_1",
    "Group_v2_1",
    ["id", "name", "description", "counts", "icon", "created", "lastEdited", "organization"],
  ],
  ["createGroup_v2_1", "Group_v2_1", ["id", "name", "description"]],
  ["updateGroup_v2_1", "Group_v2_1", ["id", "name", "description"]],
  ["listGroupMembers_v2_1", "GroupMembers_v2_1", ["members", "counts", "pagination"]],
  ["listGroupDrillables_v2_1", "Group_v2_1", ["id", "name", "description", "drillables"]],
  ["listOrganizationGroups_v2_1", "Groups_v2_1", ["groups", "pagination"]],
  ["listGroupStaff_v2_1", "GroupStaff_v2_1", ["group", "count", "groupStaffUsers"]],
  ["updateGroupStaffPermissions_v2_1", "GroupStaff_v2_1", ["group", "count", "groupStaffUsers"]],
  ["revokeGroupStaffPermission_v2_1", "GroupStaff_v2_1", ["group", "count", "groupStaffUsers"]],
  ["respondToGroupInvitation_v2_1", "GroupInvitation_v2_1", ["status", "user", "group"]],
  [
    "getTestResult_v2_1",
    "TestResult_v2_1",
    [
      "userId",
      "subject",
      "style",
      "score",
      "started",
      "completed",
      "size",
      "correctlyAnswered",
      "progress",
      "includedColumnNames",
      "drills",
    ],
  ],
  ["listTests_v2_1", "Tests_v2_1", ["total", "open", "completed", "tests"]],
  ["getTestQuestion_v2_1", "QuestionResponse_v2_1", ["question"]],
  ["listObjectives_v2_1", "Objectives_v2_1", ["total", "objectives"]],
  ["addDrillToCourse_v2_1", "Course_v2_1", ["id", "type"]],
  ["createCourse_v2_1", "Course_v2_1", ["id", "type"]],
  ["updateCourse_v2_1", "Course_v2_1", ["id", "type"]],
  ["createDrill_v2_1", "Drill_v2_1", ["id", "name", "type"]],
  ["updateDrill_v2_1", "Drill_v2_1", ["id", "type", "name", "subject", "description", "lastEdited"]],
  ["mergeDrills_v2_1", "Drill_v2_1", ["id"]],
  [
    "getPlayable_v2_1",
    "Playable_v2_1",
    ["type", "id", "name", "icon", "cover", "compatibility", "creator", "owner"],
  ],
  ["storeAppreciation_v2_1", "Rating_v2_1", ["points", "score"]],
  ["postReview_v2_1", "Review_v2_1", ["timestamp", "reviewer", "content"]],
  ["getReception_v2_1", "Reception_v2_1", ["popularity", "appreciation", "difficulty"]],
  [
    "getProficiencyChart_v2_1",
    "ProficiencyChart_v2_1",
    ["users", "singular", "incomplete", "average", "extremes", "individuals"],
  ],
  ["storePracticePreferences_v2_1", "Preferences_v2_1", PREFERENCES],
  [
    "getOwnUser_v2_1",
    "User_v2_1",
    ["id", "name", "emailAddress", "avatar", "locale", "timeZone", "organization"],
  ],
  ["getUser_v2_1", "User_v2_1", ["id", "name", "emailAddress", "memberSince", "biography"]],
  [
    "updateOwnUser_v2_1",
    "User_v2_1",
    ["id", "name", "locale", "timeZone", "description", "yearOfBirth", "domicile", "status"],
  ],
  ["setPrimaryEmailAddress_v2_1", "UserEmailAddresses_v2_1", ["total", "userEmailAddresses"]],
  ["listEmailAddresses_v2_1", "UserEmailAddresses_v2_1", ["total", "userEmailAddresses"]],
  ["addEmailAddress_v2_1", "UserEmailAddress_v2_1", ["emailAddress", "primary"]],
  ["getEmailAddress_v2_1", "EmailAddress_v2_1", ["address", "verified"]],
  [
    "getOwnOrganization_v2_1",
    "Organization_v2_1",
    ["type", "id", "name", "emailAddress", "locale", "contract"],
  ],
  ["getOrganization_v2_1", "Organization_v2_1", ["type", "id", "name", "emailAddress", "locale", "contract"]],
  ["listOrganizationStaff_v2_1", "Actors_v2_1", ["total", "users"]],
  ["getBeacon_v2_1", "Beacon_v2_1", ["id", "proximity", "lingerDuration", "description", "playable"]],
  ["listBeacons_v2_1", "Beacons_v2_1", ["beacons", "total"]],
  // Typed by a same-version object page (2.1, or 2.1.1 for the revision of 2.1).
  [
    "getTest_v2_1",
    "Test_v2_1",
    ["id", "name", "drills", "direction", "style", "group", "testType", "instructions", "disclosure"],
  ],
  [
    "getRendition_v2_1",
    "Practice_v2_1",
    ["proficiency", "highestProficiency", "eventualProficiency", "timeSpent", "expectedDuration", "added"],
  ],
  ["getPracticePreferences_v2_1", "Preferences_v2_1", PREFERENCES],
  ["getSession_v2_1", "Session_v2_1", ["locale", "login"]],
  ["getClientApp_v2_1", "ClientApp_v2_1", ["id", "name", "icon", "secret", "creator", "status"]],
  ["updateClientApp_v2_1", "ClientApp_v2_1", ["id", "name", "redirectionEndpoint", "url"]],
  ["createClientApp_v2_1", "ClientApp_v2_1", ["id", "name", "secret", "redirectionEndpoint"]],
  // Typed by a sibling operation's answer, or by the entries of a list.
  ["getCourse_v2_1", "Course_v2_1", ["id", "type"]],
  ["removeDrillFromCourse_v2_1", "Course_v2_1", ["id", "type"]],
  ["getReview_v2_1", "Review_v2_1", ["timestamp", "reviewer", "content"]],
  ["getAppreciation_v2_1", "Rating_v2_1", ["points", "score"]],
  [
    "getObjective_v2_1",
    "Objective_v2_1",
    ["id", "type", "reviewDate", "minimumProficiency", "evaluation", "playables"],
  ],
];

describe("API 2.1 answers that name the fields their page shows", () => {
  it.each(named)("%s answers %s with the page's fields", (id, schema, fields) => {
    expect(schemaOf(id)).toBe(schema);
    expect(propertiesOf(schema)).toEqual(expect.arrayContaining(fields));
    expect(schemas[schema]?.additionalProperties, schema).not.toBe(false);
    const marker = successOf(id).response["x-observed"] as { source: string; version?: string };
    expect(marker.source).toMatch(/^REF …\/api\/2\.1(\.1)?\/(endpoints|objects)\//);
    expect(marker.version === undefined || marker.version === "2.1.1", id).toBe(true);
  });

  it("counts at least 50 typed 2.1 answers, apart from message-only and empty ones", () => {
    expect(named.length).toBeGreaterThanOrEqual(50);
    expect(schemaOf("addDrillToGroup_v2_1")).toBe("Message");
    expect(schemaOf("storeBeacon_v2_1")).toBe("EmptyObject");
    expect(schemaOf("completeTest_v2_1")).toBe("EmptyObject");
  });

  it("types a list whose wrapper no page shows by its entries, admitting a bare list or an object", () => {
    const lists: [string, string, string][] = [
      ["listOwnClientApps_v2_1", "ClientAppList_v2_1", "ClientApp_v2_1"],
      ["listClientApps_v2_1", "ClientAppList_v2_1", "ClientApp_v2_1"],
      ["listReviews_v2_1", "ReviewList_v2_1", "Review_v2_1"],
    ];
    for (const [id, list, entry] of lists) {
      expect(schemaOf(id), id).toBe(list);
      const [array, object] = (schemas[list]?.anyOf ?? []) as Node[];
      expect(refName((array?.items as Node | undefined)?.$ref), id).toBe(entry);
      expect(object).toMatchObject({ type: "object", additionalProperties: true });
      expect(object).not.toHaveProperty("properties");
      expect(String(schemas[list]?.["x-undocumented"]), id).toMatch(/wrapper/);
      expect(successOf(id).response["x-observed"], id).toBeDefined();
    }
  });

  it("types the practice status by the Practice page: proficiency and the two durations required", () => {
    expect(schemas.Practice_v2_1?.required).toEqual(["proficiency", "timeSpent", "expectedDuration"]);
    const practice = schemas.Practice_v2_1?.properties as Record<string, Node>;
    expect(refName(practice.proficiency?.$ref)).toBe("Proficiency_v2_1");
    expect(practice.timeSpent).toMatchObject({ type: "integer" });
    expect(schemas.Test_v2_1?.required).toEqual(["id", "name", "drills"]);
    expect(schemas.ClientApp_v2_1?.required).toEqual(["id", "name"]);
    expect(schemas.Evaluation_v2_1?.required).toEqual(["result", "termEvaluations"]);
  });

  it("gives question time limits as ISO 8601 durations, unlike 2.0's seconds", () => {
    const question = schemas.Question_v2_1?.properties as Record<string, Node>;
    expect(question.timeLimit).toMatchObject({ type: "string", format: "duration" });
    expect(question.remainingTestTime).toMatchObject({ type: "string", format: "duration" });
    expect(question.questionsInTest).toMatchObject({ deprecated: true });
    expect(schemas.Question_v2_1?.required).toEqual(["reference", "ask", "tell"]);
    expect((schemas.Question?.properties as Record<string, Node> | undefined)?.timeLimit).toMatchObject({
      type: "integer",
    });
  });

  it("keeps GroupStaff's group an object with an id in 2.1", () => {
    const staff = schemas.GroupStaff_v2_1?.properties as Record<string, Node>;
    expect(staff.group).toMatchObject({ type: "object", properties: { id: { type: "string" } } });
  });

  it("requires only the fields that every example of the record carries", () => {
    expect(schemas.User_v2_1?.required).toEqual(["id", "name"]);
    expect(schemas.Playable_v2_1?.required).toEqual(["type", "id", "name", "icon"]);
    expect(schemas.Actors_v2_1).not.toHaveProperty("required");
    expect(schemas.Tests_v2_1?.required).toEqual(["total"]);
  });

  it("states the success code only where the page states it", () => {
    expect(successOf("setPrimaryEmailAddress_v2_1").status).toBe("200");
    expect(successOf("addEmailAddress_v2_1").status).toBe("200");
    expect(successOf("deleteDrillable_v2_1").status).toBe("204");
    expect(successOf("deleteDrillable_v2_1").response).not.toHaveProperty("content");
    expect(successOf("getEmailAddress_v2_1").status).toBe("200");
    expect(successOf("publishPlayable_v2_1").status).toBe("204");
    expect(successOf("requestEmailVerification_v2_1").status).toBe("204");
    expect(successOf("getGroup_v2_1").status).toBe("2XX");
  });

  it("answers DELETE drillable's warnings as a 428 with the Warnings schema, not as an error", () => {
    const warnings = byId("deleteDrillable_v2_1").responses["428"] as Node;
    const content = warnings.content as Record<string, { schema: { $ref: string } }>;
    expect(refName(content["application/json"]?.schema.$ref)).toBe("Warnings_v2_1");
    expect(warnings).toHaveProperty("x-observed");
    for (const id of ["part_of_course", "part_of_group", "test_completed", "test_defined"])
      expect(String(warnings.description)).toContain(`\`${id}\``);
    const parameter = byId("deleteDrillable_v2_1").parameters?.find((p) => p.name === "ignoreWarnings");
    expect(parameter).toMatchObject({ in: "query", schema: { type: "boolean" } });
  });
});

describe("API 2.1 error tables", () => {
  const table = (id: string) =>
    byId(id)["x-errors"] as { source: string; truncated?: boolean; ids: { id: string; status?: number }[] };

  it("takes each operation's own page's code for an ID that has two", () => {
    const status = (id: string, error: string) => table(id).ids.find((e) => e.id === error)?.status;
    expect(status("getPlayable_v2_1", "no_permission")).toBe(401);
    expect(status("getGroup_v2_1", "no_permission")).toBe(403);
    expect(status("getTestQuestion_v2_1", "internal_error")).toBe(400);
    expect(status("getBeacon_v2_1", "internal_error")).toBe(500);
  });

  it("marks the tables cut where the stored page ends, and lists IDs without codes as such", () => {
    for (const id of [
      "updateDrill_v2_1",
      "getProficiencyChart_v2_1",
      "respondToGroupInvitation_v2_1",
      "listBeacons_v2_1",
      "storeBeacon_v2_1",
      "updateGroupStaffPermissions_v2_1",
      "updateGroup_v2_1",
      "uploadDrill_v2_1",
    ])
      expect(table(id).truncated, id).toBe(true);
    expect(table("createDrill_v2_1").ids.every((e) => e.status === undefined)).toBe(true);
    expect(table("createDrill_v2_1")).not.toHaveProperty("truncated");
  });
});

describe("API 2.1 typed requests", () => {
  const formOf = (id: string) => {
    const body = components.requestBodies?.[
      refName((byId(id).requestBody as Node | undefined)?.$ref) ?? ""
    ] as
      | { content: Record<string, { schema: { $ref: string }; encoding?: Record<string, unknown> }> }
      | undefined;
    const form = body?.content["application/x-www-form-urlencoded"];
    return { form, schema: schemas[refName(form?.schema.$ref) ?? ""] as Node & { required?: string[] } };
  };
  const forms: [string, string[], string[]][] = [
    ["createGroup_v2_1", ["name", "description"], ["catalogRestriction", "catalogRestrictionMode"]],
    ["createDrill_v2_1", ["name", "subject", "description"], ["tags"]],
    ["updateDrill_v2_1", [], ["name", "subject", "description", "contentLanguage"]],
    ["mergeDrills_v2_1", ["source"], []],
    ["createCourse_v2_1", ["name", "description"], []],
    ["updateCourse_v2_1", [], ["iconKey", "coverKey", "name", "description"]],
    ["postReview_v2_1", ["content"], ["appreciation"]],
    ["storePracticePreferences_v2_1", [], PREFERENCES],
    ["storeBeacon_v2_1", ["playableType", "playableId", "proximity", "lingerDuration"], ["description"]],
    ["respondToGroupInvitation_v2_1", ["action"], []],
    [
      "updateOwnUser_v2_1",
      [],
      ["name", "locale", "timeZone", "description", "yearOfBirth", "domicile", "status"],
    ],
    [
      "updateGroup_v2_1",
      ["name", "description"],
      ["iconKey", "catalogRestriction", "catalogRestrictionMode", "catalogRestrictionRemove"],
    ],
    [
      "defineTest_v2_1",
      ["drills", "name"],
      [
        "instructions",
        "disclosures",
        "direction",
        "style",
        "questions",
        "columns",
        "tags",
        "weights",
        "adaptive",
        "timeLimit",
        "startDrill",
        "allowQuestionNavigation",
        "allowUnansweredQuestions",
      ],
    ],
    ["addGroupMember_v2_1", [], ["setup", "sendWelcomeEmail", "name", "locale"]],
    ["publishPlayable_v2_1", ["catalog"], ["position"]],
    [
      "createUser_v2_1",
      ["name"],
      ["emailAddress", "locale", "yearOfBirth", "timeZone", "domicile", "options"],
    ],
  ];

  it.each(forms)(
    "%s takes the form fields its page names, required where it says so",
    (id, required, optional) => {
      const { form, schema } = formOf(id);
      expect(schema?.required ?? []).toEqual(required);
      expect(Object.keys(schema?.properties as object)).toEqual(
        expect.arrayContaining([...required, ...optional]),
      );
      expect(schema?.additionalProperties).toBe(true);
      for (const [name, property] of Object.entries(schema?.properties as Record<string, Node>))
        if (property.type === "array")
          expect(form?.encoding?.[name], `${id} ${name}`).toEqual({ style: "form", explode: true });
    },
  );

  it("adds the query parameters a GET page shows, each marked as observed", () => {
    const names = (id: string) =>
      (byId(id).parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    expect(names("searchGroups_v2_1")).toEqual([
      "query",
      "member",
      "resultStart",
      "resultSize",
      "permission",
      "profile",
    ]);
    expect(names("listGroupMembers_v2_1")).toEqual(["query", "resultFrom", "resultSize"]);
    expect(names("getProficiencyChart_v2_1")).toEqual(["type", "series", "mode"]);
    const typed = [...named.map(([id]) => id), "deleteDrillable_v2_1"];
    for (const id of typed)
      for (const parameter of (byId(id).parameters ?? []).filter((p) => p.in === "query"))
        expect(parameter, `${id} ${parameter.name}`).toHaveProperty("x-observed");
  });
});

describe("versions stay apart", () => {
  // Version-neutral components, shared on purpose (see spec/README.md).
  const neutral = new Set(["Message", "EmptyObject", "ErrorResponse", "NotShown", "FormFields"]);
  // A component belongs to 2.0 when its name says so, or when it is an unsuffixed shape observed on a 2.0 page.
  const isV20 = (name: string) => {
    if (neutral.has(name)) return false;
    if (/_v2_0$/.test(name)) return true;
    if (/_v2_1$/.test(name)) return false;
    // Any marker inside the schema (on it or on a property) that names a 2.0 page.
    return /"source":"[^"]*REF …\/api\/2\//.test(JSON.stringify(schemas[name] ?? {}));
  };
  const reached = (start: unknown): Set<string> => {
    const seen = new Set<string>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "$ref" && typeof value === "string") {
            const [, kind, name] = /^#\/components\/(\w+)\/(\w+)$/.exec(value) ?? [];
            if (kind && name && !seen.has(`${kind}/${name}`)) {
              seen.add(`${kind}/${name}`);
              visit(components[kind]?.[name]);
            }
          } else visit(value);
        }
      }
    };
    visit(start);
    return new Set([...seen].map((entry) => entry.split("/")[1] as string));
  };
  const rawOperations = listOperations(full);

  it("reaches no 2.0-only component from a 2.1 operation, and no 2.1 component from a 2.0 one", () => {
    let v21 = 0;
    let v20 = 0;
    for (const { path, pathParameters, operation } of rawOperations) {
      const names = [...reached({ parameters: pathParameters, operation })];
      const id = (operation as { operationId: string }).operationId;
      if (path.startsWith("/api/2.1/")) {
        v21 += 1;
        expect(names.filter(isV20), id).toEqual([]);
      } else if (path.startsWith("/api/2/")) {
        v20 += 1;
        expect(
          names.filter((name) => /_v2_1$/.test(name)),
          id,
        ).toEqual([]);
      }
    }
    expect([v21, v20]).toEqual([122, 94]);
    // The walk does reach components: a 2.1 operation reaches its nested 2.1 shapes.
    expect([...reached(byId("listGroupMembers_v2_1"))]).toEqual(
      expect.arrayContaining(["GroupMembers_v2_1", "Actor_v2_1", "Media_v2_1", "Pagination_v2_1"]),
    );
    expect(isV20("Question") && isV20("Evaluation") && !isV20("Question_v2_1")).toBe(true);
  });
});
