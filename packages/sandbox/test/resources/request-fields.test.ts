/**
 * No stateful operation ignores a field the request sent. For every operation a family simulates whose
 * request form the description declares, each declared field is sent with two valid values, each in a
 * fresh sandbox of the same data; the answer, or a following read, must differ between the two. A
 * field that no answer can show is in NOT_ANSWERED with its reason. The fields come from the
 * description, so a field added to a page fails here until the family keeps it.
 */
import { describe, expect, it } from "vitest";
import { OPENAPI_DOCUMENT_TEXT } from "../../src/generated/openapi-document.js";
import type { SandboxData } from "../../src/index.js";
import { RESOURCE_FAMILIES } from "../../src/resources/index.js";
import {
  client,
  EVENING_CLASS,
  ORG_WITH_BOB_ON_STAFF,
  SMALL_DATA,
  start,
  tokenFor,
} from "../support/helpers.js";

type Api = ReturnType<typeof client>;
type Value = string | readonly string[];
type Form = Record<string, Value>;
interface Schema {
  $ref?: string;
  type?: string;
  enum?: string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  operationId?: string;
  requestBody?: { $ref?: string; content?: Record<string, { schema: Schema }> };
}

/** How to reach one operation: its path, the fields it needs besides the walked one, and the reads. */
interface Fixture {
  /** Creates what the operation needs; answers its path (with the IDs filled in). */
  readonly setUp: (api: Api) => Promise<string>;
  /** Fields sent with every request (the required ones, when another field is walked). */
  readonly base: Form;
  /** Two valid values of a field where the schema alone cannot give them (references to records). */
  readonly values?: Readonly<Record<string, readonly [Value | Form | undefined, Value | Form]>>;
  /** Restricts the group of GROUP_PATH to cat-business first (for the removal of a restriction). */
  readonly setUpRestricted?: boolean;
  /** The user the requests act for (default: the service account's own user). */
  readonly as?: string;
  /** Requests after the write (a path to GET, or a method and path), from its path and answer. */
  readonly reads?: (path: string, answer: { id?: string }) => Array<string | [string, string]>;
}

const document = JSON.parse(OPENAPI_DOCUMENT_TEXT) as {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

function resolve<T extends { $ref?: string }>(value: T): T {
  let current: T = value;
  while (current.$ref) {
    const [, , kind, name] = current.$ref.split("/");
    current = document.components[kind as string]?.[name as string] as T;
  }
  return current;
}

/** Declared form fields of an operation (none for an open `FormFields` form or no body). */
function declaredFields(operation: Operation): { fields: Record<string, Schema>; required: string[] } {
  const body = operation.requestBody ? resolve(operation.requestBody) : undefined;
  const form = body?.content?.["application/x-www-form-urlencoded"]?.schema;
  const schema = form ? resolve(form) : undefined;
  const fields: Record<string, Schema> = {};
  for (const [name, field] of Object.entries(schema?.properties ?? {})) fields[name] = resolve(field);
  return { fields, required: schema?.required ?? [] };
}

/** Two different valid values of a field, from its schema. */
function twoValues(name: string, schema: Schema): [string | string[], string | string[]] {
  if (schema.type === "array") {
    const [a, b] = twoValues(name, schema.items ?? { type: "string" });
    return [[String(a)], [String(b)]];
  }
  if (schema.enum) return [schema.enum[0] as string, schema.enum[1] ?? (schema.enum[0] as string)];
  if (schema.type === "boolean") return ["true", "false"];
  if (schema.type === "integer" || schema.type === "number") {
    const low = schema.minimum ?? 1;
    return [String(low), String(Math.min(low + 1, schema.maximum ?? low + 1))];
  }
  if (schema.format === "duration") return ["PT5M", "PT10M"];
  return [`${name} one`, `${name} two`];
}

/**
 * Fields no answer of the description has a place for, with the reason (the support table says so
 * too). Keyed `operationId.field`.
 */
const NOT_ANSWERED_V21_AND_OLDER: Readonly<Record<string, string>> = {
  "addGroupMember_v2_1.sendWelcomeEmail": "the sandbox sends no mail; no answer shows whether one was sent",
  "addGroupMember_v2_1_1.sendWelcomeEmail": "the sandbox sends no mail; no answer shows whether one was sent",
  ...Object.fromEntries(
    ["setup", "sendWelcomeEmail", "name", "locale"].map((field) => [
      `addGroupMemberByThirdPartyId_v2_1_1.${field}`,
      "account set-up fields: a third-party ID has no address to set an account up for, so the sandbox adds existing users only",
    ]),
  ),
  ...Object.fromEntries(
    [
      "createGroup_v2_1_1.subscriptionEndYear",
      "createGroup_v2_1_1.subscriptionEndMonth",
      "createGroup_v2_1_1.subscriptionEndDay",
      // The update page is cut after its first subscription field.
      "updateGroup_v2_1_1.subscriptionEndYear",
    ].map((key) => [
      key,
      "memberships in the sandbox never end; the page is cut before the answer, so no answer shows the end",
    ]),
  ),
  "addOrganizationStaff_v2_0.name":
    "the 2.0 staff entry answers the user's own name; the page does not say what this name sets",
  "createDrill_v2_1.tags": "kept on the drill (searches match it); no drill answer shape has tags",
  "createDrill_v2_0.tags": "kept on the drill (searches match it); no drill answer shape has tags",
  "updateDrill_v2_1.contentLanguage": "kept on the drill; no drill answer shape has a content language",
  "updateDrill_v2_0.contentLanguage": "kept on the drill; no drill answer shape has a content language",
  "createCourse_v2_0.description":
    "kept (the 2.1 course answers show it); the 2.0 answer is `{id, type}` and no read answers a course's description",
  "defineTest_v2_1.instructions": "kept on the test; no test or question answer shape has instructions",
  "defineTest_v2_0.instructions": "kept on the test; no test or question answer shape has instructions",
  "defineTest_v2_1.tags": "kept on the test; no test answer shape has tags",
  "defineTest_v2_1.weights":
    "kept on the test; no answer shape has weights, and the pages do not show how they choose questions",
  "defineTest_v2_1.adaptive":
    "applied (levels move by the group tests page's thirds: tests-group.flow.test.ts); no test answer shape shows the flag",
  "defineTest_v2_1.startDrill":
    "applied as an adaptive test's entry level (tests-group.flow.test.ts); no test answer shape shows it",
  "publishPlayable_v2_1.position":
    "kept as the catalog's order; store search ranks by its own rules and no answer lists a catalog in order",
  "mergeDrills_v2_1.source":
    "the sources' items are appended, and items show in no drill answer; drills made through the API have none, so this walk cannot see them (content.flow.test.ts merges)",
};

/** The 2.1.1 group test and objective fields no answer read by the walk can show, with the reason. */
const MEMBER_DATE =
  "a member's own review date shows only to that member (as the test's or objective's reviewDate when they read it), and this walk reads as the service account: v211-group-tests-objectives.flow.test.ts reads it as the member";
const NOT_ANSWERED_V211_GROUP: Readonly<Record<string, string>> = {
  "addGroupTest_v2_1_1.adaptive":
    "applied as `addGroupTest_v2_1` applies it (tests-group.flow.test.ts); no test answer shape shows the flag",
  "setGroupTestReviewDate_v2_1_1.user": MEMBER_DATE,
  "setGroupTestReviewDate_v2_1_1.reviewDate": MEMBER_DATE,
  "updateGroupObjective_v2_1_1.user": MEMBER_DATE,
  "updateGroupObjective_v2_1_1.reviewDate": MEMBER_DATE,
  "updateGroupObjective_v2_1.user": MEMBER_DATE,
  "updateGroupObjective_v2_1.reviewDate": MEMBER_DATE,
  "defineGroupObjective_v2_1_1.reviewDuration":
    "kept as sent; its format is not shown, the sandbox evaluates no review period, and no objective answer shows it",
  "updateObjective_v2_1_1.name": "kept; no objective answer shows a name (as `updateGroupObjective_v2_1`)",
  "updateObjective_v2_1_1.reviewDate":
    "applied (the objective's reviewDate); this walk blanks every date it reads, and the 2.1 group list is not ordered by date",
  ...Object.fromEntries(
    ["estimatedStudyDuration", "messageReminders", "messageRemindersStart", "messageReminderInterval"].map(
      (f) => [
        `updateObjective_v2_1_1.${f}`,
        "taken and not applied: the sandbox sends no messages and keeps no study schedule; the page is cut before the answer",
      ],
    ),
  ),
};

/** 2.1.1 operations whose handler is the 2.1 one: a field 2.1 cannot show, 2.1.1 cannot either. */
const SHARED_WITH_2_1 = ["createDrill", "updateDrill", "mergeDrills", "publishPlayable", "defineTest"];

const NOT_ANSWERED: Readonly<Record<string, string>> = {
  ...NOT_ANSWERED_V21_AND_OLDER,
  ...NOT_ANSWERED_V211_GROUP,
  ...Object.fromEntries(
    Object.entries(NOT_ANSWERED_V21_AND_OLDER)
      .filter(([key]) => SHARED_WITH_2_1.some((name) => key.startsWith(`${name}_v2_1.`)))
      .map(([key, why]) => [key.replace("_v2_1.", "_v2_1_1."), why]),
  ),
  "updateTest_v2_1_1.instructions": "kept on the test; no test or question answer shape has instructions",
  "updateTest_v2_1_1.weights":
    "kept on the test; no answer shape has weights, and the pages do not show how they choose questions",
  "updateTest_v2_1_1.testScoreTransformers":
    "not taken: the page is cut before the transformers' form, so what a value means is not shown",
  ...Object.fromEntries(
    ["name", "emailAddress", "reference"].map((field) => [
      `createTestTicket_v2_1_1.${field}`,
      "kept with the ticket; the TestTicket answer has no place for it, and no read shows a ticket (the sandbox keeps no anonymous attempts)",
    ]),
  ),
  "createTestTicket_v2_1_1.sendAnnouncementEmail":
    "the sandbox sends no mail; it checks that an emailAddress comes with it (v211-test-tickets.flow.test.ts), and no answer shows whether one was sent",
};

/** Image keys: the sandbox has no uploads, so every key is refused by name (never silently dropped). */
const IMAGE_KEYS = new Set([
  "updateCourse_v2_1.iconKey",
  "updateCourse_v2_1.coverKey",
  "updateCourse_v2_1_1.iconKey",
  "updateCourse_v2_1_1.coverKey",
  "updateTest_v2_1_1.iconKey",
  "updateTest_v2_1_1.coverKey",
  "updateGroup_v2_1.iconKey",
  "updateGroup_v2_1_1.iconKey",
  "createClientApp_v2_0.iconKey",
  "updateClientApp_v2_1.iconKey",
  "updateClientAppByClientId_v2_0.iconKey",
]);

/** A second catalog Ana may publish to, so that `catalog` has two valid values. */
const SECOND_CATALOG = { id: "cat-second", name: "Second", drillableIds: [], userIds: ["u-ana"] };

/** Valid values of the user fields the sandbox checks (locale, time zone, country, year). */
const USER_VALUES = {
  locale: ["fr", "nl_BE"],
  timeZone: ["Europe/Amsterdam", "America/Los_Angeles"],
  yearOfBirth: ["1980", "1990"],
  domicile: ["NL", "BE"],
} as const;

const BEACON = "07212ead-8344-4426-8b41-8b0cb621625a_0001_0002";

const DRILL = { name: "D", subject: "S", description: "d" };

/** The small dataset with Bob on the organization's staff, the evening class and a second catalog. */
const WALK_DATA: SandboxData = {
  ...SMALL_DATA,
  organizations: [ORG_WITH_BOB_ON_STAFF],
  groups: [EVENING_CLASS],
  catalogs: [...(SMALL_DATA.catalogs ?? []), SECOND_CATALOG],
};

const GROUP_PATH = `/api/2.1/group/${EVENING_CLASS.id}`;

/** Creating a group at `path` (2.1 and 2.1.1 take the same restriction fields). */
function createGroupFixture(path: string): Fixture {
  return {
    setUp: async () => path,
    base: { name: "G", description: "d" },
    values: {
      catalogRestriction: [undefined, "cat-business"],
      catalogRestrictionMode: [
        { catalogRestriction: "cat-business", catalogRestrictionMode: "REQUIRE" },
        { catalogRestriction: "cat-business", catalogRestrictionMode: "GRANT" },
      ],
    },
    reads: (_, a) => restricted(`/api/2.1/group/${a.id}`),
  };
}

/** Updating the evening class at `path`, restricted first, its restriction read through 2.1. */
function updateGroupFixture(path: string): Fixture {
  return {
    setUp: async () => path,
    base: { name: "G", description: "d" },
    values: {
      catalogRestriction: ["cat-business", "cat-second"],
      catalogRestrictionMode: [
        { catalogRestriction: "cat-business", catalogRestrictionMode: "REQUIRE" },
        { catalogRestriction: "cat-business", catalogRestrictionMode: "GRANT" },
      ],
      catalogRestrictionRemove: [{ catalogRestrictionRemove: "false" }, { catalogRestrictionRemove: "true" }],
    },
    setUpRestricted: true,
    reads: () => restricted(GROUP_PATH),
  };
}

/** Storing a beacon at `path`, read back there. */
function storeBeaconFixture(path: string): Fixture {
  return {
    setUp: async () => path,
    base: { playableType: "DRILL", playableId: "es-animals", proximity: "NEAR", lingerDuration: "PT5M" },
    values: {
      playableType: [
        { playableType: "DRILL", playableId: "es-animals" },
        { playableType: "COURSE", playableId: "course-spanish" },
      ],
      playableId: ["es-animals", "es-colours"],
    },
    reads: () => [path],
  };
}

/** The fixture of every family operation with a declared form. */
/** A 2.1 fixture walked on the same operation's 2.1.1 path (the 2.1.1 handler shares the 2.1 one); reads stay 2.1. */
function on211(fixture: Fixture | undefined): Fixture {
  if (fixture === undefined) throw new Error("no 2.1 fixture to walk on 2.1.1");
  return {
    ...fixture,
    setUp: async (api) => (await fixture.setUp(api)).replace(/^\/api\/2\.1\//, "/api/2.1.1/"),
  };
}

/** A test the acting user defined, for the 2.1.1 operations that change or copy one. */
async function ownTest(api: Api): Promise<string> {
  return created(api, "/api/2.1.1/tests", { drills: ["es-colours"], name: "Quiz" });
}

/** Updating a client app registered first, at `<base>/{id}` (2.1's path or the 2.0 page's). */
function updateClientAppFixture(base: string): Fixture {
  return {
    setUp: async (api) => {
      const app = await created(api, "/api/2/client-apps", {
        name: "App",
        redirectionEndpoint: "https://app.example/back",
      });
      return `${base}/${app}`;
    },
    base: { name: "App", redirectionEndpoint: "https://app.example/back" },
    values: {
      name: ["One", "Two"],
      redirectionEndpoint: ["https://app.example/one", "https://app.example/two"],
      url: ["https://app.example/", "https://other.example/"],
    },
    reads: (_, a) => [`/api/2.1/client-app/${a.id}`],
  };
}

const FIXTURES_V21_AND_OLDER: Readonly<Record<string, Fixture>> = {
  createGroup_v2_1: createGroupFixture("/api/2.1/groups"),
  createGroup_v2_1_1: createGroupFixture("/api/2.1.1/groups"),
  createGroup_v2_0: {
    setUp: async () => "/api/2/groups",
    base: { name: "G", description: "d" },
    reads: (_, a) => [`/api/2.1/group/${a.id}`],
  },
  updateGroup_v2_1: updateGroupFixture(GROUP_PATH),
  updateGroup_v2_1_1: updateGroupFixture(`/api/2.1.1/group/${EVENING_CLASS.id}`),
  addGroupMember_v2_1: {
    setUp: async () => `${GROUP_PATH}/members/new@academy.test`,
    base: { setup: "true", name: "New member" },
    values: { setup: ["false", "true"], locale: ["fr", "nl_BE"] },
    reads: () => [`${GROUP_PATH}/members`, "/api/2.1/user/new@academy.test"],
  },
  updateGroupStaffPermissions_v2_1: {
    setUp: async () => `${GROUP_PATH}/staff/u-bob/permission`,
    base: { permission: "VIEW" },
  },
  createDrill_v2_1: {
    setUp: async () => "/api/2.1/drills",
    base: { name: "D", subject: "S", description: "d" },
    reads: (_, a) => [`/api/2.1/playable/${a.id}`],
  },
  createDrill_v2_0: {
    setUp: async () => "/api/2/drills",
    base: { name: "D", subject: "S", description: "d" },
    reads: (_, a) => [`/api/2.1/playable/${a.id}`],
  },
  updateDrill_v2_1: {
    setUp: async (api) => `/api/2.1/drill/${await created(api, "/api/2.1/drills", DRILL)}`,
    base: { name: "Renamed" },
    reads: (path) => [`/api/2.1/playable/${lastSegment(path)}`],
  },
  updateDrill_v2_0: {
    setUp: async (api) => `/api/2/drill/${await created(api, "/api/2.1/drills", DRILL)}`,
    base: { name: "Renamed" },
    reads: (path) => [`/api/2.1/playable/${lastSegment(path)}`],
  },
  mergeDrills_v2_1: {
    setUp: async (api) => {
      const target = await created(api, "/api/2.1/drills", DRILL);
      await created(api, "/api/2.1/drills", { ...DRILL, name: "Second" });
      await created(api, "/api/2.1/drills", { ...DRILL, name: "Third" });
      return `/api/2.1/drill/${target}/merge`;
    },
    base: { source: ["drill-2"] },
    values: { source: [["drill-2"], ["drill-3"]] },
    reads: (path) => [`/api/2.1/playable/${path.split("/")[4]}`],
  },
  createCourse_v2_1: {
    setUp: async () => "/api/2.1/courses",
    base: { name: "C", description: "d" },
    reads: (_, a) => [`/api/2.1/playable/${a.id}`],
  },
  createCourse_v2_0: {
    setUp: async () => "/api/2/courses",
    base: { name: "C", description: "d" },
    reads: (_, a) => [`/api/2.1/playable/${a.id}`],
  },
  updateCourse_v2_1: {
    setUp: async (api) =>
      `/api/2.1/course/${await created(api, "/api/2.1/courses", { name: "C", description: "d" })}`,
    base: {},
    reads: (path) => [`/api/2.1/playable/${lastSegment(path)}`],
  },
  publishPlayable_v2_1: {
    setUp: async (api) => `/api/2.1/playable/${await created(api, "/api/2.1/drills", DRILL)}/publish`,
    as: "u-ana",
    base: { catalog: "cat-business" },
    values: { catalog: ["cat-business", "cat-second"], position: ["0", "2"] },
    reads: () => ["/api/2.1/store?catalog=cat-business", "/api/2.1/store?catalog=cat-second"],
  },
  postReview_v2_1: {
    setUp: async (api) => {
      await api("PUT", "/api/2.1/repertoire/es-animals");
      return "/api/2.1/drillable/es-animals/review";
    },
    base: { content: "Good" },
    reads: () => ["/api/2.1/drillable/es-animals/reception"],
  },
  storePracticePreferences_v2_1: {
    setUp: async () => "/api/2.1/rendition/es-animals/preferences",
    base: {},
    values: { unknownColumns: [["Spanish"], ["English"]] },
    reads: (path) => [path],
  },
  defineTest_v2_1: {
    setUp: async () => "/api/2.1/tests",
    base: { drills: ["es-colours", "es-animals"], name: "Quiz" },
    values: {
      drills: [["es-colours"], ["es-animals"]],
      startDrill: ["1", "2"],
      weights: [
        ["50", "50"],
        ["30", "70"],
      ],
      questions: [
        ["2", "2"],
        ["3", "1"],
      ],
      columns: [["Spanish"], ["English"]],
      allowUnansweredQuestions: [
        { allowQuestionNavigation: "true", allowUnansweredQuestions: "true" },
        { allowQuestionNavigation: "true", allowUnansweredQuestions: "false" },
      ],
    },
    // Completing by hand shows navigation and unanswered questions allowed or not.
    reads: (_, a) => [
      "/api/2.1/tests",
      `/api/2.1/test-question/${a.id}`,
      ["PUT", `/api/2.1/test-result/${a.id}`],
    ],
  },
  defineTest_v2_0: {
    setUp: async () => "/api/2/tests",
    base: { drill: ["es-colours"], title: "Quiz" },
    values: { drill: [["es-colours"], ["es-animals"]], style: ["MULTIPLE_CHOICE", "OPEN_ENDED"] },
    reads: (_, a) => ["/api/2.1/tests", `/api/2/test-question/${a.id}`],
  },
  storeBeacon_v2_1: storeBeaconFixture(`/api/2.1/beacon/${BEACON}`),
  storeBeacon_v2_1_1: storeBeaconFixture(`/api/2.1.1/beacon/${BEACON}`),
  createClientApp_v2_0: {
    setUp: async () => "/api/2/client-apps",
    base: { name: "App", redirectionEndpoint: "https://app.example/back" },
    values: {
      redirectionEndpoint: ["https://app.example/one", "https://app.example/two"],
      url: ["https://app.example/", "https://other.example/"],
    },
    reads: (_, a) => [`/api/2.1/client-app/${a.id}`],
  },
  updateClientApp_v2_1: updateClientAppFixture("/api/2.1/client-app"),
  // The 2.0 PUT client-app page's path, beside the interface's updateClientApp_v2_0.
  updateClientAppByClientId_v2_0: updateClientAppFixture("/api/2/client-app"),
  updateOwnUser_v2_1: {
    setUp: async () => "/api/2.1/user",
    base: {},
    values: USER_VALUES,
    reads: () => ["/api/2.1/user"],
  },
  updateOwnUser_v2_0: {
    setUp: async () => "/api/2/user",
    base: {},
    values: USER_VALUES,
    // The 2.0 user has no year of birth or domicile; the same state answers them in 2.1.
    reads: () => ["/api/2/user", "/api/2.1/user"],
  },
  addOrganizationStaff_v2_0: {
    setUp: async () => "/api/2/organization/org-1/staff/u-ana",
    base: {},
    reads: () => ["/api/2/organization/org-1/staff"],
  },
  addGroupMember_v2_1_1: {
    setUp: async () => `/api/2.1.1/group/${EVENING_CLASS.id}/members/new@academy.test`,
    base: { setup: "true", name: "New member" },
    values: { setup: ["false", "true"], locale: ["fr", "nl_BE"] },
    reads: () => [`${GROUP_PATH}/members`, "/api/2.1/user/new@academy.test"],
  },
  addGroupMemberByThirdPartyId_v2_1_1: {
    setUp: async () => `/api/2.1.1/group/${EVENING_CLASS.id}/members/HR/hr-1001`,
    base: {},
    reads: () => [`${GROUP_PATH}/members`],
  },
  updateOwnUser_v2_1_1: {
    setUp: async () => "/api/2.1.1/user",
    base: {},
    values: USER_VALUES,
    reads: () => ["/api/2.1/user"],
  },
  updateUser_v2_1_1: {
    setUp: async () => "/api/2.1.1/user/u-ana",
    base: {},
    values: USER_VALUES,
    reads: () => ["/api/2.1/user/u-ana"],
  },
  // The deprecated POST answers `{}`: the 2.1 read shows what it changed.
  updateOwnUserByPost_v2_1_1: {
    setUp: async () => "/api/2.1.1/user",
    base: {},
    values: USER_VALUES,
    reads: () => ["/api/2.1/user"],
  },
  // `name` names the account created for an address no account has (PUT organization staff page).
  addOrganizationStaff_v2_1_1: {
    setUp: async () => "/api/2.1.1/organization/self/staff/new@academy.test",
    base: { name: "New staff" },
    reads: () => ["/api/2.1/organization/org-1/staff"],
  },
  respondToGroupInvitation_v2_1_1: { setUp: async () => "", base: {} },
  respondToGroupInvitation_v2_1: { setUp: async () => "", base: {} },
  respondToGroupInvitation_v2_0: { setUp: async () => "", base: {} },
};

/** The evening class in 2.1.1, with Bob as a second member (two valid `user` values). */
const CLASS_211 = `/api/2.1.1/group/${EVENING_CLASS.id}`;
const LATER = "2099-01-01T00:00:00Z";

async function withBob(api: Api): Promise<void> {
  await api("PUT", `${GROUP_PATH}/members/u-bob`);
}

/** The 2.1.1 group test and objective operations (v211-group-tests-objectives.flow.test.ts). */
const FIXTURES_V211_GROUP: Readonly<Record<string, Fixture>> = {
  addGroupTest_v2_1_1: {
    setUp: async () => `${CLASS_211}/tests`,
    base: { drill: ["es-colours"] },
    values: {
      drill: [["es-colours"], ["es-animals"]],
      reviewDate: [undefined, LATER],
      questions: ["1", "2"],
    },
  },
  setGroupTestReviewDate_v2_1_1: {
    setUp: async (api) => {
      await withBob(api);
      const test = await created(api, `${GROUP_PATH}/tests`, {
        drills: ["es-colours"],
        name: "Quiz",
        reviewDate: "PER_USER",
      });
      return `${CLASS_211}/test/${test}`;
    },
    base: { user: "u-ana", reviewDate: LATER },
  },
  defineGroupObjective_v2_1_1: {
    setUp: async () => `${CLASS_211}/objectives`,
    base: { drills: ["es-colours"], minimumProficiency: "80" },
    values: { reviewDate: [undefined, LATER] },
  },
  updateGroupObjective_v2_1_1: {
    setUp: async (api) => {
      await withBob(api);
      const objective = await created(api, `${CLASS_211}/objectives`, {
        drills: ["es-colours"],
        minimumProficiency: "80",
      });
      return `${CLASS_211}/objective/${objective}`;
    },
    base: { user: "u-ana", reviewDate: LATER },
  },
  updateGroupObjective_v2_1: {
    setUp: async (api) => {
      await withBob(api);
      const objective = await created(api, `${CLASS_211}/objectives`, {
        drills: ["es-colours"],
        minimumProficiency: "80",
      });
      return `/api/2.1/group/${EVENING_CLASS.id}/objective/${objective}`;
    },
    base: { user: "u-ana", reviewDate: LATER },
  },
  updateObjective_v2_1_1: {
    setUp: async (api) => {
      const objective = await created(api, `${GROUP_PATH}/objectives`, {
        drills: ["es-colours"],
        minimumProficiency: "80",
        reviewDate: LATER,
      });
      return `/api/2.1.1/objective/${objective}`;
    },
    base: { type: "ONEOFF" },
    values: { minimumProficiency: ["50", "60"], fallingMinimumProficiency: ["10", "20"] },
    reads: () => [`${GROUP_PATH}/objectives`],
  },
};

const FIXTURES: Readonly<Record<string, Fixture>> = {
  ...FIXTURES_V21_AND_OLDER,
  ...FIXTURES_V211_GROUP,
  createDrill_v2_1_1: on211(FIXTURES_V21_AND_OLDER.createDrill_v2_1),
  updateDrill_v2_1_1: on211(FIXTURES_V21_AND_OLDER.updateDrill_v2_1),
  mergeDrills_v2_1_1: on211(FIXTURES_V21_AND_OLDER.mergeDrills_v2_1),
  createCourse_v2_1_1: on211(FIXTURES_V21_AND_OLDER.createCourse_v2_1),
  updateCourse_v2_1_1: on211(FIXTURES_V21_AND_OLDER.updateCourse_v2_1),
  publishPlayable_v2_1_1: on211(FIXTURES_V21_AND_OLDER.publishPlayable_v2_1),
  postReview_v2_1_1: on211(FIXTURES_V21_AND_OLDER.postReview_v2_1),
  storePracticePreferences_v2_1_1: on211(FIXTURES_V21_AND_OLDER.storePracticePreferences_v2_1),
  defineTest_v2_1_1: on211(FIXTURES_V21_AND_OLDER.defineTest_v2_1),
  updateTest_v2_1_1: {
    setUp: async (api) => `/api/2.1.1/test/${await ownTest(api)}`,
    base: {},
    values: {
      allowUnansweredQuestions: [
        { allowQuestionNavigation: "true", allowUnansweredQuestions: "true" },
        { allowQuestionNavigation: "true", allowUnansweredQuestions: "false" },
      ],
    },
    // Taking the test by hand shows the time limit, navigation and unanswered questions allowed or not.
    reads: (path) => [
      "/api/2.1/tests",
      `/api/2.1/test-question/${lastSegment(path)}`,
      ["PUT", `/api/2.1/test-result/${lastSegment(path)}`],
    ],
  },
  duplicateTest_v2_1_1: {
    setUp: async (api) => `/api/2.1.1/test/${await ownTest(api)}`,
    base: { name: "Copy" },
    reads: () => ["/api/2.1/tests"],
  },
  createTestTicket_v2_1_1: {
    setUp: async (api) => `/api/2.1.1/test/${await ownTest(api)}/tickets`,
    base: {},
  },
};

/** Operations whose one field is the action itself: what it does is the invitations flow's subject. */
const VERB_ONLY = new Set([
  "respondToGroupInvitation_v2_1",
  "respondToGroupInvitation_v2_0",
  "respondToGroupInvitation_v2_1_1",
]);

function lastSegment(path: string): string {
  return path.split("/").at(-1) as string;
}

async function created(api: Api, path: string, body: Form): Promise<string> {
  const answer = await api("POST", path, { body });
  if (answer.status !== 200)
    throw new Error(`set-up ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as { id: string }).id;
}

/** The base form with the walked field set to a value, or left out (`undefined`). */
function withField(base: Form, field: string, value: Value | Form | undefined): Form {
  const { [field]: _, ...rest } = base;
  if (value === undefined) return rest;
  if (typeof value === "string" || Array.isArray(value)) return { ...rest, [field]: value as Value };
  return { ...rest, ...(value as Form) };
}

/**
 * What a catalog restriction changes: adding es-animals (in no catalog), fr-animals (in
 * cat-business) and Bob (without access to either catalog) to the group.
 */
function restricted(groupPath: string): Array<string | [string, string]> {
  return [
    groupPath,
    ["PUT", `${groupPath}/drills/es-animals`],
    ["PUT", `${groupPath}/drills/fr-animals`],
    ["PUT", `${groupPath}/members/u-bob`],
  ];
}

/**
 * Values the sandbox draws anew for every request (secrets, question references, ticket codes and
 * PINs): not compared. Which of `code` and `pin` a ticket answers still shows.
 */
const ASSIGNED_EACH_TIME = new Set(["secret", "reference", "code", "pin"]);

/** What a user sees after a write: its answer and the reads, with assigned dates blanked. */
async function observe(operationId: string, method: string, fixture: Fixture, form: Form): Promise<string> {
  const sandbox = await start({ data: WALK_DATA });
  const api = client(sandbox, await tokenFor(sandbox, fixture.as));
  if (fixture.setUpRestricted) {
    await api("PUT", GROUP_PATH, {
      body: { name: "G", description: "d", catalogRestriction: "cat-business" },
    });
  }
  const path = await fixture.setUp(api);
  const answer = await api(method.toUpperCase(), path, { body: form });
  expect(answer.status, `${operationId} ${JSON.stringify(form)}: ${JSON.stringify(answer.body)}`).toBeOneOf([
    200, 204,
  ]);
  const seen: unknown[] = [answer.body];
  for (const read of fixture.reads?.(path, (answer.body ?? {}) as { id?: string }) ?? []) {
    const [readMethod, readPath] = typeof read === "string" ? ["GET", read] : read;
    const after = await api(readMethod, readPath);
    seen.push(after.status, after.body);
  }
  return JSON.stringify(seen, (key, value) => (ASSIGNED_EACH_TIME.has(key) ? "<assigned>" : value)).replace(
    /\d{4}-\d\d-\d\dT[\d:.]+Z?/g,
    "<date>",
  );
}

const familyOperations = new Set(RESOURCE_FAMILIES.flatMap((family) => Object.keys(family.operations)));
const walked: Array<[string, string, Operation]> = [];
for (const [, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    const id = operation.operationId;
    if (id && familyOperations.has(id) && Object.keys(declaredFields(operation).fields).length > 0) {
      walked.push([id, method, operation]);
    }
  }
}

describe("every declared request field of a stateful operation is kept", () => {
  it("has a fixture for each family operation with a declared form", () => {
    expect(walked.length).toBeGreaterThan(20);
    expect(walked.map(([id]) => id).filter((id) => !FIXTURES[id])).toEqual([]);
  });

  for (const [operationId, method, operation] of walked) {
    if (VERB_ONLY.has(operationId)) continue;
    const { fields } = declaredFields(operation);
    const fixture = FIXTURES[operationId] as Fixture;
    // The comparison below means something only if the same request observes the same twice.
    it(`${operationId} observes the same for the same request`, { timeout: 30_000 }, async () => {
      const first = await observe(operationId, method, fixture, fixture.base);
      expect(await observe(operationId, method, fixture, fixture.base)).toBe(first);
    });
    for (const [field, schema] of Object.entries(fields)) {
      const key = `${operationId}.${field}`;
      if (NOT_ANSWERED[key]) continue;
      if (IMAGE_KEYS.has(key)) {
        it(`${operationId} refuses ${field} by name (no uploads)`, async () => {
          const sandbox = await start({ data: WALK_DATA });
          const api = client(sandbox, await tokenFor(sandbox, fixture.as));
          const path = await fixture.setUp(api);
          const answer = await api(method.toUpperCase(), path, { body: { ...fixture.base, [field]: "k-1" } });
          expect(answer.status).toBe(400);
          expect(answer.body).toMatchObject({ parameter: field });
        });
        continue;
      }
      it(`${operationId} answers or reads back ${field}`, { timeout: 30_000 }, async () => {
        const [a, b] = fixture.values?.[field] ?? twoValues(field, schema);
        const first = await observe(operationId, method, fixture, withField(fixture.base, field, a));
        const second = await observe(operationId, method, fixture, withField(fixture.base, field, b));
        expect(
          second,
          `${key}: sent ${JSON.stringify(a)} then ${JSON.stringify(b)}, nothing changed`,
        ).not.toBe(first);
      });
    }
  }

  it("lists only fields the description declares in NOT_ANSWERED", () => {
    const declared = new Set(
      walked.flatMap(([id, , op]) => Object.keys(declaredFields(op).fields).map((f) => `${id}.${f}`)),
    );
    expect(Object.keys(NOT_ANSWERED).filter((key) => !declared.has(key))).toEqual([]);
  });
});
