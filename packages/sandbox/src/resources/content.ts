/**
 * The content family: drills and courses as authored content (create, update, merge, course
 * contents, delete, publish to a catalog) and what users do with them (reviews, appreciations,
 * reception, practice preferences), in both versions over one state. Drills and courses live in
 * `SandboxState` (so store search, catalogs, groups and practice see them); authorship, reviews,
 * appreciations and preferences in `state.content` (src/domain/content.ts).
 *
 * Permissions: only a record's author may change it; records of the data file have no author, so
 * nobody may change them through the API. A created drill or course is private to its author (practice
 * and repertoire included) until it is published to a catalog.
 */
import type { PracticePreferences, ReviewRecord } from "../domain/content.js";
import type { SandboxState } from "../domain/state.js";
import { COURSE_TYPE, type Course, DRILL_TYPE, type Drill, type DrillableRecord } from "../domain/types.js";
import { actorV21 } from "./actors.js";
import { type Both, defineFamily, type FamilyTable, ok, refuse } from "./family.js";
import { refuseImageKeys } from "./images.js";

type Cause = Parameters<typeof refuse>[0];

/** A text field that must not be blank (blank counts as missing on create, invalid on update). */
function text(value: unknown, field: string, blank: "missing" | "invalid"): string {
  const trimmed = typeof value === "string" ? value.trim() : "";
  if (trimmed !== "") return trimmed;
  return refuse({ kind: blank, field }, `form field "${field}": must not be blank`, field);
}

/** An optional text field of an update: absent stays absent, blank is invalid. */
function optionalText(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : text(value, field, "invalid");
}

/** The record a path names, or the page's refusal for an unknown one. */
function recordFor(state: SandboxState, id: string, unknown: Cause, parameter: string): DrillableRecord {
  return (
    state.drillable(id) ??
    refuse(unknown, `${parameter}: no drill or course ${JSON.stringify(id)}`, parameter)
  );
}

/** Refuses unless the acting user authored the record. */
function requireAuthor(state: SandboxState, userId: string, record: DrillableRecord, denied: Cause): void {
  if (state.content.authorOf(record.id) === userId) return;
  refuse(denied, `only the author of ${JSON.stringify(record.id)} may change it`);
}

/** Refuses unless the acting user may use (practise, see) the record. */
function requireAccess(state: SandboxState, userId: string, record: DrillableRecord, denied: Cause): void {
  if (state.canAccess(userId, record)) return;
  refuse(denied, `the acting user may not use ${JSON.stringify(record.id)}`);
}

/** A drill the acting user authored, addressed in the path; unknown IDs and courses are `invalid`. */
function ownDrill(state: SandboxState, userId: string, id: string, parameter: string, field: string): Drill {
  const record = recordFor(state, id, { kind: "invalid", field }, parameter);
  if (record.type !== DRILL_TYPE) {
    refuse(
      { kind: "invalid", field },
      `${parameter}: ${JSON.stringify(id)} is a course, not a drill`,
      parameter,
    );
  }
  requireAuthor(state, userId, record, { kind: "no_permission", resource: "drill" });
  return record;
}

/** The form's tags: one string or a repeated field; a blank tag is `invalid_tag`. */
function tagsOf(value: unknown): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.map((tag) =>
    typeof tag === "string" && tag.trim() !== ""
      ? tag.trim()
      : refuse(
          { kind: "invalid", field: "tag" },
          `form field "tags": ${JSON.stringify(tag)} is not a tag`,
          "tags",
        ),
  );
}

/** The name as recorded: a taken one (among the author's own records) gets " (2)", " (3)", … appended. */
function recordedName(state: SandboxState, userId: string, name: string): string {
  const taken = new Set(
    state.content.authorship
      .all()
      .filter((a) => a.authorId === userId)
      .flatMap((a) => state.drillable(a.id)?.name ?? []),
  );
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name} (${n})`)) n++;
  return `${name} (${n})`;
}

function createDrill(state: SandboxState, userId: string, body: Record<string, unknown>): Drill {
  const name = text(body.name, "name", "missing");
  const subject = text(body.subject, "subject", "missing");
  const description = text(body.description, "description", "missing");
  if (subject.toLowerCase() === name.toLowerCase()) {
    refuse(
      { kind: "named", id: "subject_equal_to_name" },
      'form field "subject": must differ from the name',
      "subject",
    );
  }
  const drill: Drill = {
    id: state.content.authorship.newId("drill"),
    type: DRILL_TYPE,
    name: recordedName(state, userId, name),
    subject,
    description,
    tags: tagsOf(body.tags),
    inStore: false,
    // An empty drill: the items' labels are unknown until items arrive (by a merge).
    askName: "",
    tellName: "",
    items: [],
  };
  state.upsertDrill(drill);
  state.content.authored(drill.id, userId);
  return drill;
}

function updateDrill(
  state: SandboxState,
  userId: string,
  id: string,
  parameter: string,
  body: Record<string, unknown> | undefined,
): Drill {
  const drill = ownDrill(state, userId, id, parameter, "drillId");
  const name = optionalText(body?.name, "name");
  const subject = optionalText(body?.subject, "subject");
  const description = optionalText(body?.description, "description");
  const contentLanguage = optionalText(body?.contentLanguage, "contentLanguage");
  if ([name, subject, description, contentLanguage].every((v) => v === undefined)) {
    refuse(
      { kind: "named", id: "missing_parameters" },
      "send at least one of name, subject, description and contentLanguage",
    );
  }
  const next: Drill = {
    ...drill,
    ...(name === undefined ? {} : { name }),
    ...(subject === undefined ? {} : { subject }),
    ...(description === undefined ? {} : { description }),
  };
  if (next.subject.toLowerCase() === next.name.toLowerCase()) {
    refuse(
      { kind: "named", id: "subject_equal_to_name" },
      "the subject must differ from the name",
      "subject",
    );
  }
  state.upsertDrill(next);
  state.content.edited(drill.id, contentLanguage === undefined ? {} : { contentLanguage });
  return next;
}

/** A drill as the 2.1 drill-editing answers show it. */
function drillV21(state: SandboxState, drill: Drill) {
  return {
    id: drill.id,
    type: drill.type,
    name: drill.name,
    subject: drill.subject,
    description: drill.description,
    lastEdited: state.content.lastEdited(drill.id),
  };
}

/** A drill as the 2.0 drill writes show it (the same fields). */
function drillV20(state: SandboxState, drill: Drill) {
  return drillV21(state, drill);
}

function createCourse(state: SandboxState, userId: string, body: Record<string, unknown>): Course {
  const course: Course = {
    id: state.content.authorship.newId("course"),
    type: COURSE_TYPE,
    name: text(body.name, "name", "missing"),
    // A course takes its subject from its first drill (see placeDrillInCourse).
    subject: "",
    description: text(body.description, "description", "missing"),
    tags: [],
    inStore: false,
    drillIds: [],
  };
  state.upsertCourse(course);
  state.content.authored(course.id, userId);
  return course;
}

/** A course as the 2.1 course answers show it: the page's `id` and `type`, and what it holds. */
function courseV21(state: SandboxState, course: Course) {
  return {
    id: course.id,
    type: course.type,
    name: course.name,
    subject: course.subject,
    description: course.description,
    lastEdited: state.content.lastEdited(course.id),
    drills: course.drillIds.flatMap((id) => {
      const drill = state.drillable(id);
      return drill === undefined ? [] : [{ id: drill.id, type: drill.type, name: drill.name }];
    }),
  };
}

function ownCourse(state: SandboxState, userId: string, id: string, unknown: Cause, denied: Cause): Course {
  const record = recordFor(state, id, unknown, "course");
  if (record.type !== COURSE_TYPE) {
    refuse(unknown, `course: ${JSON.stringify(id)} is a drill, not a course`, "course");
  }
  requireAuthor(state, userId, record, denied);
  return record;
}

/**
 * Puts a drill the acting user may use into their course: a drill new to the course goes at
 * `position` (the end without one); a drill already in it moves to `position`, and without one is
 * `drill_already_in_course`. An empty course takes the drill's subject.
 */
function placeDrillInCourse(
  state: SandboxState,
  userId: string,
  courseId: string,
  drillId: string,
  position?: number,
): Course {
  const course = ownCourse(
    state,
    userId,
    courseId,
    { kind: "named", id: "course_unknown" },
    { kind: "no_permission", resource: "course" },
  );
  const drill = state.drillable(drillId);
  if (drill === undefined || drill.type !== DRILL_TYPE) {
    return refuse(
      { kind: "named", id: "drill_unknown" },
      `drill: no drill ${JSON.stringify(drillId)}`,
      "drill",
    );
  }
  requireAccess(state, userId, drill, { kind: "no_permission", resource: "drill" });
  const present = course.drillIds.includes(drill.id);
  if (present && position === undefined) {
    refuse(
      { kind: "named", id: "drill_already_in_course" },
      `${JSON.stringify(drillId)} is in the course already`,
      "drill",
    );
  }
  if (course.subject !== "" && course.subject !== drill.subject) {
    refuse(
      { kind: "named", id: "subject_mismatch" },
      `the course's subject is ${JSON.stringify(course.subject)}, the drill's ${JSON.stringify(drill.subject)}`,
      "drill",
    );
  }
  const others = course.drillIds.filter((id) => id !== drill.id);
  const at = position ?? others.length;
  if (at > others.length) {
    refuse(
      { kind: "invalid", field: "position" },
      `position: must be 0 to ${others.length} (got ${at})`,
      "position",
    );
  }
  const next: Course = {
    ...course,
    subject: course.subject === "" ? drill.subject : course.subject,
    drillIds: [...others.slice(0, at), drill.id, ...others.slice(at)],
  };
  state.upsertCourse(next);
  state.content.edited(course.id);
  return next;
}

/** Why deleting a drill or course may be unwanted: the 2.1.1 page's warning identifiers that apply. */
type DeletionWarning = "part_of_course" | "part_of_group" | "test_defined" | "test_completed";

const WARNING_TEXT: Record<DeletionWarning, string> = {
  part_of_course: "The drill is part of one or more courses",
  part_of_group: "The drill or course is part of a group",
  test_defined: "A test has been defined for the drill or course",
  test_completed: "One or more tests were completed that contain this drill or course",
};

function deletionWarnings(state: SandboxState, record: DrillableRecord): DeletionWarning[] {
  // Only authored courses change, and the record is authored: no course of the data file holds it.
  const inCourse = state.content.authorship.all().some((a) => {
    const course = state.drillable(a.id);
    return course?.type === COURSE_TYPE && course.drillIds.includes(record.id);
  });
  const tests = state.assessment.tests.all().filter((t) => t.drillIds.includes(record.id));
  const completed = tests.some((t) =>
    state.assessment.results.rightsOf(t.id).some(([, result]) => result.completed !== undefined),
  );
  return [
    ...(inCourse ? (["part_of_course"] as const) : []),
    ...(state.org.groupDrillables.leftsOf(record.id).length > 0 ? (["part_of_group"] as const) : []),
    ...(tests.length > 0 ? (["test_defined"] as const) : []),
    ...(completed ? (["test_completed"] as const) : []),
  ];
}

/** The drill or course to delete: it exists and the acting user authored it. */
function deletable(state: SandboxState, userId: string, id: string): DrillableRecord {
  const record = recordFor(state, id, { kind: "named", id: "unknown_drillable_id" }, "drillable");
  requireAuthor(state, userId, record, { kind: "no_permission", resource: "drillable" });
  return record;
}

const DELETE_BEHAVIOUR =
  "follows the 2.1.1 page of deleting a drillable (the revision of 2.1, whose description types both): the author deletes a drill or course from everywhere (courses, catalogs, groups, repertoires, reviews) and gets 204; while there are warnings (`part_of_course`: a drill in a course, `part_of_group`, `test_defined`: a test asks from it, `test_completed`: such a test was completed) it answers 428 with `{ warnings: [{ id, description }] }` (a sandbox choice: the page does not show the Warnings object's fields) and deletes nothing, unless `ignoreWarnings=true`; `part_of_objective` (a group objective names it) is 400 whatever `ignoreWarnings` says; `unknown_drillable_id`; not the author `no_permission` (403, the page names none); no co-authors in the sandbox, so the author's delete always deletes";

/**
 * Deletes a drill or course of the acting user's as the 2.1.1 page says (2.1 and 2.1.1 alike): 428
 * with the warnings unless they are ignored; an objective naming it refuses whatever the flag says.
 */
function deleteDrillable(state: SandboxState, userId: string, id: string, ignoreWarnings: boolean) {
  const record = deletable(state, userId, id);
  if (state.assessment.objectives.all().some((o) => o.drillIds.includes(record.id))) {
    refuse(
      { kind: "named", id: "part_of_objective" },
      `${JSON.stringify(record.id)} is part of one or more objectives`,
    );
  }
  const warnings = deletionWarnings(state, record);
  if (warnings.length > 0 && !ignoreWarnings) {
    return {
      status: 428,
      body: { warnings: warnings.map((w) => ({ id: w, description: WARNING_TEXT[w] })) },
    };
  }
  state.deleteDrillable(record.id);
  return { status: 204 };
}

/** Takes a drill out of the acting user's course; an emptied course forgets its subject. */
function takeDrillFromCourse(state: SandboxState, userId: string, courseId: string, drillId: string): Course {
  const course = ownCourse(
    state,
    userId,
    courseId,
    { kind: "not_found", resource: "course" },
    { kind: "no_permission", resource: "course" },
  );
  if (!course.drillIds.includes(drillId)) {
    refuse(
      { kind: "not_found", resource: "drill" },
      `drill: ${JSON.stringify(drillId)} is not in the course`,
      "drill",
    );
  }
  const drillIds = course.drillIds.filter((id) => id !== drillId);
  const next: Course = { ...course, drillIds, subject: drillIds.length === 0 ? "" : course.subject };
  state.upsertCourse(next);
  state.content.edited(course.id);
  return next;
}

/** A drill or course the acting user may use: `not_found` when unknown, `no_permission` without access. */
function usable(state: SandboxState, userId: string, id: string): DrillableRecord {
  const record = recordFor(state, id, { kind: "not_found", resource: "drillable" }, "drillable");
  requireAccess(state, userId, record, { kind: "no_permission", resource: "drillable" });
  return record;
}

/** A review as the 2.1.1 page of posting one shows it (the revision of 2.1). */
function reviewV21(state: SandboxState, review: ReviewRecord) {
  const reviewer = state.user(review.userId);
  return {
    timestamp: review.timestamp,
    ...(reviewer === undefined ? {} : { reviewer: actorV21(reviewer) }),
    content: review.content,
  };
}

/** The user's appreciations, as the pages' Rating: `points` the mean (1–5), `score` its share of 5 in %. */
function ratingOf(state: SandboxState, drillableId: string) {
  const mean = state.content.meanAppreciation(drillableId);
  return mean === undefined ? undefined : { points: Math.round(mean), score: Math.round((mean / 5) * 100) };
}

function storePreferences(
  state: SandboxState,
  userId: string,
  drillableId: string,
  body: Record<string, unknown> | undefined,
): PracticePreferences {
  const record = usable(state, userId, drillableId);
  const stored = state.content.preferences.get(record.id, userId) ?? {};
  const change: PracticePreferences = {
    ...(body?.direction === undefined
      ? {}
      : { direction: body.direction as PracticePreferences["direction"] }),
    ...(body?.style === undefined ? {} : { style: body.style as PracticePreferences["style"] }),
    ...(Array.isArray(body?.unknownColumns) ? { unknownColumns: body.unknownColumns.map(String) } : {}),
    ...(typeof body?.useIntroductions === "boolean" ? { useIntroductions: body.useIntroductions } : {}),
    ...(typeof body?.autoAdvancement === "boolean" ? { autoAdvancement: body.autoAdvancement } : {}),
  };
  const next = { ...stored, ...change };
  state.content.preferences.set(record.id, userId, next);
  return next;
}

/** The 2.1 operations (2.0's where they answer the same), whose handlers 2.1.1 reuses where its page agrees. */
const V21 = {
  createDrill_v2_1: {
    behaviour:
      "creates an empty drill private to the acting user, its author (ID `drill-<n>`, not in the store until published to a catalog); a name the author used already gets ` (2)`, ` (3)`, … appended and is echoed; answers `id`, `type`, `name`, `subject`, `description`, `lastEdited`; `name_missing`, `subject_missing`, `description_missing` (blank counts as missing), `invalid_tag` (blank tag), `subject_equal_to_name` (case-insensitive); `tags` are kept (searches match them) but not answered: no drill answer shape has them",
    handle: ({ state, userId, body }: Both<"createDrill">) =>
      ok(drillV21(state, createDrill(state, userId, body))),
  },
  createDrill_v2_0: {
    behaviour: "as `createDrill_v2_1` (tags as the open repeated field `tags`), answered in the 2.0 shape",
    handle: ({ state, userId, body }) => ok(drillV20(state, createDrill(state, userId, body))),
  },
  updateDrill_v2_1: {
    behaviour:
      "changes the fields sent (`name`, `subject`, `description`, `contentLanguage`; author only; `lastEdited` moves); an unknown ID or a course `invalid_drill_id`, not the author `no_permission`, no field `missing_parameters`, a blank one `invalid_<field>`, `subject_equal_to_name`; `contentLanguage` is kept but not answered: no drill answer shape has it",
    handle: ({ state, userId, path, body }: Both<"updateDrill">) =>
      ok(drillV21(state, updateDrill(state, userId, path.drill, "drill", body))),
  },
  updateDrill_v2_0: {
    behaviour: "as `updateDrill_v2_1`, answered in the 2.0 shape",
    handle: ({ state, userId, path, body }) =>
      ok(drillV20(state, updateDrill(state, userId, path.drill_id, "drill_id", body))),
  },
  mergeDrills_v2_1: {
    behaviour:
      "appends the items of each `source` drill, in order, to the target drill (the author's own, all of them; sources are kept; `lastEdited` moves) and answers the target; unknown or foreign target `invalid_target`, unknown, foreign or target-equal source `invalid_drill`",
    handle: ({ state, userId, path, body }: Both<"mergeDrills">) => {
      const target = state.drillable(path.drill);
      if (
        target === undefined ||
        target.type !== DRILL_TYPE ||
        state.content.authorOf(target.id) !== userId
      ) {
        return refuse(
          { kind: "invalid", field: "target" },
          `drill: ${JSON.stringify(path.drill)} is no drill of the acting user's`,
          "drill",
        );
      }
      const sources = body.source.map((id) => {
        const source = state.drillable(id);
        if (source?.type !== DRILL_TYPE || id === target.id || state.content.authorOf(id) !== userId) {
          return refuse(
            { kind: "invalid", field: "drill" },
            `form field "source": ${JSON.stringify(id)} is no other drill of the acting user's`,
            "source",
          );
        }
        return source;
      });
      const labelled = sources.find((s) => s.askName !== "") ?? target;
      const merged: Drill = {
        ...target,
        askName: target.askName || labelled.askName,
        tellName: target.tellName || labelled.tellName,
        items: [...target.items, ...sources.flatMap((s) => s.items)],
      };
      state.upsertDrill(merged);
      state.content.edited(target.id);
      return ok(drillV21(state, merged));
    },
  },
  createCourse_v2_1: {
    behaviour:
      "creates an empty course private to the acting user, its author (ID `course-<n>`); answers `id`, `type` `COURSE` and the course's fields; `name_missing`, `description_missing` (blank counts as missing)",
    handle: ({ state, userId, body }: Both<"createCourse">) =>
      ok(courseV21(state, createCourse(state, userId, body))),
  },
  createCourse_v2_0: {
    behaviour:
      "as `createCourse_v2_1`, answering the 2.0 `id` and `type` (the `description` is kept; only 2.1 course answers show it)",
    handle: ({ state, userId, body }) => {
      const course = createCourse(state, userId, body);
      return ok({ id: course.id, type: course.type });
    },
  },
  updateCourse_v2_1: {
    behaviour:
      "changes `name` and `description` (author only; `lastEdited` moves) and answers the course with its drills; `not_found`, `not_permitted`; the sandbox has no image uploads, so any `iconKey` or `coverKey` is `invalid_icon_key`/`invalid_cover_key`",
    handle: ({ state, userId, path, body }: Both<"updateCourse">) => {
      const course = ownCourse(
        state,
        userId,
        path.course,
        { kind: "not_found", resource: "course" },
        { kind: "no_permission", resource: "course" },
      );
      refuseImageKeys(body, ["iconKey", "coverKey"]);
      const name = optionalText(body?.name, "name");
      const description = optionalText(body?.description, "description");
      const next: Course = {
        ...course,
        ...(name === undefined ? {} : { name }),
        ...(description === undefined ? {} : { description }),
      };
      state.upsertCourse(next);
      state.content.edited(course.id);
      return ok(courseV21(state, next));
    },
  },
  addDrillToCourse_v2_1: {
    behaviour:
      "appends a drill the acting user may use to the course (course author only) and answers the course; an empty course takes the drill's subject, a drill of another subject is `subject_mismatch`; `course_unknown`, `drill_unknown`, `no_access`, `drill_already_in_course` (moving a drill takes the position segment of the 2.1 page: `addDrillToCourseAtPosition_v2_1`)",
    handle: ({ state, userId, path }: Both<"addDrillToCourse">) =>
      ok(courseV21(state, placeDrillInCourse(state, userId, path.course, path.drill))),
  },
  addDrillToCourseAtPosition_v2_1: {
    behaviour:
      "the 2.1 page's path with its optional position (an observed operation beside `addDrillToCourse_v2_1`): inserts a drill new to the course at the zero-based `position`, or moves a drill of the course there (the others keep their order), and answers the course; `position_invalid` past the end (0 to the number of other drills), else the errors of `addDrillToCourse_v2_1`",
    handle: ({ state, userId, path }: Both<"addDrillToCourseAtPosition">) =>
      ok(courseV21(state, placeDrillInCourse(state, userId, path.course, path.drill, path.position))),
  },
  deleteDrillable_v2_1: {
    behaviour: DELETE_BEHAVIOUR,
    handle: ({ state, userId, path, query }: Both<"deleteDrillable">) =>
      deleteDrillable(state, userId, path.drillable, query.ignoreWarnings === true),
  },
  getCourse_v2_1: {
    behaviour:
      "the course the acting user may use, as the course-editing answers show it (`id`, `type` `COURSE`, `name`, `subject`, `description`, `lastEdited`, `drills` in course order); a drill ID is `not_found` like an unknown one; no page shows this read, so its errors are the sandbox's choice: `not_found` (404), no access `no_permission` (403)",
    handle: ({ state, userId, path }) => {
      const record = recordFor(state, path.course, { kind: "not_found", resource: "course" }, "course");
      if (record.type !== COURSE_TYPE) {
        refuse(
          { kind: "not_found", resource: "course" },
          `course: ${JSON.stringify(path.course)} is a drill`,
          "course",
        );
      }
      requireAccess(state, userId, record, { kind: "no_permission", resource: "course" });
      return ok(courseV21(state, record));
    },
  },
  removeDrillFromCourse_v2_1: {
    behaviour:
      "takes the drill out of the course (course author only; the others keep their order) and answers the course as adding one does on the 2.1 page; a course left empty takes the subject of the next drill added (a sandbox choice); no page shows this removal, so its errors are the sandbox's choice: an unknown course or a drill not in it `not_found` (404), not the author `no_permission` (403)",
    handle: ({ state, userId, path }) =>
      ok(courseV21(state, takeDrillFromCourse(state, userId, path.course, path.drill))),
  },
  getPlayable_v2_1: {
    behaviour:
      "the drill or course the acting user may use: `type`, `id`, `name`, `icon` (an empty media object: the sandbox keeps no images), `creator` and `owner` (the author, for records created through the API); `not_found`, `no_playable_access`; `versionResolvingStrategy` has no effect (the sandbox keeps no versions)",
    handle: ({ state, userId, path }: Both<"getPlayable">) => {
      const record = recordFor(state, path.playable, { kind: "not_found", resource: "playable" }, "playable");
      requireAccess(state, userId, record, { kind: "named", id: "no_playable_access" });
      const authorId = state.content.authorOf(record.id);
      const author = authorId === undefined ? undefined : state.user(authorId);
      return ok({
        type: record.type,
        id: record.id,
        name: record.name,
        icon: {},
        ...(author === undefined ? {} : { creator: actorV21(author), owner: actorV21(author) }),
      });
    },
  },
  publishPlayable_v2_1: {
    behaviour:
      "puts the drill or course (author only) into the catalog at `position` (0 to the catalog's size; the end by default) and answers 204; catalog members then find it by a catalog search and may practise it; `unknown_drillable`, `not_permitted` (not the author, or no access to the catalog), `catalog_not_found`, `invalid_position`, `playable_part_of_catalog`; the `position` orders the catalog, which no answer lists in order",
    handle: ({ state, userId, path, body }: Both<"publishPlayable">) => {
      const record = recordFor(state, path.playable, { kind: "named", id: "unknown_drillable" }, "playable");
      requireAuthor(state, userId, record, { kind: "no_permission", resource: "playable" });
      const catalog =
        state.catalog(body.catalog) ??
        refuse(
          { kind: "not_found", resource: "catalog" },
          `form field "catalog": no catalog ${JSON.stringify(body.catalog)}`,
          "catalog",
        );
      if (!catalog.userIds.includes(userId)) {
        refuse(
          { kind: "no_permission", resource: "catalog" },
          `the acting user has no access to ${JSON.stringify(catalog.id)}`,
        );
      }
      if (catalog.drillableIds.includes(record.id)) {
        refuse(
          { kind: "named", id: "playable_part_of_catalog" },
          `${JSON.stringify(record.id)} is in ${JSON.stringify(catalog.id)} already`,
          "catalog",
        );
      }
      if (body.position !== undefined && body.position > catalog.drillableIds.length) {
        refuse(
          { kind: "invalid", field: "position" },
          `form field "position": must be 0 to ${catalog.drillableIds.length}`,
          "position",
        );
      }
      state.addToCatalog(catalog.id, record.id, body.position);
      return { status: 204 };
    },
  },
  postReview_v2_1: {
    behaviour:
      "adds the acting user's review (`content`, and `appreciation` 1–5, stored as their appreciation) of a drill or course in their repertoire and answers it (`timestamp`, `reviewer`, `content`); `not_found`, `missing_message` (blank content), `not_in_repertoire`",
    handle: ({ state, userId, path, body }: Both<"postReview">) => {
      const record = recordFor(
        state,
        path.drillable,
        { kind: "not_found", resource: "drillable" },
        "drillable",
      );
      const contentText =
        typeof body.content === "string" && body.content.trim() !== ""
          ? body.content.trim()
          : refuse(
              { kind: "named", id: "missing_message" },
              'form field "content": must not be blank',
              "content",
            );
      if (!state.inRepertoire(userId, record.id)) {
        refuse(
          { kind: "named", id: "not_in_repertoire" },
          `${JSON.stringify(record.id)} is not in the acting user's repertoire`,
        );
      }
      const review = state.content.reviews.put({
        id: state.content.reviews.newId("review"),
        drillableId: record.id,
        userId,
        content: contentText,
        timestamp: state.content.now(),
      });
      if (body.appreciation !== undefined)
        state.content.appreciations.set(record.id, userId, body.appreciation);
      return ok(reviewV21(state, review));
    },
  },
  listReviews_v2_1: {
    behaviour:
      "the reviews of a drill or course the acting user may use, as posting one answers each (`timestamp`, `reviewer`, `content`), oldest first, as a bare list (a sandbox choice: no page shows the wrapper); no page shows this read, so its errors are the sandbox's choice: `not_found` (404), `no_permission` (403)",
    handle: ({ state, userId, path }) => {
      const record = usable(state, userId, path.drillable);
      return ok(state.content.reviewsOf(record.id).map((review) => reviewV21(state, review)));
    },
  },
  getReview_v2_1: {
    behaviour:
      "the acting user's own review of the drill or course (the one posting to the same path made; their latest if they posted several), as posting answers it; no page shows this read, so its errors are the sandbox's choice: `not_found` (404, also before they reviewed it), `no_permission` (403)",
    handle: ({ state, userId, path }) => {
      const record = usable(state, userId, path.drillable);
      const own = state.content.reviewsOf(record.id).filter((review) => review.userId === userId);
      const latest =
        own.at(-1) ??
        refuse(
          { kind: "not_found", resource: "review" },
          `the acting user has not reviewed ${JSON.stringify(record.id)}`,
        );
      return ok(reviewV21(state, latest));
    },
  },
  getAppreciation_v2_1: {
    behaviour:
      "the Rating that storing an appreciation answers (over every user's appreciation, as `storeAppreciation_v2_1`; `{}` before the first, as the reception leaves it out); no page shows this read, so its errors are the sandbox's choice: `not_found` (404), `no_permission` (403)",
    handle: ({ state, userId, path }) => {
      const record = usable(state, userId, path.playable);
      return ok(ratingOf(state, record.id) ?? {});
    },
  },
  getPracticePreferences_v2_1: {
    behaviour:
      "the acting user's stored practice preferences for a drill or course they may use, as storing them answers (only the attributes stored; none: `{}`); errors as `storePracticePreferences_v2_1`: `not_found`, `no_permission`",
    handle: ({ state, userId, path }) => {
      const record = usable(state, userId, path.drillable);
      return ok(state.content.preferences.get(record.id, userId) ?? {});
    },
  },
  storeAppreciation_v2_1: {
    behaviour:
      "stores the acting user's appreciation (1–5, replacing theirs) of a drill or course they may use and answers the Rating over all users: `points` the rounded mean, `score` the mean as a percentage of 5 (a sandbox choice: the ranges are not shown); `playable_not_found`, `no_access`, `invalid_appreciation`",
    handle: ({ state, userId, path }: Both<"storeAppreciation">) => {
      const record = recordFor(state, path.playable, { kind: "not_found", resource: "playable" }, "playable");
      requireAccess(state, userId, record, { kind: "no_permission", resource: "playable" });
      const value = Number(path.appreciation);
      if (!/^[1-5]$/.test(String(path.appreciation))) {
        refuse(
          { kind: "invalid", field: "appreciation" },
          `appreciation: must be a whole number from 1 to 5 (got ${JSON.stringify(path.appreciation)})`,
          "appreciation",
        );
      }
      state.content.appreciations.set(record.id, userId, value);
      return ok(ratingOf(state, record.id));
    },
  },
  getReception_v2_1: {
    behaviour:
      "how a drill or course the acting user may use is received: `popularity` (users holding it in their repertoire) and `appreciation` (as `storeAppreciation_v2_1`, absent before the first); no `difficulty`: the sandbox gathers no difficulty ratings; `not_found`, `no_access`",
    handle: ({ state, userId, path }: Both<"getReception">) => {
      const record = recordFor(
        state,
        path.drillable,
        { kind: "not_found", resource: "drillable" },
        "drillable",
      );
      requireAccess(state, userId, record, { kind: "no_permission", resource: "drillable" });
      const appreciation = ratingOf(state, record.id);
      return ok({
        popularity: state.repertoireHolders(record.id),
        ...(appreciation === undefined ? {} : { appreciation }),
      });
    },
  },
  storePracticePreferences_v2_1: {
    behaviour:
      "stores the fields sent as the acting user's preferences for a drill or course they may use (a field left out keeps its value) and answers every stored one (none stored: `{}`); `not_found`, `no_permission`",
    handle: ({ state, userId, path, body }: Both<"storePracticePreferences">) =>
      ok(storePreferences(state, userId, path.drillable, body)),
  },
} satisfies FamilyTable;

/** API 2.1.1: the 2.1 components and behaviour, with the drill's position in a course and the 428 warnings. */
const V211 = {
  createDrill_v2_1_1: { behaviour: "as `createDrill_v2_1`", handle: V21.createDrill_v2_1.handle },
  updateDrill_v2_1_1: { behaviour: "as `updateDrill_v2_1`", handle: V21.updateDrill_v2_1.handle },
  mergeDrills_v2_1_1: { behaviour: "as `mergeDrills_v2_1`", handle: V21.mergeDrills_v2_1.handle },
  createCourse_v2_1_1: { behaviour: "as `createCourse_v2_1`", handle: V21.createCourse_v2_1.handle },
  updateCourse_v2_1_1: { behaviour: "as `updateCourse_v2_1`", handle: V21.updateCourse_v2_1.handle },
  addDrillToCourse_v2_1_1: {
    behaviour:
      "appends a drill new to the course (as `addDrillToCourse_v2_1`); a drill in the course already is `drill_already_in_course` (moving takes the position segment)",
    handle: V21.addDrillToCourse_v2_1.handle,
  },
  addDrillToCourseAtPosition_v2_1_1: {
    behaviour: "as `addDrillToCourseAtPosition_v2_1` (the same behaviour on the 2.1 and 2.1.1 pages)",
    handle: V21.addDrillToCourseAtPosition_v2_1.handle,
  },
  deleteDrillable_v2_1_1: {
    behaviour: "as `deleteDrillable_v2_1` (the same 2.1.1 page)",
    handle: V21.deleteDrillable_v2_1.handle,
  },
  getPlayable_v2_1_1: { behaviour: "as `getPlayable_v2_1`", handle: V21.getPlayable_v2_1.handle },
  publishPlayable_v2_1_1: { behaviour: "as `publishPlayable_v2_1`", handle: V21.publishPlayable_v2_1.handle },
  postReview_v2_1_1: { behaviour: "as `postReview_v2_1`", handle: V21.postReview_v2_1.handle },
  storeAppreciation_v2_1_1: {
    behaviour: "as `storeAppreciation_v2_1`",
    handle: V21.storeAppreciation_v2_1.handle,
  },
  getReception_v2_1_1: { behaviour: "as `getReception_v2_1`", handle: V21.getReception_v2_1.handle },
  storePracticePreferences_v2_1_1: {
    behaviour: "as `storePracticePreferences_v2_1`",
    handle: V21.storePracticePreferences_v2_1.handle,
  },
} satisfies FamilyTable;

/** The content family; see the module comment. */
export const content = defineFamily("drills and courses", { ...V21, ...V211 });
