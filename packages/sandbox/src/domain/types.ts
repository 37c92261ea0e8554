import type { components } from "../generated/openapi.js";
import type { ObjectiveData } from "./assessment.js";

/** Schemas of the packaged OpenAPI description: the wire shapes, generated, never written here. */
type Schemas = components["schemas"];

/**
 * A wire shape with every field present: the spec leaves most fields optional (the service may omit
 * them), while the sandbox always sends each one it knows.
 */
type Complete<T> = T extends readonly (infer E)[]
  ? Complete<E>[]
  : T extends object
    ? { [K in keyof T]-?: Complete<T[K]> }
    : T;

/**
 * The sandbox's data model. The service interface gives the fields of a few response objects only
 * (question, drillable list, drillable); everything else here — how drills, courses, catalogs, users,
 * organizations and groups are stored — is the sandbox's own model, chosen to support those responses.
 */

/**
 * Drillable `type` value of a drill. The interface shows that `DRILL` occurs.
 */
export const DRILL_TYPE = "DRILL";

/**
 * Drillable `type` value the sandbox gives to courses.
 *
 * The sandbox's own choice: the interface shows only that `DRILL` occurs and does not show any other
 * value, so the value the real service uses for courses is unknown.
 */
export const COURSE_TYPE = "COURSE";

/**
 * Fields a store search can be restricted to (the `searchField` parameter).
 *
 * @example
 * ```ts
 * import type { SearchField } from "./types.js";
 *
 * const fields: SearchField[] = ["NAME", "TAGS"];
 * ```
 */
export type SearchField = "NAME" | "DESCRIPTION" | "SUBJECT" | "TAGS" | "CONTENTS";

/**
 * All search fields, in the order the interface lists them.
 */
export const SEARCH_FIELDS: readonly SearchField[] = ["NAME", "DESCRIPTION", "SUBJECT", "TAGS", "CONTENTS"];

/**
 * One item of a drill: the term that is asked and the term that must be told.
 *
 * @example
 * ```ts
 * import type { DrillItem } from "./types.js";
 *
 * const item: DrillItem = { ask: "perro", tell: "dog" };
 * ```
 */
export interface DrillItem {
  readonly ask: string;
  readonly tell: string;
}

/**
 * A drill: a practicable set of items.
 *
 * @example
 * ```ts
 * import type { Drill } from "./types.js";
 *
 * const drill: Drill = {
 *   id: "es-animals", type: "DRILL", name: "Spanish animals", subject: "Spanish",
 *   description: "Common animals", tags: ["spanish", "animals"], inStore: true,
 *   askName: "Spanish", tellName: "English",
 *   items: [{ ask: "perro", tell: "dog" }, { ask: "gato", tell: "cat" }],
 * };
 * ```
 */
export interface Drill {
  readonly id: string;
  readonly type: typeof DRILL_TYPE;
  readonly name: string;
  readonly subject: string;
  readonly description: string;
  readonly tags: readonly string[];
  /** Whether the drill is found by a store search without a catalog. */
  readonly inStore: boolean;
  /** Label of the asked part of each item (question `ask.name`). */
  readonly askName: string;
  /** Label of the told part of each item (question `tell.name`). */
  readonly tellName: string;
  readonly items: readonly DrillItem[];
}

/**
 * A course: a named group of drills.
 *
 * @example
 * ```ts
 * import type { Course } from "./types.js";
 *
 * const course: Course = {
 *   id: "es-basics", type: "COURSE", name: "Spanish basics", subject: "Spanish",
 *   description: "First steps", tags: ["spanish"], inStore: true, drillIds: ["es-animals"],
 * };
 * ```
 */
export interface Course {
  readonly id: string;
  /** The sandbox's own value; see {@link COURSE_TYPE}. */
  readonly type: typeof COURSE_TYPE;
  readonly name: string;
  readonly subject: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly inStore: boolean;
  readonly drillIds: readonly string[];
}

/**
 * A drill or a course.
 *
 * @example
 * ```ts
 * import type { DrillableRecord } from "./types.js";
 *
 * const label = (d: DrillableRecord) => (d.type === "DRILL" ? d.items.length : d.drillIds.length);
 * ```
 */
export type DrillableRecord = Drill | Course;

/**
 * A catalog: drills and courses that only the listed users may access.
 *
 * @example
 * ```ts
 * import type { Catalog } from "./types.js";
 *
 * const catalog: Catalog = { id: "cat-1", name: "Staff", drillableIds: ["es-animals"], userIds: ["u-1"] };
 * ```
 */
export interface Catalog {
  readonly id: string;
  readonly name: string;
  readonly drillableIds: readonly string[];
  readonly userIds: readonly string[];
}

/**
 * A user account. A token subject may name a user by ID, by email address or by third-party ID.
 *
 * @example
 * ```ts
 * import type { User } from "./types.js";
 *
 * const user: User = {
 *   id: "u-1",
 *   name: "Ana",
 *   emails: ["ana@example.test"],
 *   thirdPartyIds: ["hr-1"],
 *   organizationId: "org-1",
 * };
 * ```
 */
export interface User {
  readonly id: string;
  readonly name: string;
  readonly emails: readonly string[];
  readonly thirdPartyIds: readonly string[];
  /** The organization that manages this user; absent for users outside any organization. */
  readonly organizationId?: string;
}

/**
 * Public half of a service account key pair, for users who bring their own key pair.
 *
 * @example
 * ```ts
 * import type { ServiceAccountPublicKey } from "./types.js";
 *
 * const key: ServiceAccountPublicKey = { keyId: "key-1", publicKeyPem: "-----BEGIN PUBLIC KEY-----\n…" };
 * ```
 */
export interface ServiceAccountPublicKey {
  /** Goes into the assertion header `kid`. */
  readonly keyId: string;
  /** RSA public key, PEM encoded SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`). */
  readonly publicKeyPem: string;
}

/**
 * An organization with its service account.
 *
 * @example
 * ```ts
 * import type { Organization } from "./types.js";
 *
 * const org: Organization = { id: "org-1", name: "Academy", serviceAccountId: "sa-1" };
 * ```
 */
export interface Organization {
  readonly id: string;
  readonly name: string;
  /** User ID of the organization's service account (a user whose `organizationId` is this organization). */
  readonly serviceAccountId: string;
  /** When absent, the HTTP layer creates a key pair itself. */
  readonly serviceAccountKey?: ServiceAccountPublicKey;
  /**
   * Staff users and their permission on every group of the organization. The service account holds
   * `MANAGE` whether listed or not (a sandbox rule).
   */
  readonly staff?: readonly StaffGrant[];
}

/**
 * A staff permission, as the group staff pages name them: `MANAGE` (content, members, progress) or
 * `VIEW` (read only).
 *
 * @example
 * ```ts
 * import type { StaffPermission } from "./types.js";
 *
 * const permission: StaffPermission = "VIEW";
 * ```
 */
export type StaffPermission = "MANAGE" | "VIEW";

/**
 * One staff user and the permission they hold, on an organization or a group.
 *
 * @example
 * ```ts
 * import type { StaffGrant } from "./types.js";
 *
 * const grant: StaffGrant = { userId: "u-1", permission: "MANAGE" };
 * ```
 */
export interface StaffGrant {
  readonly userId: string;
  readonly permission: StaffPermission;
}

/**
 * A group of an organization, with members and drillables.
 *
 * @example
 * ```ts
 * import type { Group } from "./types.js";
 *
 * const group: Group = {
 *   id: "g-1",
 *   name: "Class 1",
 *   organizationId: "org-1",
 *   memberIds: ["u-1"],
 *   drillableIds: [],
 * };
 * ```
 */
export interface Group {
  readonly id: string;
  readonly name: string;
  /** Absent in older data files: the group then has the empty description. */
  readonly description?: string;
  readonly organizationId: string;
  readonly memberIds: readonly string[];
  readonly drillableIds: readonly string[];
  /** Staff users of this group only, with their permission. */
  readonly staff?: readonly StaffGrant[];
}

/**
 * Everything the sandbox starts from: the embedded dataset or a user's data file.
 *
 * @example
 * ```ts
 * import { createSandbox, type SandboxData } from "@drill-practice/sandbox";
 *
 * // The smallest dataset: one organization and its service account, nothing to practise yet.
 * const data: SandboxData = {
 *   organizations: [{ id: "org-1", name: "Academy", serviceAccountId: "svc-1" }],
 *   users: [
 *     {
 *       id: "svc-1",
 *       name: "Academy service account",
 *       emails: [],
 *       thirdPartyIds: [],
 *       organizationId: "org-1",
 *     },
 *   ],
 *   drills: [],
 *   courses: [],
 *   catalogs: [],
 *   groups: [],
 * };
 * const sandbox = await createSandbox({ data });
 * ```
 */
export interface SandboxData {
  readonly organizations: readonly Organization[];
  readonly users: readonly User[];
  readonly drills: readonly Drill[];
  readonly courses: readonly Course[];
  readonly catalogs: readonly Catalog[];
  readonly groups: readonly Group[];
  /** Group objectives (optional, so older data files stay valid). */
  readonly objectives?: readonly ObjectiveData[];
}

/**
 * Proficiency values, integers 0..100 in the sandbox.
 *
 * @example
 * ```ts
 * import type { Proficiency } from "./types.js";
 *
 * const p: Proficiency = { receptive: 40, productive: 10, overall: 25 };
 * ```
 */
export type Proficiency = Complete<Schemas["Proficiency"]>;

/**
 * The `practice` part of a drillable in a result list.
 *
 * @example
 * ```ts
 * import type { DrillablePractice } from "./types.js";
 *
 * const practice: DrillablePractice = {
 *   proficiency: { receptive: 20, productive: 5, overall: 13 },
 *   highestProficiency: { receptive: 20, productive: 5, overall: 13 },
 *   expectedDuration: 120,
 * };
 * ```
 */
export type DrillablePractice = Complete<Schemas["DrillablePractice"]>;

/**
 * A drillable as it appears in a result list (`Drillable` in the interface).
 *
 * @example
 * ```ts
 * import type { Drillable } from "./types.js";
 *
 * const d: Drillable = {
 *   id: "es-animals",
 *   name: "Spanish animals",
 *   subject: "Spanish",
 *   type: "DRILL",
 *   description: "",
 * };
 * ```
 */
// size, icon and version are observed in the service's samples, not named by the interface: the
// sandbox's store answers the interface's fields.
export type Drillable = Omit<Complete<Schemas["Drillable"]>, "practice" | "size" | "icon" | "version"> & {
  /** Only for drillables the acting user has practised. */
  readonly practice?: DrillablePractice;
};

/**
 * A page of drillables with the total number found (`Drillables` in the interface).
 *
 * @example
 * ```ts
 * import type { Drillables } from "./types.js";
 *
 * const page: Drillables = { total: 0, drills: [] };
 * ```
 */
export type Drillables = Omit<Complete<Schemas["Drillables"]>, "drills"> & { drills: Drillable[] };

/**
 * A practice question with pending notifications (`QuestionResponse` in the interface).
 *
 * @example
 * ```ts
 * import type { QuestionResponse } from "./types.js";
 *
 * const r: QuestionResponse = {
 *   question: {
 *     reference: "0b5c9a4e-7d21-4f6a-9c3b-2e8f1a6d5b70",
 *     sequenceNr: 1,
 *     ask: { name: "Spanish", term: { value: "perro" } },
 *     tell: {
 *       name: "English",
 *       composition: "SINGLE",
 *       type: "MULTIPLE_CHOICE",
 *       terms: [{ value: "dog" }, { value: "cat" }],
 *     },
 *   },
 *   notifications: [],
 * };
 * ```
 */
export type QuestionResponse = Omit<Complete<Schemas["QuestionResponse"]>, "question"> & {
  /** The sandbox sets no time limits and has no context messages, so it never sends those two. */
  readonly question: Omit<Complete<Schemas["Question"]>, "context" | "timeLimit">;
};

/**
 * The evaluation of one term (observed): a given value `CORRECT` or `INCORRECT`, or an expected value
 * `MISSED`. The sandbox sends no `markup`.
 *
 * @example
 * ```ts
 * import type { TermEvaluation } from "./types.js";
 *
 * const t: TermEvaluation = { value: "dog", result: "CORRECT" };
 * ```
 */
export type TermEvaluation = Omit<Complete<Schemas["TermEvaluation"]>, "markup">;

/**
 * The reply to an answer, in the shape of the service's 2.0 `AnswerResponse` (observed): the
 * evaluation, one term evaluation per given and per missed term, and the proficiency of the practised
 * drills afterwards. The sandbox has no time limits, feedback, objectives or tests, so it sends none of
 * `timing`, `feedback`, `objectiveEvaluations` and `progress`.
 *
 * @example
 * ```ts
 * import type { AnswerResponse } from "./types.js";
 *
 * const reply: AnswerResponse = {
 *   notifications: [],
 *   proficiency: { receptive: 20, productive: 5, overall: 13 },
 *   evaluation: { result: "CORRECT", termEvaluations: [{ value: "dog", result: "CORRECT" }] },
 * };
 * ```
 */
export type AnswerResponse = Pick<Complete<Schemas["AnswerResponse"]>, "notifications" | "proficiency"> & {
  readonly evaluation: Pick<Complete<Schemas["Evaluation"]>, "result"> & {
    readonly termEvaluations: TermEvaluation[];
  };
};

/**
 * A user's practice status for one drillable (a rendition). The interface does not show this shape;
 * it is the sandbox's own.
 *
 * @example
 * ```ts
 * import type { Rendition } from "./types.js";
 *
 * const r: Rendition = {
 *   drillableId: "es-animals", type: "DRILL", answerCount: 3, correctCount: 2,
 *   proficiency: { receptive: 36, productive: 10, overall: 23 },
 *   highestProficiency: { receptive: 36, productive: 10, overall: 23 }, expectedDuration: 120,
 * };
 * ```
 */
export interface Rendition {
  readonly drillableId: string;
  readonly type: string;
  /** Answers given (for a course: summed over its drills). */
  readonly answerCount: number;
  readonly correctCount: number;
  readonly proficiency: Proficiency;
  readonly highestProficiency: Proficiency;
  /** Seconds; see {@link DrillablePractice.expectedDuration}. */
  readonly expectedDuration: number;
}
