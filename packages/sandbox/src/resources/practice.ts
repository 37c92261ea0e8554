/**
 * Practice: the next question for one or more drills, the evaluation of an answer, and the acting
 * user's practice status (rendition) of a drill or course, over the domain's practice book.
 */
import type { SandboxState } from "../domain/state.js";
import { defineFamily, ok } from "./family.js";

/** The next question for the drills named by the path (if any) and then by the `drill` parameters. */
function nextQuestion(state: SandboxState, userId: string, fromPath: string | undefined, drills?: string[]) {
  return ok(state.nextQuestion(userId, [...(fromPath === undefined ? [] : [fromPath]), ...(drills ?? [])]));
}

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
      "the acting user's practice status for a drill or course as the 2.1.1 Practice object, plus `answerCount` and `correctCount`",
    handle: ({ path, state, userId }) => ok(state.getRendition(userId, path.drillable)),
  },
});
