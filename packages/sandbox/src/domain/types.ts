import type { components } from "@drill-practice/client";
import type { ObjectiveData } from "./assessment.js";

/** Schemas of the OpenAPI description (the client's generated types): the wire shapes, never written here. */
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
 * Drillable `type` value of courses: the interface shows only `DRILL`; the 2.0 Drillable object page
 * lists `COURSE` beside it (observed).
 */
export const COURSE_TYPE = "COURSE";

/**
 * Fields a store search can be restricted to (the `searchField` parameter).
 */
export type SearchField = "NAME" | "DESCRIPTION" | "SUBJECT" | "TAGS" | "CONTENTS";

/**
 * All search fields, in the order the interface lists them.
 */
export const SEARCH_FIELDS: readonly SearchField[] = ["NAME", "DESCRIPTION", "SUBJECT", "TAGS", "CONTENTS"];

/**
 * One item of a drill: the term that is asked and the term that must be told.
 */
export interface DrillItem {
  readonly ask: string;
  readonly tell: string;
}

/**
 * A drill: a practicable set of items.
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
 */
export interface Course {
  readonly id: string;
  /** Observed on the 2.0 Drillable page; see {@link COURSE_TYPE}. */
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
 */
export type DrillableRecord = Drill | Course;

/**
 * A catalog: drills and courses that only the listed users may access.
 */
export interface Catalog {
  readonly id: string;
  readonly name: string;
  readonly drillableIds: readonly string[];
  readonly userIds: readonly string[];
}

/**
 * A user account. A token subject may name a user by ID, by email address or by third-party ID.
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
 */
export interface ServiceAccountPublicKey {
  /** Goes into the assertion header `kid`. */
  readonly keyId: string;
  /** RSA public key, PEM encoded SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`). */
  readonly publicKeyPem: string;
}

/**
 * An organization with its service account.
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
 */
export type StaffPermission = "MANAGE" | "VIEW";

/**
 * One staff user and the permission they hold, on an organization or a group.
 */
export interface StaffGrant {
  readonly userId: string;
  readonly permission: StaffPermission;
}

/**
 * A group of an organization, with members and drillables.
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
  /** Practice the users have done before the sandbox starts (optional; default: none). */
  readonly practice?: readonly PracticeData[];
}

/**
 * A user's practice state on one drill, as a data file gives it: the counts and proficiency values
 * the sandbox keeps per user and drill (see data/FORMAT.md).
 *
 * @example
 * ```ts
 * import type { PracticeData } from "@drill-practice/sandbox";
 *
 * // Ana answered 20 questions of the drill, 17 of them right.
 * const practice: PracticeData = {
 *   userId: "user-ana",
 *   drillId: "es-animals-to-en",
 *   answerCount: 20,
 *   correctCount: 17,
 *   receptive: 85,
 *   productive: 70,
 * };
 * ```
 */
export interface PracticeData {
  /** The user who practised. */
  readonly userId: string;
  /** A drill (not a course: practice is kept per drill). */
  readonly drillId: string;
  /** Questions answered, 0 or more. */
  readonly answerCount: number;
  /** Questions answered right, at most `answerCount`. */
  readonly correctCount: number;
  /** Receptive proficiency, 0 to 100. */
  readonly receptive: number;
  /** Productive proficiency, 0 to 100. */
  readonly productive: number;
}

/**
 * Proficiency values, integers 0..100 in the sandbox.
 */
export type Proficiency = Complete<Schemas["Proficiency"]>;

/**
 * The `practice` part of a drillable in a result list.
 */
export type DrillablePractice = Omit<Complete<Schemas["DrillablePractice"]>, "highestProficiency"> & {
  /** Not for courses (the 2.0 Practice page: "Not included for courses"). */
  readonly highestProficiency?: Proficiency;
};

/**
 * A drillable as it appears in a result list (`Drillable` in the interface).
 */
// size, icon and version are observed in the service's samples, not named by the interface: the
// sandbox's store answers the interface's fields.
export type Drillable = Omit<Complete<Schemas["Drillable"]>, "practice" | "size" | "icon" | "version"> & {
  /** Only for drillables the acting user has practised. */
  readonly practice?: DrillablePractice;
};

/**
 * A page of drillables with the total number found (`Drillables` in the interface).
 */
export type Drillables = Omit<Complete<Schemas["Drillables"]>, "drills"> & { drills: Drillable[] };

/**
 * A practice question with pending notifications (`QuestionResponse` in the interface).
 */
export type QuestionResponse = Omit<Complete<Schemas["QuestionResponse"]>, "question"> & {
  /** The sandbox sets no time limits and has no context messages, so it never sends those two. */
  readonly question: Omit<Complete<Schemas["Question"]>, "context" | "timeLimit">;
};

/**
 * The evaluation of one term (observed): a given value `CORRECT` or `INCORRECT`, or an expected value
 * `MISSED`. The sandbox sends no `markup`.
 */
export type TermEvaluation = Omit<Complete<Schemas["TermEvaluation"]>, "markup">;

/**
 * The reply to an answer, in the shape of the service's 2.0 `AnswerResponse` (observed): the
 * evaluation, one term evaluation per given and per missed term, and the proficiency of the practised
 * drills afterwards. The sandbox has no time limits, feedback, objectives or tests, so it sends none of
 * `timing`, `feedback`, `objectiveEvaluations` and `progress`.
 */
export type AnswerResponse = Pick<Complete<Schemas["AnswerResponse"]>, "notifications" | "proficiency"> & {
  readonly evaluation: Pick<Complete<Schemas["Evaluation"]>, "result"> & {
    readonly termEvaluations: TermEvaluation[];
  };
};

/**
 * A user's practice status for one drillable (a rendition): the Practice object of the 2.0 and
 * 2.1.1 Practice pages (proficiency, highest proficiency except for courses, time spent, expected
 * duration to 100 %, last practised, added), plus the sandbox's own `answerCount` and `correctCount`.
 */
export interface Rendition {
  readonly drillableId: string;
  readonly type: string;
  /** Answers given (for a course: summed over its drills). */
  readonly answerCount: number;
  readonly correctCount: number;
  readonly proficiency: Proficiency;
  /** Not for courses (the Practice pages: "Not included for courses"). */
  readonly highestProficiency?: Proficiency;
  /** Seconds: answers given times `SECONDS_PER_ANSWER` of practice.ts (the sandbox's estimate). */
  readonly timeSpent: number;
  /** Seconds still needed to reach 100 % (the Practice pages); see `remainingDurationOf` of practice.ts. */
  readonly expectedDuration: number;
  /** ISO 8601 instant of the latest answer recorded here; absent before the first (or for seeded practice). */
  readonly lastPracticed?: string;
  /** ISO 8601 instant it entered the user's repertoire; absent when it is not there (a trial rendition). */
  readonly added?: string;
}
