/**
 * Practice: the next question for one or more drills, the evaluation of an answer, and the acting
 * user's practice status (rendition) of a drill or course, over the domain's practice book.
 */
import type { ChartMode } from "../domain/practice.js";
import type { SandboxState } from "../domain/state.js";
import { type Both, defineFamily, ok, refuse } from "./family.js";

/** The next question for the drills named by the path (if any) and then by the `drill` parameters. */
function nextQuestion(state: SandboxState, userId: string, fromPath: string | undefined, drills?: string[]) {
  return ok(state.nextQuestion(userId, [...(fromPath === undefined ? [] : [fromPath]), ...(drills ?? [])]));
}

/** A chart's query, as 2.1 and 2.1.1 take it (the 2.1.1 page's parameters). */
interface ChartQuery {
  readonly type: "NORMALIZED" | "STANDARD";
  readonly series: "SELF" | "AVERAGE";
  readonly mode?: ChartMode;
}

/**
 * Proficiency chart data in the shape of the 2.1.1 page's ProficiencyChart: one series per charted
 * user (`[answers given, proficiency]`), their average and their extremes (`[x, lowest, highest]`).
 */
function proficiencyChart(state: SandboxState, userId: string, drillableId: string, query: ChartQuery) {
  const record =
    state.drillable(drillableId) ??
    refuse(
      { kind: "not_found", resource: "drillable" },
      `drillable: no drill or course ${JSON.stringify(drillableId)}`,
      "drillable",
    );
  if (!state.canAccess(userId, record)) {
    refuse(
      { kind: "no_permission", resource: "drillable" },
      `the acting user may not use ${JSON.stringify(record.id)}`,
    );
  }
  if (query.type === "STANDARD" && query.series !== "SELF") {
    // The parameter's description: "a STANDARD chart supports only SELF".
    refuse({ kind: "invalid", field: "series" }, "series: a STANDARD chart supports only SELF", "series");
  }
  const others = query.series === "AVERAGE" ? state.practisingUsers(record) : [];
  const userIds = [userId, ...others.filter((id) => id !== userId)];
  const mode = query.mode ?? "BIDIRECTIONAL";
  const individuals = userIds.map((id) => state.proficiencyHistory(id, record, mode));
  const longest = Math.max(...individuals.map((series) => series.length));
  const columns = Array.from({ length: longest }, (_, x) =>
    individuals.flatMap((series) => series[x]?.[1] ?? []),
  );
  return {
    users: userIds.map((id) => ({ type: "USER", id })),
    singular: userIds.length === 1,
    incomplete: individuals.some((series) => series.length < longest),
    average: columns.map((ys, x) => [x, Math.round(ys.reduce((a, b) => a + b, 0) / ys.length)]),
    extremes: columns.map((ys, x) => [x, Math.min(...ys), Math.max(...ys)]),
    individuals,
  };
}

const CHART_BEHAVIOUR =
  "the ProficiencyChart of the 2.1.1 page (the revision of 2.1): `users` charted (`type`, `id`, as the page's example), `individuals` (one series per user: `[answers given, proficiency]` from before the first answer to now, a course averaging its drills), `average` (`[x, mean]`) and `extremes` (`[x, lowest, highest]`) over them, `singular` (one user charted) and `incomplete` (some series shorter than the longest); what the numbers, `singular` and `incomplete` mean is not shown, so these are the sandbox's choices; `series=SELF` charts the acting user, `AVERAGE` them and every user who practised it; `mode` picks the receptive, productive or overall (`BIDIRECTIONAL`, the default: sandbox drills set no direction) value; `type` does not change the points (the page does not say how they differ); `invalid_mode` (400, the page); a STANDARD chart of `AVERAGE` `invalid_series`, unknown `not_found`, no access `no_permission` (the sandbox's identifiers: the page's error table is cut)";

/** The practice family; see the module comment. */
export const practice = defineFamily("practice", {
  getQuestion_v2_0: {
    behaviour: "next question for the path drill plus any `drill` query parameters",
    handle: ({ path, query, state, userId }) => nextQuestion(state, userId, path.drill_id, query.drill),
  },
  getQuestions_v2_0: {
    behaviour: "next question for the `drill` query parameters; none given answers 400 `drill_missing`",
    handle: ({ query, state, userId }) => nextQuestion(state, userId, undefined, query.drill),
  },
  getQuestion_v2_1: {
    behaviour: "as `getQuestion_v2_0`",
    handle: ({ path, query, state, userId }) => nextQuestion(state, userId, path.drill, query.drill),
  },
  submitAnswer_v2_0: {
    behaviour:
      "evaluates the form field `answer` (repeatable) and answers the observed 2.0 `AnswerResponse` (`evaluation`, `proficiency`)",
    handle: ({ path, body, state, userId }) => ok(state.answer(userId, path.reference, body)),
  },
  submitAnswer_v2_1: {
    behaviour: "as `submitAnswer_v2_0` (the 2.1 shapes are not shown; the sandbox uses the 2.0 ones)",
    handle: ({ path, body, state, userId }) => ok(state.answer(userId, path.reference, body)),
  },
  getQuestion_v2_1_1: {
    behaviour:
      "next question for the drill or course in the path (a course's drills together), as `getQuestion_v2_1`; no query parameters: the 2.0 ones are not known to apply in 2.1.1",
    handle: ({ path, state, userId }) => nextQuestion(state, userId, path.drill),
  },
  submitAnswer_v2_1_1: {
    behaviour:
      "as `submitAnswer_v2_1`: the form field `answer` (repeatable) graded, answering `evaluation` and `proficiency` (the fields a 2.1.1 client reads; no page shows the rest)",
    handle: ({ path, body, state, userId }) => ok(state.answer(userId, path.reference, body)),
  },
  getRendition_v2_1: {
    behaviour:
      "the acting user's practice status for a drill or course as the 2.0 and 2.1.1 Practice object pages show it: `proficiency`, `highestProficiency` (not for courses, as the pages say), `timeSpent` and `expectedDuration` (the time still needed to reach 100 %, both in seconds as the pages say; the estimates are the sandbox's: 10 s per answer given, 10 s per item times the share of the overall proficiency still missing), `lastPracticed` (the latest answer), `added` (when it entered the repertoire; absent for a trial rendition, as the pages say), `autoAdvancement` (the user's stored practice preference of that name, when they stored one: a sandbox choice), plus the sandbox's `answerCount` and `correctCount`; no `eventualProficiency` (the sandbox's proficiency does not fade); `drillable_not_found`, `drillable_access_denied`",
    handle: ({ path, state, userId }) => {
      const rendition = state.getRendition(userId, path.drillable);
      const auto = state.content.preferences.get(rendition.drillableId, userId)?.autoAdvancement;
      return ok({ ...rendition, ...(auto === undefined ? {} : { autoAdvancement: auto }) });
    },
  },
  getProficiencyChart_v2_1: {
    behaviour: CHART_BEHAVIOUR,
    handle: ({ path, query, state, userId }: Both<"getProficiencyChart">) =>
      ok(proficiencyChart(state, userId, path.drillable, query)),
  },
  getProficiencyChart_v2_1_1: {
    behaviour: "as `getProficiencyChart_v2_1` (the same page)",
    handle: ({ path, query, state, userId }) => ok(proficiencyChart(state, userId, path.drillable, query)),
  },
});
