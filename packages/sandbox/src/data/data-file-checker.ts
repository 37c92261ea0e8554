/**
 * Checks a data file handed over piece by piece (the top-level object, then each record of each list)
 * and, at the end, everything that needs all records: unique IDs, unambiguous token subjects and
 * references. A file read in one piece and a file streamed record by record go through the same checks
 * and get the same problems, in the same order.
 */
import type { ObjectiveData } from "../domain/assessment.js";
import type {
  Catalog,
  Course,
  Drill,
  Group,
  Organization,
  PracticeData,
  SandboxData,
  User,
} from "../domain/types.js";
import type { DataFileProblem } from "../errors.js";
import { describe, FieldReader } from "./data-file-fields.js";
import {
  readCatalog,
  readCourse,
  readDrill,
  readGroup,
  readObjective,
  readOrganization,
  readPractice,
  readUser,
} from "./data-file-records.js";

/**
 * Version of the data file format this module reads (`formatVersion`, optional in the file).
 */
export const DATA_FILE_FORMAT_VERSION = 1;

/**
 * Outcome of checking a data file: the data, or every problem found.
 */
export type DataFileValidation =
  | { readonly ok: true; readonly data: SandboxData }
  | { readonly ok: false; readonly problems: readonly DataFileProblem[] };

/**
 * The top-level lists of a data file.
 */
export type DataFileSection =
  | "organizations"
  | "users"
  | "drills"
  | "courses"
  | "catalogs"
  | "groups"
  | "objectives"
  | "practice";

/**
 * The top-level lists in the order their problems are reported.
 */
export const DATA_FILE_SECTIONS: readonly DataFileSection[] = [
  "organizations",
  "users",
  "drills",
  "courses",
  "catalogs",
  "groups",
  "objectives",
  "practice",
];

/**
 * Whether a top-level name is one of the lists.
 */
export function isDataFileSection(name: string): name is DataFileSection {
  return (DATA_FILE_SECTIONS as readonly string[]).includes(name);
}

const REQUIRED_SECTIONS: ReadonlySet<DataFileSection> = new Set(["organizations", "users", "drills"]);
const ROOT_FIELDS: readonly string[] = ["$schema", "formatVersion", ...DATA_FILE_SECTIONS];

/** The records of one list that were objects, with their positions in the file's array. */
class Records<T> {
  readonly values: T[] = [];
  readonly #positions: number[] = [];
  readonly #section: DataFileSection;

  constructor(section: DataFileSection) {
    this.#section = section;
  }

  add(value: T, position: number): void {
    this.values.push(value);
    this.#positions.push(position);
  }

  /** The JSON path of the k-th kept record (built only for a problem, not kept per record). */
  path(k: number): string {
    return `$.${this.#section}[${this.#positions[k]}]`;
  }
}

/**
 * Checks a data file given piece by piece: {@link DataFileChecker.root} with the top-level object,
 * each list either whole ({@link DataFileChecker.section}) or record by record
 * ({@link DataFileChecker.entry}, then {@link DataFileChecker.sectionEnd}), in any order, then
 * {@link DataFileChecker.finish}. Problems are reported top level first, then list by list in the order
 * of {@link DATA_FILE_SECTIONS}, then those across records, whatever order the pieces came in.
 */
export class DataFileChecker {
  readonly #r = new FieldReader();
  readonly #rootProblems: DataFileProblem[] = [];
  #rootIsObject = true;
  readonly #sectionProblems = new Map<DataFileSection, DataFileProblem[]>();
  readonly #organizations = new Records<Organization>("organizations");
  readonly #users = new Records<User>("users");
  readonly #drills = new Records<Drill>("drills");
  readonly #courses = new Records<Course>("courses");
  readonly #catalogs = new Records<Catalog>("catalogs");
  readonly #groups = new Records<Group>("groups");
  readonly #objectives = new Records<ObjectiveData>("objectives");
  readonly #practice = new Records<PracticeData>("practice");

  /**
   * Checks the top-level value: an object with known names only, and `$schema` and `formatVersion` when
   * given. The lists in it are not read here. Returns false when it is not an object.
   */
  root(value: unknown): boolean {
    const r = this.#r;
    r.problems = this.#rootProblems;
    const root = r.object(value, "$", ROOT_FIELDS);
    if (root === undefined) {
      this.#rootIsObject = false;
      return false;
    }
    if (root.$schema !== undefined && typeof root.$schema !== "string") {
      r.problem("$.$schema", `must be a string, got ${describe(root.$schema)}`);
    }
    if (root.formatVersion !== undefined && root.formatVersion !== DATA_FILE_FORMAT_VERSION) {
      r.problem(
        "$.formatVersion",
        `must be ${DATA_FILE_FORMAT_VERSION}, got ${describe(root.formatVersion)}`,
      );
    }
    return true;
  }

  /** A whole list value as given (an array, or something else, which is a problem). */
  section(section: DataFileSection, value: unknown): void {
    const entries = this.#use(section).arrayValue(value, `$.${section}`, REQUIRED_SECTIONS.has(section));
    for (let i = 0; i < entries.length; i++) this.entry(section, i, entries[i]);
    if (Array.isArray(value)) this.sectionEnd(section, entries.length);
  }

  /** One record of a list, at its position in the list. */
  entry(section: DataFileSection, index: number, value: unknown): void {
    const r = this.#use(section);
    const path = `$.${section}[${index}]`;
    switch (section) {
      case "organizations":
        keep(this.#organizations, readOrganization(r, value, path), index);
        break;
      case "users":
        keep(this.#users, readUser(r, value, path), index);
        break;
      case "drills":
        keep(this.#drills, readDrill(r, value, path), index);
        break;
      case "courses":
        keep(this.#courses, readCourse(r, value, path), index);
        break;
      case "catalogs":
        keep(this.#catalogs, readCatalog(r, value, path), index);
        break;
      case "groups":
        keep(this.#groups, readGroup(r, value, path), index);
        break;
      case "objectives":
        keep(this.#objectives, readObjective(r, value, path), index);
        break;
      case "practice":
        keep(this.#practice, readPractice(r, value, path), index);
        break;
    }
  }

  /** The end of a list given as an array of `length` records. */
  sectionEnd(section: DataFileSection, length: number): void {
    const r = this.#use(section);
    if (section === "organizations" && length === 0) {
      r.problem("$.organizations", "must hold at least one organization (its service account gets tokens)");
    }
  }

  /** Runs the checks across records and returns the data, or every problem in report order. */
  finish(): DataFileValidation {
    const problems: DataFileProblem[] = [...this.#rootProblems];
    if (!this.#rootIsObject) return { ok: false, problems };
    for (const section of DATA_FILE_SECTIONS) {
      const given = this.#sectionProblems.get(section);
      if (given === undefined) {
        if (REQUIRED_SECTIONS.has(section))
          problems.push({ path: `$.${section}`, message: "is required (an array)" });
      } else for (const problem of given) problems.push(problem);
    }
    this.#sectionProblems.clear();
    this.#r.problems = problems;
    this.#checkAcrossRecords();
    if (problems.length > 0) return { ok: false, problems };
    return {
      ok: true,
      data: {
        organizations: this.#organizations.values,
        users: this.#users.values,
        drills: this.#drills.values,
        courses: this.#courses.values,
        catalogs: this.#catalogs.values,
        groups: this.#groups.values,
        ...(this.#objectives.values.length > 0 ? { objectives: this.#objectives.values } : {}),
        ...(this.#practice.values.length > 0 ? { practice: this.#practice.values } : {}),
      },
    };
  }

  /** The field reader, recording into the list's own problems (so report order does not depend on file order). */
  #use(section: DataFileSection): FieldReader {
    let problems = this.#sectionProblems.get(section);
    if (problems === undefined) {
      problems = [];
      this.#sectionProblems.set(section, problems);
    }
    this.#r.problems = problems;
    return this.#r;
  }

  #checkAcrossRecords(): void {
    const ids = { ...this.#uniqueIds(), drillIds: new Set(this.#drills.values.map((drill) => drill.id)) };
    this.#checkSubjects();
    this.#checkOrganizationLinks(ids.orgIds);
    this.#checkReferences(ids);
    this.#checkPractice(ids.userIds, ids.drillIds, ids.drillableIds);
  }

  /** Each kind's IDs are unique (drills and courses share one space); the first path of each ID. */
  #uniqueIds(): {
    orgIds: Map<string, string>;
    userIds: Map<string, string>;
    drillableIds: Map<string, string>;
  } {
    const r = this.#r;
    const unique = (lists: readonly Records<{ readonly id: string }>[], what: string) => {
      const first = new Map<string, string>();
      for (const list of lists) {
        list.values.forEach((value, k) => {
          if (value.id === "") return;
          const earlier = first.get(value.id);
          if (earlier === undefined) first.set(value.id, list.path(k));
          else
            r.problem(
              `${list.path(k)}.id`,
              `duplicate ${what} ID ${JSON.stringify(value.id)} (first used at ${earlier})`,
            );
        });
      }
      return first;
    };
    const orgIds = unique([this.#organizations], "organization");
    const userIds = unique([this.#users], "user");
    const drillableIds = unique([this.#drills, this.#courses], "drill or course");
    unique([this.#catalogs], "catalog");
    unique([this.#groups], "group");
    unique([this.#objectives], "objective");
    return { orgIds, userIds, drillableIds };
  }

  /** A token subject (user ID, e-mail address or third-party ID) names one user only. */
  #checkSubjects(): void {
    const users = this.#users;
    const subjectOwner = new Map<string, string>();
    users.values.forEach((value, k) => {
      if (value.id !== "" && !subjectOwner.has(value.id)) subjectOwner.set(value.id, users.path(k));
    });
    users.values.forEach((value, k) => {
      const path = users.path(k);
      const names: [string, string][] = [
        ...value.emails.map((e, i): [string, string] => [e, `${path}.emails[${i}]`]),
        ...value.thirdPartyIds.map((t, i): [string, string] => [t, `${path}.thirdPartyIds[${i}]`]),
      ];
      for (const [name, at] of names) {
        const owner = subjectOwner.get(name);
        if (owner !== undefined && owner !== path) {
          this.#r.problem(
            at,
            `${JSON.stringify(name)} already names the user at ${owner}; token subjects must be unambiguous`,
          );
        } else subjectOwner.set(name, path);
      }
    });
  }

  /** Service accounts are users of their own organization; a user's organization exists. */
  #checkOrganizationLinks(orgIds: ReadonlyMap<string, string>): void {
    const { organizations, users } = { organizations: this.#organizations, users: this.#users };
    // The first user with each ID, as `userIds` records it; a map, not a search per organization.
    const usersById = new Map<string, User>();
    for (const value of users.values) if (!usersById.has(value.id)) usersById.set(value.id, value);
    organizations.values.forEach((value, k) => {
      if (value.serviceAccountId === "") return;
      const at = `${organizations.path(k)}.serviceAccountId`;
      const user = usersById.get(value.serviceAccountId);
      if (user === undefined) {
        this.#r.problem(at, `no user with ID ${JSON.stringify(value.serviceAccountId)}`);
      } else if (user.organizationId !== value.id) {
        this.#r.problem(
          at,
          `the service account user ${JSON.stringify(user.id)} must have organizationId ${JSON.stringify(value.id)}`,
        );
      }
    });
    users.values.forEach((value, k) => {
      if (
        value.organizationId !== undefined &&
        value.organizationId !== "" &&
        !orgIds.has(value.organizationId)
      ) {
        this.#r.problem(
          `${users.path(k)}.organizationId`,
          `no organization with ID ${JSON.stringify(value.organizationId)}`,
        );
      }
    });
  }

  /** Courses, staff lists, catalogs, groups and objectives name records that exist. */
  #checkReferences(ids: {
    orgIds: ReadonlyMap<string, string>;
    userIds: ReadonlyMap<string, string>;
    drillableIds: ReadonlyMap<string, string>;
    drillIds: ReadonlySet<string>;
  }): void {
    const r = this.#r;
    const drillIds = ids.drillIds;
    this.#courses.values.forEach((value, k) => {
      value.drillIds.forEach((id, i) => {
        if (drillIds.has(id)) return;
        const at = `${this.#courses.path(k)}.drillIds[${i}]`;
        if (ids.drillableIds.has(id))
          r.problem(at, `${JSON.stringify(id)} is a course; a course holds drills only`);
        else r.problem(at, `no drill with ID ${JSON.stringify(id)}`);
      });
    });
    const checkDrillables = (list: readonly string[], at: string) =>
      list.forEach((id, i) => {
        if (!ids.drillableIds.has(id))
          r.problem(`${at}[${i}]`, `no drill or course with ID ${JSON.stringify(id)}`);
      });
    const checkUsers = (list: readonly string[], at: string, suffix = (i: number) => `[${i}]`) =>
      list.forEach((id, i) => {
        if (!ids.userIds.has(id)) r.problem(`${at}${suffix(i)}`, `no user with ID ${JSON.stringify(id)}`);
      });
    const checkStaff = (staff: readonly { userId: string }[] | undefined, at: string) =>
      checkUsers(
        (staff ?? []).map((s) => s.userId),
        at,
        (i) => `[${i}].userId`,
      );
    this.#organizations.values.forEach((value, k) => {
      checkStaff(value.staff, `${this.#organizations.path(k)}.staff`);
    });
    this.#catalogs.values.forEach((value, k) => {
      const path = this.#catalogs.path(k);
      checkDrillables(value.drillableIds, `${path}.drillableIds`);
      checkUsers(value.userIds, `${path}.userIds`);
    });
    this.#groups.values.forEach((value, k) => {
      const path = this.#groups.path(k);
      if (value.organizationId !== "" && !ids.orgIds.has(value.organizationId)) {
        r.problem(
          `${path}.organizationId`,
          `no organization with ID ${JSON.stringify(value.organizationId)}`,
        );
      }
      checkDrillables(value.drillableIds, `${path}.drillableIds`);
      checkUsers(value.memberIds, `${path}.memberIds`);
      checkStaff(value.staff, `${path}.staff`);
    });
    const groupIds = new Set(this.#groups.values.map((g) => g.id));
    this.#objectives.values.forEach((value, k) => {
      const path = this.#objectives.path(k);
      if (!groupIds.has(value.groupId))
        r.problem(`${path}.groupId`, `no group with ID ${JSON.stringify(value.groupId)}`);
      checkDrillables(value.drillIds, `${path}.drillIds`);
    });
  }

  /** Practice records: an existing user, a drill (practice is kept per drill), one record per pair. */
  #checkPractice(
    userIds: ReadonlyMap<string, string>,
    drillIds: ReadonlySet<string>,
    drillableIds: ReadonlyMap<string, string>,
  ): void {
    const r = this.#r;
    const practice = this.#practice;
    const first = new Map<string, string>();
    practice.values.forEach((value, k) => {
      const path = practice.path(k);
      if (value.userId !== "" && !userIds.has(value.userId)) {
        r.problem(`${path}.userId`, `no user with ID ${JSON.stringify(value.userId)}`);
      }
      if (value.drillId !== "" && !drillIds.has(value.drillId)) {
        if (drillableIds.has(value.drillId))
          r.problem(
            `${path}.drillId`,
            `${JSON.stringify(value.drillId)} is a course; practice is kept per drill, so give one record per drill of the course`,
          );
        else r.problem(`${path}.drillId`, `no drill with ID ${JSON.stringify(value.drillId)}`);
      }
      if (value.userId === "" || value.drillId === "") return;
      const key = `${value.userId}\u0000${value.drillId}`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, path);
      else
        r.problem(
          path,
          `duplicate practice of user ${JSON.stringify(value.userId)} on drill ${JSON.stringify(value.drillId)} (first given at ${earlier})`,
        );
    });
  }
}

function keep<T>(records: Records<T>, value: T | undefined, position: number): void {
  if (value !== undefined) records.add(value, position);
}
