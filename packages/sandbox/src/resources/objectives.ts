/**
 * The objectives family: a group's objectives (reach a proficiency on drills by a review date), their
 * evaluation per member from the practice state, and a group's drillables as 2.1 playables. Reading
 * needs VIEW on the group, changing it MANAGE; a member lists the objectives of their groups.
 */
import type { ObjectiveRecord } from "../domain/assessment.js";
import type { SandboxState } from "../domain/state.js";
import type { DrillableRecord } from "../domain/types.js";
import { actorV21 } from "./actors.js";
import { defineFamily, ok, refuse } from "./family.js";
import { groupFor, groupV21, groupV211 } from "./groups.js";
import { futureReviewDate, groupMember } from "./member-review-dates.js";
import { pageByIndex, pageByMarker } from "./paging.js";
import { checkUsableDrillables } from "./usable-drillables.js";

type Body = Readonly<Record<string, unknown>> | undefined;

function playable(record: DrillableRecord) {
  // The sandbox keeps no images: icons are empty Media objects.
  return { type: record.type, id: record.id, name: record.name, icon: {} };
}

function objectiveFor(state: SandboxState, groupId: string, objectiveId: string, parameter: string) {
  const objective = state.assessment.objectives.get(objectiveId);
  if (objective === undefined || objective.groupId !== groupId) {
    return refuse(
      { kind: "not_found", resource: "objective" },
      `${parameter}: no objective ${JSON.stringify(objectiveId)} in this group`,
      parameter,
    );
  }
  return objective;
}

/** A user's proficiency on an objective: the average overall proficiency on its drills. */
function proficiencyOn(state: SandboxState, userId: string, objective: ObjectiveRecord): number {
  const records = objective.drillIds.flatMap((id) => state.drillable(id) ?? []);
  if (records.length === 0) return 0;
  const sum = state
    .toDrillables(records, userId)
    .reduce((n, d) => n + (d.practice?.proficiency.overall ?? 0), 0);
  return Math.round(sum / records.length);
}

/**
 * The objective's review date for a user: the group's, or for an objective defined without one the
 * member's own (the 2.1.1 PUT group objective page), none before it is set.
 */
function reviewDateFor(state: SandboxState, o: ObjectiveRecord, userId: string): string | undefined {
  return o.reviewDate ?? state.assessment.objectiveReviewDates.get(o.id, userId);
}

function objectiveV20(state: SandboxState, o: ObjectiveRecord) {
  return {
    id: o.id,
    type: o.type,
    ...(o.reviewDate === undefined ? {} : { reviewDate: o.reviewDate }),
    minimumProficiency: o.minimumProficiency,
    drills: o.drillIds.flatMap((id) => {
      const record = state.drillable(id);
      return record ? [{ id: record.id, name: record.name }] : [];
    }),
  };
}

function objectiveV21(state: SandboxState, o: ObjectiveRecord, userId: string) {
  const proficiency = proficiencyOn(state, userId, o);
  const reviewDate = reviewDateFor(state, o, userId);
  return {
    id: o.id,
    icon: {},
    type: o.type,
    ...(reviewDate === undefined ? {} : { reviewDate }),
    minimumProficiency: o.minimumProficiency,
    ...(o.fallingMinimumProficiency === undefined
      ? {}
      : { fallingMinimumProficiency: o.fallingMinimumProficiency }),
    evaluation: { met: proficiency >= o.minimumProficiency, proficiency },
    playables: o.drillIds.flatMap((id) => {
      const record = state.drillable(id);
      return record ? [playable(record)] : [];
    }),
  };
}

function field(body: Body, name: string): unknown {
  return body?.[name];
}

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

type ObjectiveFields = {
  -readonly [K in
    | "type"
    | "reviewDate"
    | "minimumProficiency"
    | "fallingMinimumProficiency"
    | "name"
    | "drillIds"]?: ObjectiveRecord[K];
};

/** A proficiency form field: an integer 0..100. */
function proficiencyField(body: Body, name: string): number | undefined {
  const value = field(body, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100)
    refuse({ kind: "invalid", field: name }, `form field "${name}": an integer 0..100`, name);
  return n;
}

/** The fields of an objective from a form; `required` decides whether absent fields are missing. */
function objectiveFields(
  state: SandboxState,
  userId: string,
  body: Body,
  drillField: string,
  required: boolean,
  reviewDateRequired = required,
): ObjectiveFields {
  const out: ObjectiveFields = {};
  const drills = list(field(body, drillField));
  if (drills.length > 0) {
    checkUsableDrillables(state, userId, drills, drillField);
    out.drillIds = [...new Set(drills)];
  } else if (required) {
    refuse(
      { kind: "missing", field: drillField },
      `form field "${drillField}": at least one drill or course`,
      drillField,
    );
  }
  const review = field(body, "reviewDate");
  if (review !== undefined) {
    const date = new Date(String(review));
    if (Number.isNaN(date.getTime())) {
      refuse(
        { kind: "invalid", field: "reviewDate" },
        'form field "reviewDate": an ISO 8601 date-time',
        "reviewDate",
      );
    }
    out.reviewDate = date.toISOString();
  } else if (reviewDateRequired) {
    refuse({ kind: "missing", field: "reviewDate" }, 'form field "reviewDate": required', "reviewDate");
  }
  const minimum = proficiencyField(body, "minimumProficiency");
  if (minimum !== undefined) out.minimumProficiency = minimum;
  else if (required) {
    refuse(
      { kind: "missing", field: "minimumProficiency" },
      'form field "minimumProficiency": required',
      "minimumProficiency",
    );
  }
  const falling = proficiencyField(body, "fallingMinimumProficiency");
  if (falling !== undefined) out.fallingMinimumProficiency = falling;
  const name = field(body, "name");
  if (name !== undefined) out.name = String(name);
  const type = field(body, "type");
  if (type !== undefined) {
    if (type !== "ONEOFF" && type !== "PERMANENT") {
      refuse({ kind: "invalid", field: "type" }, 'form field "type": ONEOFF or PERMANENT', "type");
    }
    out.type = type;
  }
  return out;
}

function defineObjective(
  state: SandboxState,
  userId: string,
  groupId: string,
  parameter: string,
  body: Body,
  drillField: string,
  /** 2.1.1: without a `reviewDate` each member gets a date of their own (its POST objectives page). */
  perMember = false,
): ObjectiveRecord {
  const group = groupFor(state, groupId, userId, "MANAGE", parameter);
  const fields = objectiveFields(state, userId, body, drillField, true, !perMember);
  const duration = field(body, "reviewDuration");
  return state.assessment.objectives.put({
    id: state.assessment.objectives.newId("objective"),
    groupId: group.id,
    type: fields.type ?? "ONEOFF",
    ...(fields.reviewDate === undefined ? {} : { reviewDate: fields.reviewDate }),
    ...(perMember && duration !== undefined ? { reviewDuration: String(duration) } : {}),
    minimumProficiency: fields.minimumProficiency as number,
    ...(fields.fallingMinimumProficiency === undefined
      ? {}
      : { fallingMinimumProficiency: fields.fallingMinimumProficiency }),
    ...(fields.name === undefined ? {} : { name: fields.name }),
    drillIds: fields.drillIds as string[],
    created: state.org.now(),
  });
}

function removeObjective(
  state: SandboxState,
  userId: string,
  groupId: string,
  objectiveId: string,
  parameters: [string, string],
) {
  const group = groupFor(state, groupId, userId, "MANAGE", parameters[0]);
  objectiveFor(state, group.id, objectiveId, parameters[1]);
  state.assessment.objectives.delete(objectiveId);
  return ok({ description: `objective ${objectiveId} removed from ${group.name}` });
}

function groupObjectives(state: SandboxState, groupId: string): ObjectiveRecord[] {
  return state.assessment.objectives.all().filter((o) => o.groupId === groupId);
}

const FIELDS =
  "`reviewDate` (ISO 8601), `minimumProficiency` (0..100), `fallingMinimumProficiency` (0..100, answered by 2.1), `type` (`ONEOFF` by default or `PERMANENT`), `name` (kept; no objective answer shows a name)";

/** The `listObjectives` query of 2.1 and 2.1.1 (the same parameters). */
interface ObjectivesQuery {
  readonly query?: string;
  readonly drill?: string;
  readonly includeCompleted?: boolean;
  readonly fromDate?: string;
  readonly resultStart?: number;
  readonly resultSize?: number;
}

/** The acting user's objectives, evaluated for them, as both versions' lists answer them. */
function ownObjectives(state: SandboxState, userId: string, query: ObjectivesQuery) {
  const needle = query.query?.trim().toLowerCase();
  const from = query.fromDate === undefined ? undefined : new Date(query.fromDate).getTime();
  const found = state.assessment.objectives
    .all()
    .filter((o) => state.org.groupMembers.get(o.groupId, userId))
    .filter((o) => query.drill === undefined || o.drillIds.includes(query.drill))
    .filter((o) => from === undefined || new Date(reviewDateFor(state, o, userId) ?? 0).getTime() >= from)
    .filter(
      (o) =>
        !needle || o.drillIds.some((id) => state.drillable(id)?.name.toLowerCase().includes(needle) ?? false),
    )
    .map((o) => objectiveV21(state, o, userId))
    .filter((o) => query.includeCompleted === true || !o.evaluation.met)
    .sort((a, b) => (a.reviewDate ?? "").localeCompare(b.reviewDate ?? ""));
  const page = pageByIndex(found, query);
  return { total: page.total, objectives: page.items };
}

/** The objectives of the groups the acting user is a member of, by review date (the single-user view). */
function memberObjectives(state: SandboxState, userId: string): ObjectiveRecord[] {
  return state.assessment.objectives
    .all()
    .filter((o) => state.org.groupMembers.get(o.groupId, userId) !== undefined)
    .sort((a, b) => (a.reviewDate ?? "").localeCompare(b.reviewDate ?? ""));
}

/** One objective of a group the acting user is a member of: unknown `not_found`, not a member `no_permission`. */
function memberObjective(state: SandboxState, userId: string, objectiveId: string, parameter: string) {
  const objective =
    state.assessment.objectives.get(objectiveId) ??
    refuse(
      { kind: "not_found", resource: "objective" },
      `${parameter}: no objective ${JSON.stringify(objectiveId)}`,
      parameter,
    );
  if (state.org.groupMembers.get(objective.groupId, userId) === undefined) {
    refuse(
      { kind: "no_permission", resource: "objective" },
      `${parameter}: ${JSON.stringify(objectiveId)} is an objective of a group the acting user is not a member of`,
      parameter,
    );
  }
  return objective;
}

/** A group's drills and courses in the order they were added, searched by name (and description). */
function groupDrillables(
  state: SandboxState,
  groupId: string,
  query: string | undefined,
  descriptions = false,
) {
  const needle = query?.trim().toLowerCase();
  return state.org.groupDrillables
    .rightsOf(groupId)
    .flatMap(([id]) => state.drillable(id) ?? [])
    .filter((r) => {
      const searched = descriptions ? `${r.name}\n${r.description ?? ""}` : r.name;
      return !needle || searched.toLowerCase().includes(needle);
    });
}

/** Each member's current evaluation of a group objective (needs VIEW), as 2.1 and 2.1.1 answer it. */
function objectiveEvaluations(
  state: SandboxState,
  userId: string,
  path: { readonly group: string; readonly objective: string },
) {
  const group = groupFor(state, path.group, userId, "VIEW", "group");
  const objective = objectiveFor(state, group.id, path.objective, "objective");
  const evaluationDate = state.org.now();
  const evaluations = state.org.groupMembers.rightsOf(group.id).flatMap(([member]) => {
    const user = state.user(member);
    if (!user) return [];
    const proficiency = proficiencyOn(state, member, objective);
    const met = proficiency >= objective.minimumProficiency;
    return [{ evaluationDate, met, proficiency, user: actorV21(user) }];
  });
  return ok({ objective: { id: objective.id }, evaluations });
}

/**
 * Sets one member's review date of a group objective defined without one (the 2.1.1 PUT group objective
 * page): `group_not_found`, `no_group_access` (MANAGE), `unknown_objective`, `invalid_objective` (of
 * another group, or with a date for all); answers the objective with only its ID, as the page says.
 */
function setMemberObjectiveReviewDate(
  state: SandboxState,
  userId: string,
  path: { readonly group: string; readonly objective: string },
  form: { readonly user: string; readonly reviewDate: string },
) {
  const group = groupFor(state, path.group, userId, "MANAGE", "group");
  const objective =
    state.assessment.objectives.get(path.objective) ??
    refuse(
      { kind: "not_found", resource: "objective" },
      `objective: no objective ${JSON.stringify(path.objective)}`,
      "objective",
    );
  if (objective.groupId !== group.id || objective.reviewDate !== undefined) {
    refuse(
      { kind: "invalid", field: "objective" },
      `objective ${objective.id} is not of this group, or has one review date for all members`,
      "objective",
    );
  }
  const date = futureReviewDate(state, form.reviewDate);
  state.assessment.objectiveReviewDates.set(objective.id, groupMember(state, group.id, form.user), date);
  return ok({ id: objective.id });
}

/**
 * Changes an objective by its ID (the 2.1.1 PUT objective page): "the calling user must have a teacher
 * role" towards it, read by the sandbox as MANAGE on the objective's group.
 */
function updateObjective(state: SandboxState, userId: string, objectiveId: string, body: Body) {
  const objective =
    state.assessment.objectives.get(objectiveId) ??
    refuse(
      { kind: "not_found", resource: "objective" },
      `objective: no objective ${JSON.stringify(objectiveId)}`,
      "objective",
    );
  groupFor(state, objective.groupId, userId, "MANAGE", "objective");
  // The page: the type cannot be changed to or from TEST (no practice objective is a TEST).
  if (field(body, "type") === "TEST")
    refuse({ kind: "invalid", field: "type" }, 'form field "type": a practice objective is no TEST', "type");
  const change = objectiveFields(state, userId, body, "drills", false);
  state.assessment.objectives.update(objective.id, change);
  return ok({ description: `objective ${objective.id} updated` });
}

/**
 * One member's progress on each drill and course of a group, a page at a time (the 2.1.1 GET group
 * member results page): staff with VIEW, or the member themself (a sandbox choice: the page does not
 * say who may read it); a user who is no member is `not_found`.
 */
function memberResults(
  state: SandboxState,
  userId: string,
  path: { readonly group: string; readonly user: string },
  query: { readonly query?: string; readonly resultFrom?: string; readonly resultSize?: number },
) {
  const own = path.user === userId && state.org.groupMembers.get(path.group, userId) !== undefined;
  const group =
    (own ? state.org.groups.get(path.group) : undefined) ??
    groupFor(state, path.group, userId, "VIEW", "group");
  const member =
    state.org.groupMembers.get(group.id, path.user) === undefined ? undefined : state.user(path.user);
  if (member === undefined)
    refuse(
      { kind: "not_found", resource: "member" },
      `user: ${JSON.stringify(path.user)} is no member`,
      "user",
    );
  const found = groupDrillables(state, group.id, query.query);
  const page = pageByMarker(found, { ...query, resultSize: query.resultSize ?? 10 }, (r) => r.id);
  return ok({
    group: groupV211(state, group),
    member: actorV21(member),
    pagination: page.pagination,
    groupDrillableMemberResults: page.items.map((r) => ({
      drillable: playable(r),
      proficiency: state.toDrillable(r, member.id).practice?.proficiency.overall ?? 0,
    })),
  });
}

/** The objectives family; see the module comment. */
export const objectives = defineFamily("objectives", {
  listGroupObjectives_v2_0: {
    behaviour: "the group's objectives, a bare list (needs VIEW); `group_not_found`, `no_group_access`",
    handle: ({ state, userId, path }) => {
      const group = groupFor(state, path.group_id, userId, "VIEW", "group_id");
      return ok(groupObjectives(state, group.id).map((o) => objectiveV20(state, o)));
    },
  },
  listGroupObjectives_v2_1: {
    behaviour:
      "the group's objectives in the shape of the 2.1 objective list, each evaluated for the acting user (needs VIEW; the answer is not shown)",
    handle: ({ state, userId, path }) => {
      const group = groupFor(state, path.group, userId, "VIEW", "group");
      const found = groupObjectives(state, group.id);
      return ok({ total: found.length, objectives: found.map((o) => objectiveV21(state, o, userId)) });
    },
  },
  defineGroupObjective_v2_1: {
    behaviour: `defines an objective of the group (needs MANAGE; ID \`objective-<n>\`) from the form fields \`drills\` (repeated; a sandbox choice: the page shows no fields), ${FIELDS}; answers it in the 2.1 shape; \`drills_missing\`, \`review_date_missing\`, \`minimum_proficiency_missing\`, \`invalid_<field>\``,
    handle: ({ state, userId, path, body }) =>
      ok(
        objectiveV21(
          state,
          defineObjective(state, userId, path.group, "group", body as Body, "drills"),
          userId,
        ),
      ),
  },
  defineGroupObjective_v2_1_1: {
    behaviour: `as \`defineGroupObjective_v2_1\` (the 2.1.1 POST group objectives page, cut before its parameter table: the other fields are the 2.1 sandbox choices), but \`reviewDate\` may be left out, as the page says, for a date per member set with \`updateGroupObjective_v2_1_1\`; \`reviewDuration\` is kept as sent (its format is not shown, and the sandbox evaluates no review period); \`RECURRING\` is \`invalid_type\` (its cycle fields are cut). Answers it as \`listObjectives_v2_1_1\` lists it (the answer is cut: a sandbox choice)`,
    handle: ({ state, userId, path, body }) =>
      ok(
        objectiveV21(
          state,
          defineObjective(state, userId, path.group, "group", body as Body, "drills", true),
          userId,
        ),
      ),
  },
  updateGroupObjective_v2_1_1: {
    behaviour:
      "sets one member's review date of an objective defined without one (the 2.1.1 PUT group objective page): `user` (`user_id_missing`) a member of the group (`user_not_group_member`, the PUT group test page's identifier: this table is cut after `user_id_missing`), `reviewDate` (`review_date_missing`) an ISO 8601 date in the future (`invalid_review_date`); `group_not_found`, `no_group_access` (needs MANAGE), `unknown_objective`, `invalid_objective` (of another group, or with one date for all). The page gives no statuses: 404 for unknown IDs, 403 for `no_group_access`, 400 for the others (the sandbox's rule). Answers the objective with only its `id`, as the page says; the member then reads the date as the objective's `reviewDate`",
    handle: ({ state, userId, path, body }) => setMemberObjectiveReviewDate(state, userId, path, body),
  },
  updateObjective_v2_1_1: {
    behaviour:
      "changes an objective by its ID (the 2.1.1 PUT objective page; a teacher role towards it, read as MANAGE on its group): `type` (required, `ONEOFF` or `PERMANENT`; `TEST` is `invalid_type`, as the page says the type cannot change to or from TEST), `name`, `reviewDate`, `minimumProficiency`, `fallingMinimumProficiency` as `updateGroupObjective_v2_1`; the duration and message fields are taken and not applied (the sandbox sends no messages and has no schedule). The page is cut before its answer and errors: the sandbox answers a `Message`, an unknown objective `not_found` (404) and no MANAGE `no_permission` (403)",
    handle: ({ state, userId, path, body }) => updateObjective(state, userId, path.objective, body as Body),
  },
  defineGroupObjective_v2_0: {
    behaviour:
      "as `defineGroupObjective_v2_1` with the drills in the repeated field `drill`, answered in the 2.0 shape",
    handle: ({ state, userId, path, body }) =>
      ok(
        objectiveV20(state, defineObjective(state, userId, path.group_id, "group_id", body as Body, "drill")),
      ),
  },
  updateGroupObjective_v2_1: {
    behaviour:
      "as `updateGroupObjective_v2_1_1`: sets one member's review date of an objective defined without one, as the 2.1.1 PUT group objective page says (its example request is sent to `/api/2.1/`); an objective's own fields change through `updateObjective_v2_1_1`",
    handle: ({ state, userId, path, body }) => setMemberObjectiveReviewDate(state, userId, path, body),
  },
  removeGroupObjective_v2_1: {
    behaviour: "removes the objective (needs MANAGE); answers a `Message`",
    handle: ({ state, userId, path }) =>
      removeObjective(state, userId, path.group, path.objective, ["group", "objective"]),
  },
  removeGroupObjective_v2_0: {
    behaviour: "as `removeGroupObjective_v2_1`",
    handle: ({ state, userId, path }) =>
      removeObjective(state, userId, path.group_id, path.objective_id, ["group_id", "objective_id"]),
  },
  listObjectiveEvaluations_v2_1: {
    behaviour:
      "each member's evaluation of the objective (needs VIEW) as the 2.0 `ObjectiveEvaluation` page shows one (`user`, `met`, `proficiency`, `evaluationDate`: now, the state keeps no history), listed in `{ objective, evaluations }` (the 2.1 answer is not shown; the wrapper is a sandbox choice)",
    handle: ({ state, userId, path }) => objectiveEvaluations(state, userId, path),
  },
  listObjectiveEvaluations_v2_1_1: {
    behaviour:
      "as `listObjectiveEvaluations_v2_1`: no 2.1.1 page of its own was found; the 2.1.1 GET objective events page names this path as the way to read an objective's current evaluations, so the sandbox answers them as 2.1 does (the answer, parameters and errors are not shown: the same sandbox choices)",
    handle: ({ state, userId, path }) => objectiveEvaluations(state, userId, path),
  },
  listObjectives_v2_1: {
    behaviour:
      "the objectives of the groups the acting user is a member of, evaluated for them (met: average overall proficiency on its drills at least the minimum), by review date; `query` (drill names), `drill`, `includeCompleted` (default false hides met ones), `fromDate` (review date not before), paged by `resultStart`/`resultSize`; `evaluationDate` is accepted and not applied (the state keeps no history)",
    handle: ({ state, userId, query }) => ok(ownObjectives(state, userId, query)),
  },
  getObjective_v2_1: {
    behaviour:
      "one objective of a group the acting user is a member of, evaluated for them, as an entry of `listObjectives_v2_1` (the 2.1.1 objectives page's entry: `id`, `icon`, `type`, `reviewDate`, `minimumProficiency`, `fallingMinimumProficiency`, `evaluation`, `playables`); no page shows this read, so its errors are the sandbox's choice: unknown `not_found` (404), an objective of another group `no_permission` (403)",
    handle: ({ state, userId, path }) =>
      ok(objectiveV21(state, memberObjective(state, userId, path.objective_id, "objective_id"), userId)),
  },
  listObjectives_v2_0: {
    behaviour:
      "the objectives of the groups the acting user is a member of, met or not, by review date, each the 2.0 Objective the group objectives page lists (`id`, `type`, `reviewDate`, `minimumProficiency`, `drills`), as a bare list like that page's (a sandbox choice: no page shows this list); the 2.0 path takes no parameters, so nothing filters or pages it",
    handle: ({ state, userId }) => ok(memberObjectives(state, userId).map((o) => objectiveV20(state, o))),
  },
  listObjectives_v2_1_1: {
    behaviour: "as `listObjectives_v2_1` (2.1.1 keeps its parameters and its objective's fields)",
    handle: ({ state, userId, query }) => ok(ownObjectives(state, userId, query)),
  },
  listGroupDrillables_v2_1: {
    behaviour:
      "the group in the 2.1 shape with its drills and courses as playables (`drillables`, in the order they were added; needs VIEW); `query` on names, paged by `resultStart`/`resultSize`",
    handle: ({ state, userId, path, query }) => {
      const group = groupFor(state, path.group, userId, "VIEW", "group");
      const page = pageByIndex(groupDrillables(state, group.id, query.query), query);
      return ok({ ...groupV21(state, group), drillables: page.items.map(playable) });
    },
  },
  getGroupMemberResults_v2_1_1: {
    behaviour:
      "one member's results on the group's drills and courses (the 2.1.1 GET group member results page): `group` (2.1.1 shape), `member`, `pagination` and `groupDrillableMemberResults`, one entry per drill or course in the order they were added, `query` on their names, paged by `resultFrom` (the previous page's `lastOnPage`, the last drillable's ID) and `resultSize` (10 by default), as the page says. The page's example is cut inside the first entry after its `drillable` key: the sandbox answers `drillable` as a playable and the member's overall `proficiency` (0 before practice), its own choice. Who may read and the errors are not shown: staff with VIEW or the member themself; an unknown group or a user who is no member `not_found` (404), no permission `no_permission` (403), an unknown marker `invalid_result_from` (400)",
    handle: ({ state, userId, path, query }) => memberResults(state, userId, path, query),
  },
  listGroupDrillables_v2_1_1: {
    behaviour:
      "as `listGroupDrillables_v2_1`, the group in the 2.1.1 shape, `query` on names and descriptions, `resultSize` 10 by default",
    handle: ({ state, userId, path, query }) => {
      const group = groupFor(state, path.group, userId, "VIEW", "group");
      const found = groupDrillables(state, group.id, query.query, true);
      const page = pageByIndex(found, { ...query, resultSize: query.resultSize ?? 10 });
      return ok({ ...groupV211(state, group), drillables: page.items.map(playable) });
    },
  },
});
