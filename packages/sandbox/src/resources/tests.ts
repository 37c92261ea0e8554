/**
 * The tests family: defining tests, handing them to groups, taking them question by question, and
 * reading results, in both versions over one state (src/domain/assessment.ts). Who may take a test:
 * the user who defined it and the members of a group it was added to. Who reads others' results: the
 * definer and staff (VIEW) of a group the test is in.
 */
import type { TestQuestionRecord, TestRecord, TestResultRecord } from "../domain/assessment.js";
import { evaluate } from "../domain/practice.js";
import type { SandboxState } from "../domain/state.js";
import type { Drill } from "../domain/types.js";
import { addressedUser } from "./actors.js";
import { type Both, defineFamily, type FamilyTable, ok, refuse } from "./family.js";
import { groupFor, groupV211 } from "./groups.js";
import { refuseImageKeys } from "./images.js";
import { futureReviewDate, groupMember } from "./member-review-dates.js";
import { pageByIndex } from "./paging.js";
import { checkUsableDrillables } from "./usable-drillables.js";
import { EMAIL } from "./users.js";

const CHOICES = 4;

type Body = Readonly<Record<string, unknown>> | undefined;

function testFor(state: SandboxState, id: string, parameter: string): TestRecord {
  return (
    state.assessment.tests.get(id) ??
    refuse(
      { kind: "not_found", resource: "test_definition" },
      `${parameter}: no test ${JSON.stringify(id)}`,
      parameter,
    )
  );
}

/** The groups a test was added to. */
function groupsOf(state: SandboxState, testId: string): string[] {
  return state.assessment.groupTests.leftsOf(testId).map(([groupId]) => groupId);
}

function mayTake(state: SandboxState, userId: string, test: TestRecord): boolean {
  return (
    test.ownerId === userId || groupsOf(state, test.id).some((g) => state.org.groupMembers.get(g, userId))
  );
}

function mayReadResultsOf(state: SandboxState, userId: string, test: TestRecord): boolean {
  return (
    test.ownerId === userId || groupsOf(state, test.id).some((g) => state.org.groupPermission(userId, g))
  );
}

function drillsOf(state: SandboxState, test: TestRecord): Drill[] {
  return drillsPerDrillable(state, test).flat();
}

/** The drills of each of the test's drills and courses, in the test's order (a course gives its drills). */
function drillsPerDrillable(state: SandboxState, test: TestRecord): Drill[][] {
  return test.drillIds.map((id) => {
    const record = state.drillable(id);
    if (record === undefined) return [];
    if (record.type === "DRILL") return [record];
    return record.drillIds.flatMap((d) => {
      const drill = state.drillable(d);
      return drill?.type === "DRILL" ? [drill] : [];
    });
  });
}

interface Definition {
  name: string;
  instructions: string;
  drillIds: string[];
  direction: string;
  style: "MULTIPLE_CHOICE" | "OPEN_ENDED";
  disclosure: string[];
  /** The form's `questions`: one count for the whole test, or one per drill or course. */
  questions: readonly number[] | undefined;
  columns: string[];
  allowQuestionNavigation: boolean;
  allowUnansweredQuestions: boolean;
  /** The 2.1 form's fields that no answer shows, kept on the record as sent. */
  kept?: Pick<TestRecord, "tags" | "weights" | "adaptive" | "startDrill" | "timeLimitSeconds" | "reviewDate">;
}

interface StoredTest extends TestRecord {
  readonly size: number;
  /** Questions asked of each of the test's drills and courses, where the form gave one count per drill. */
  readonly perDrillable?: readonly number[];
  /** An adaptive test's questions per level (the form's one `questions` count), where given. */
  readonly perLevel?: number;
  readonly columns: readonly string[];
}

function defineTest(state: SandboxState, userId: string, definition: Definition, field: string): StoredTest {
  checkUsableDrillables(state, userId, definition.drillIds, field);
  const name = definition.name.trim();
  if (name === "")
    refuse(
      { kind: "missing", field: field === "drill" ? "title" : "name" },
      "the test needs a name",
      field === "drill" ? "title" : "name",
    );
  const now = state.org.now();
  const base: TestRecord = {
    id: state.assessment.tests.newId("test"),
    name,
    instructions: definition.instructions,
    drillIds: [...new Set(definition.drillIds)],
    direction: definition.direction,
    style: definition.style,
    disclosure: definition.disclosure,
    allowQuestionNavigation: definition.allowQuestionNavigation,
    allowUnansweredQuestions: definition.allowUnansweredQuestions,
    ...definition.kept,
    ownerId: userId,
    created: now,
  };
  const itemsPer = drillsPerDrillable(state, base).map((drills) =>
    drills.reduce((n, d) => n + d.items.length, 0),
  );
  const items = itemsPer.reduce((a, b) => a + b, 0);
  if (items === 0) {
    refuse({ kind: "invalid", field }, `form field "${field}": the drills have no items to ask`, field);
  }
  const counts = definition.questions;
  if (base.adaptive === true) return defineAdaptive(state, base, counts, definition.columns, field);
  if (counts !== undefined && counts.length > 1 && counts.length !== base.drillIds.length)
    refuse(
      { kind: "invalid", field: "questions" },
      `form field "questions": one count for the whole test, or one per drill (${base.drillIds.length}); got ${counts.length}`,
      "questions",
    );
  // Several counts: one per drill or course, each capped by what it has to ask.
  const perDrillable =
    counts !== undefined && counts.length > 1
      ? itemsPer.map((n, i) => Math.min(n, counts[i] ?? 0))
      : undefined;
  const size =
    perDrillable !== undefined
      ? perDrillable.reduce((a, b) => a + b, 0)
      : counts?.[0] === undefined
        ? items
        : Math.min(items, counts[0]);
  if (size < 1)
    refuse(
      { kind: "invalid", field: "questions" },
      `form field "questions": at least one question`,
      "questions",
    );
  const columns = definition.columns;
  const stored = { ...base, size, columns, ...(perDrillable ? { perDrillable } : {}) };
  return state.assessment.tests.put(stored as StoredTest) as StoredTest;
}

/**
 * An adaptive test (the group tests page): two or more drills as levels, easiest first, and one
 * `questions` count, taken from each level; never navigable (the 2.1.1 POST tests page).
 */
function defineAdaptive(
  state: SandboxState,
  base: TestRecord,
  counts: readonly number[] | undefined,
  columns: string[],
  field: string,
): StoredTest {
  if (base.drillIds.length < 2)
    refuse(
      { kind: "invalid", field },
      `form field "${field}": an adaptive test needs two or more drills, one per level`,
      field,
    );
  if (counts !== undefined && counts.length > 1)
    refuse(
      { kind: "invalid", field: "questions" },
      'form field "questions": an adaptive test takes one count, the questions of each level',
      "questions",
    );
  const start = base.startDrill;
  if (start !== undefined && (!Number.isInteger(start) || start < 1 || start > base.drillIds.length))
    refuse(
      { kind: "invalid", field: "startDrill" },
      `form field "startDrill": a level from 1 to ${base.drillIds.length}`,
      "startDrill",
    );
  const perLevel = counts?.[0];
  const stored = {
    ...base,
    allowQuestionNavigation: false,
    size: perLevel ?? 0,
    columns,
    ...(perLevel === undefined ? {} : { perLevel }),
  };
  return state.assessment.tests.put(stored) as StoredTest;
}

function sizeOf(test: TestRecord): number {
  return (test as StoredTest).size;
}

/** One question of an item of a drill, numbered `sequenceNr` in the run. */
function makeQuestion(
  test: TestRecord,
  drill: Drill,
  item: { ask: string; tell: string },
  sequenceNr: number,
  adaptive?: { level: number; set: number },
): TestQuestionRecord {
  // BIDIRECTIONAL alternates: even questions ask the tell side (a sandbox choice).
  const productive =
    test.direction === "PRODUCTIVE" || (test.direction === "BIDIRECTIONAL" && sequenceNr % 2 === 0);
  const expected = productive ? item.ask : item.tell;
  const others = [...new Set(drill.items.map((i) => (productive ? i.ask : i.tell)))].filter(
    (v) => v !== expected,
  );
  return {
    reference: globalThis.crypto.randomUUID(),
    sequenceNr,
    drillId: drill.id,
    ask: productive ? item.tell : item.ask,
    askName: productive ? drill.tellName : drill.askName,
    tellName: productive ? drill.askName : drill.tellName,
    expected,
    choices: test.style === "MULTIPLE_CHOICE" ? [expected, ...others.slice(0, CHOICES - 1)].sort() : [],
    ...adaptive,
  };
}

/**
 * The questions of a user's run: drills in the test's order, items in the drill's order, up to the
 * size (and up to each drill's or course's own count, where the form gave one per drill). An adaptive
 * test starts with the set of its entry level only (see {@link nextAdaptiveSet}).
 */
function questionsOf(state: SandboxState, test: TestRecord): TestQuestionRecord[] {
  if (test.adaptive === true) return adaptiveSet(state, test, entryLevel(test), 0, []);
  const out: TestQuestionRecord[] = [];
  const caps = (test as StoredTest).perDrillable;
  const perDrillable = drillsPerDrillable(state, test);
  for (const [index, drills] of perDrillable.entries()) {
    const cap = out.length + (caps?.[index] ?? Number.POSITIVE_INFINITY);
    for (const drill of drills) {
      for (const item of drill.items) {
        if (out.length >= sizeOf(test)) return out;
        if (out.length >= cap) break;
        out.push(makeQuestion(test, drill, item, out.length + 1));
      }
    }
  }
  return out;
}

/**
 * An adaptive test's entry level (0-based): `startDrill` (1-based) where given, otherwise halfway, the
 * group tests page's "#levels/2" read as a 0-based index (the middle level of an odd number of levels).
 */
function entryLevel(test: TestRecord): number {
  return test.startDrill === undefined ? Math.floor(test.drillIds.length / 2) : test.startDrill - 1;
}

/**
 * How many sets an adaptive run asks: the page says the total depends on the number of levels and the
 * entry level without giving it; the sandbox asks enough sets to reach the easiest or the hardest level
 * from the entry level, whichever is farther (its own choice).
 */
function adaptiveSets(test: TestRecord): number {
  const entry = entryLevel(test);
  return Math.max(entry + 1, test.drillIds.length - entry);
}

/**
 * One set of an adaptive run: `questions` questions (all the level's items when not given) from the
 * level's drills, going on after the items the run already asked of that level (from the start again
 * when they run out: a sandbox choice).
 */
function adaptiveSet(
  state: SandboxState,
  test: TestRecord,
  level: number,
  set: number,
  asked: readonly TestQuestionRecord[],
): TestQuestionRecord[] {
  const items = (drillsPerDrillable(state, test)[level] ?? []).flatMap((drill) =>
    drill.items.map((item) => ({ drill, item })),
  );
  const count = Math.min(items.length, (test as StoredTest).perLevel ?? items.length);
  const before = asked.filter((q) => q.level === level).length;
  return Array.from({ length: count }, (_, i) => {
    const { drill, item } = items[(before + i) % items.length] as (typeof items)[number];
    return makeQuestion(test, drill, item, asked.length + i + 1, { level, set });
  });
}

/**
 * The next set of an adaptive run once every question of the current one is answered, by the group
 * tests page's rule: under 1/3 right, the level below; 2/3 or more, the level above; otherwise (or
 * where there is no such level) the same level. None once the run has asked all its sets.
 */
function nextAdaptiveSet(state: SandboxState, test: TestRecord, result: TestResultRecord) {
  const last = result.questions[result.questions.length - 1];
  if (last?.set === undefined || last.level === undefined) return [];
  if (result.questions.some((q) => q.given === undefined) || last.set + 1 >= adaptiveSets(test)) return [];
  const current = result.questions.filter((q) => q.set === last.set);
  const right = current.filter((q) => q.correct).length / current.length;
  const step = right < 1 / 3 ? -1 : right >= 2 / 3 ? 1 : 0;
  const level = Math.min(test.drillIds.length - 1, Math.max(0, last.level + step));
  return adaptiveSet(state, test, level, last.set + 1, result.questions);
}

function resultOf(state: SandboxState, testId: string, userId: string): TestResultRecord | undefined {
  return state.assessment.results.get(testId, userId);
}

/** The next question of the acting user's run, starting the run on the first request. */
function nextQuestion(
  state: SandboxState,
  userId: string,
  testId: string,
  parameter: string,
  exhausted: "questions_exhausted" | "already_completed",
) {
  const test = testFor(state, testId, parameter);
  if (!mayTake(state, userId, test)) {
    refuse(
      { kind: "named", id: "inaccessible_test" },
      `the acting user may not take test ${JSON.stringify(testId)}`,
      parameter,
    );
  }
  const result =
    resultOf(state, test.id, userId) ??
    state.assessment.startResult({
      testId: test.id,
      userId,
      started: state.org.now(),
      questions: questionsOf(state, test),
    });
  if (result.completed !== undefined) {
    refuse(
      { kind: "named", id: "already_completed" },
      `test ${JSON.stringify(testId)} is completed`,
      parameter,
    );
  }
  const question =
    result.questions.find((q) => q.given === undefined) ??
    refuse({ kind: "named", id: exhausted }, "every question of the test is answered", parameter);
  return { test, result, question };
}

/**
 * Seconds of an ISO 8601 duration in weeks, days, hours, minutes and seconds; undefined for one with
 * years or months (no fixed length) or none at all.
 */
function durationSeconds(duration: string): number | undefined {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (!match || duration === "P" || duration.endsWith("T")) return undefined;
  const [, w, d, h, m, s] = match.map((part) => Number(part ?? 0));
  return (
    (((w as number) * 7 + (d as number)) * 24 + (h as number)) * 3600 + (m as number) * 60 + (s as number)
  );
}

/** The time left of a timed run, from its start, as a whole-second duration (never below zero). */
function remainingTestTime(state: SandboxState, test: TestRecord, result: TestResultRecord) {
  if (test.timeLimitSeconds === undefined) return {};
  const elapsed = (Date.parse(state.org.now()) - Date.parse(result.started)) / 1000;
  return { remainingTestTime: `PT${Math.max(0, Math.ceil(test.timeLimitSeconds - elapsed))}S` };
}

function questionBody(test: TestRecord, result: TestResultRecord, q: TestQuestionRecord) {
  return {
    reference: q.reference,
    sequenceNr: q.sequenceNr,
    ask: { name: q.askName, term: { value: q.ask } },
    tell: {
      name: q.tellName,
      composition: "SINGLE",
      type: test.style,
      terms: q.choices.map((value) => ({ value })),
    },
    questionsInTest: result.questions.length,
  };
}

function answered(result: TestResultRecord): TestQuestionRecord[] {
  return result.questions.filter((q) => q.given !== undefined);
}

/** The score; an adaptive test's is the evaluation of its last set (the group tests page). */
function score(result: TestResultRecord): { correct: number; percentage: number; progress: number } {
  const size = result.questions.length;
  const lastSet = result.questions[size - 1]?.set;
  const scored = lastSet === undefined ? result.questions : result.questions.filter((q) => q.set === lastSet);
  const correct = scored.filter((q) => q.correct).length;
  return {
    correct,
    percentage: scored.length === 0 ? 0 : Math.round((100 * correct) / scored.length),
    progress: size === 0 ? 0 : answered(result).length / size,
  };
}

function subjectOf(state: SandboxState, test: TestRecord): string {
  return state.drillable(test.drillIds[0] ?? "")?.subject ?? "";
}

function drillEntries(state: SandboxState, test: TestRecord, result: TestResultRecord) {
  return drillsOf(state, test).map((drill) => {
    const asked = result.questions.filter((q) => q.drillId === drill.id);
    const correct = asked.filter((q) => q.correct).length;
    return {
      drill: { id: drill.id, name: drill.name, subject: drill.subject, type: "DRILL" },
      score: asked.length === 0 ? 0 : Math.round((100 * correct) / asked.length),
    };
  });
}

function resultV21(state: SandboxState, test: TestRecord, result: TestResultRecord) {
  const s = score(result);
  return {
    userId: result.userId,
    subject: subjectOf(state, test),
    style: test.style,
    score: s.percentage,
    started: result.started,
    ...(result.completed === undefined ? {} : { completed: result.completed }),
    size: result.questions.length,
    correctlyAnswered: s.correct,
    progress: s.progress,
    includedColumnNames: [...new Set(result.questions.map((q) => q.askName))],
    drills: drillEntries(state, test, result),
  };
}

function resultV20(state: SandboxState, test: TestRecord, result: TestResultRecord) {
  const { userId: _userId, ...rest } = resultV21(state, test, result);
  return {
    ...rest,
    questions: result.questions.map((q) => ({
      answered: q.given !== undefined,
      correct: q.correct === true,
      questionColumn: q.askName,
      question: q.ask,
      answerColumn: q.tellName,
      ...(q.given === undefined ? {} : { givenAnswer: q.given.join(", ") }),
      correctAnswer: q.expected,
    })),
  };
}

function testV21(state: SandboxState, test: TestRecord, userId: string) {
  const group = groupsOf(state, test.id)[0];
  const result = resultOf(state, test.id, userId);
  return {
    id: test.id,
    title: test.name,
    drills: [...test.drillIds],
    direction: test.direction,
    style: test.style,
    ...(group === undefined ? {} : { group, testType: "GROUP" }),
    disclosure: [...test.disclosure],
    columns: [...(test as StoredTest).columns],
    questions: questionCounts(test),
    created: test.created,
    ...reviewDateFor(state, test, userId),
    testResults:
      result === undefined
        ? []
        : [
            {
              score: { percentage: score(result).percentage },
              started: result.started,
              ...(result.completed === undefined ? {} : { completed: result.completed }),
              progress: score(result).progress,
            },
          ],
    icon: {},
  };
}

/** The form's `questions` as applied: per drill, for the whole test, or (adaptive) per level. */
function questionCounts(test: TestRecord): number[] {
  const stored = test as StoredTest;
  if (test.adaptive === true) return stored.perLevel === undefined ? [] : [stored.perLevel];
  return [...(stored.perDrillable ?? [sizeOf(test)])];
}

/**
 * The 2.1 Test object (its page): `name`, the drills, how questions are asked, the group, the
 * instructions as text without markup, `startable` (the acting user may take it and has not completed
 * it: a sandbox reading of the field) and an empty `icon` (the sandbox keeps no images).
 */
function testObjectV21(state: SandboxState, test: TestRecord, userId: string) {
  const { title, testResults: _r, ...fields } = testV21(state, test, userId);
  const completed = resultOf(state, test.id, userId)?.completed !== undefined;
  return {
    ...fields,
    name: title,
    instructions: { text: test.instructions, markup: [] },
    startable: mayTake(state, userId, test) && !completed,
  };
}

/** The acting user's own result, or the result of the user the path names (needs the right to read it). */
function readResult(
  state: SandboxState,
  actingUserId: string,
  testId: string,
  parameter: string,
  of?: string,
) {
  const test = testFor(state, testId, parameter);
  const subject = of === undefined ? actingUserId : addressedUser(state, of, "user_id_or_ticket").id;
  if (subject !== actingUserId && !mayReadResultsOf(state, actingUserId, test)) {
    refuse(
      { kind: "no_permission", resource: "test" },
      `the acting user may not read others' results of test ${JSON.stringify(testId)}`,
    );
  }
  const result =
    resultOf(state, test.id, subject) ??
    refuse(
      { kind: "not_found", resource: "test_result" },
      `user ${JSON.stringify(subject)} has not taken test ${JSON.stringify(testId)}`,
      parameter,
    );
  return { test, result };
}

function answerQuestion(state: SandboxState, userId: string, reference: string, body: Body) {
  const found = state.assessment.question(reference);
  if (found === undefined || found.result.userId !== userId) {
    refuse(
      { kind: "not_found", resource: "reference" },
      `reference: no test question ${JSON.stringify(reference)} was given to the acting user`,
      "reference",
    );
  }
  const { result, question } = found;
  if (result.completed !== undefined) {
    refuse({ kind: "named", id: "already_completed" }, "the test is completed", "reference");
  }
  if (question.given !== undefined) {
    refuse(
      { kind: "named", id: "answer_already_given" },
      "reference: this question has already been answered",
      "reference",
    );
  }
  const raw = body?.answer;
  const given = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  if (given.length === 0)
    refuse(
      { kind: "missing", field: "answer" },
      'form field "answer": required (one value, or repeated)',
      "answer",
    );
  const evaluation = evaluate(given, [question.expected]);
  question.given = given;
  question.correct = evaluation.result === "CORRECT";
  const test = state.assessment.tests.get(result.testId);
  if (test?.adaptive === true) state.assessment.addQuestions(result, nextAdaptiveSet(state, test, result));
  // A test without navigation completes with its last answer (the 2.1 page on completing a test).
  if (test && !test.allowQuestionNavigation && answered(result).length === result.questions.length) {
    result.completed = state.org.now();
  }
  return ok({ evaluation, ...(result.completed === undefined ? {} : { completed: result.completed }) });
}

/** The values of an open form field (a repeated field gives several), as text. */
function formValues(body: Body, field: string): string[] | undefined {
  const raw = body?.[field];
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).map((v) =>
    typeof v === "string" || typeof v === "number" || typeof v === "boolean"
      ? String(v)
      : refuse({ kind: "invalid", field }, `form field "${field}": not a value`, field),
  );
}

/** One value of an open form field; blank counts as not given. */
function formValue(body: Body, field: string): string | undefined {
  const value = formValues(body, field)?.[0]?.trim();
  return value === "" ? undefined : value;
}

function formChoice<T extends string>(body: Body, field: string, allowed: readonly T[]): T | undefined {
  const value = formValue(body, field);
  if (value === undefined) return undefined;
  return (
    allowed.find((a) => a === value) ??
    refuse(
      { kind: "invalid", field },
      `form field "${field}": ${JSON.stringify(value)} is none of ${allowed.join(", ")}`,
      field,
    )
  );
}

function formCounts(body: Body, field: string): number[] | undefined {
  return formValues(body, field)?.map((v) =>
    /^[0-9]+$/.test(v.trim())
      ? Number(v)
      : refuse({ kind: "invalid", field }, `form field "${field}": ${JSON.stringify(v)} is no count`, field),
  );
}

/**
 * A group test's review date as the acting user sees it: the test's own, or for a `PER_USER` test the
 * date set for them (the PUT group test page), none before one is set.
 */
function reviewDateFor(state: SandboxState, test: TestRecord, userId: string): { reviewDate?: string } {
  const date =
    test.reviewDate === PER_USER ? state.assessment.testReviewDates.get(test.id, userId) : test.reviewDate;
  return date === undefined ? {} : { reviewDate: date };
}

/** The review date that gives each member a date of their own (the 2.0 PUT test link page's value). */
const PER_USER = "PER_USER";

/**
 * `reviewDate`: the date the group test's objective sets (the group tests page), as an ISO 8601 date,
 * or `PER_USER` (a date per member, set by the PUT group test pages).
 */
function reviewDateOf(body: Body): { reviewDate?: string } {
  const value = formValue(body, "reviewDate");
  if (value === undefined) return {};
  if (value.toUpperCase() === PER_USER) return { reviewDate: PER_USER };
  const time = Date.parse(value);
  if (Number.isNaN(time))
    refuse(
      { kind: "invalid", field: "reviewDate" },
      `form field "reviewDate": ${JSON.stringify(value)} is no ISO 8601 date`,
      "reviewDate",
    );
  return { reviewDate: new Date(time).toISOString().replace(/\.000Z$/, "Z") };
}

const DIRECTIONS = ["PRODUCTIVE", "RECEPTIVE", "BIDIRECTIONAL"] as const;
const STYLES = ["MULTIPLE_CHOICE", "OPEN_ENDED"] as const;

/** The adaptive fields both versions' group test forms take (`adaptive`, `startDrill`, `questions`). */
function adaptiveFields(body: Body) {
  const start = formCounts(body, "startDrill");
  return {
    questions: formCounts(body, "questions"),
    adaptive: formValue(body, "adaptive")?.toUpperCase() === "TRUE",
    ...(start?.[0] === undefined ? {} : { startDrill: start[0] }),
  };
}

/** A 2.1 group test form: the fields of 2.1 POST tests (a sandbox choice: the page's form is cut). */
function groupTestForm21(body: Body): Definition {
  const { questions, adaptive, ...start } = adaptiveFields(body);
  const timeLimit = formValue(body, "timeLimit");
  const drillIds =
    formValues(body, "drills") ??
    refuse({ kind: "missing", field: "drills" }, 'form field "drills": one or more drills', "drills");
  return {
    name:
      formValue(body, "name") ??
      refuse({ kind: "missing", field: "name" }, 'form field "name": required', "name"),
    instructions: formValue(body, "instructions") ?? "",
    drillIds,
    direction: formChoice(body, "direction", DIRECTIONS) ?? "BIDIRECTIONAL",
    style: formChoice(body, "style", STYLES) ?? "MULTIPLE_CHOICE",
    disclosure: formValues(body, "disclosures") ?? [],
    questions,
    columns: formValues(body, "columns") ?? [],
    allowQuestionNavigation: bool(formValue(body, "allowQuestionNavigation")),
    allowUnansweredQuestions: bool(formValue(body, "allowUnansweredQuestions")),
    kept: {
      adaptive,
      ...start,
      ...(timeLimit === undefined ? {} : { timeLimitSeconds: timeLimitSeconds(timeLimit) }),
      ...reviewDateOf(body),
    },
  };
}

/**
 * A 2.1.1 group test form: the drills in the repeated `drill` the 2.1.1 page's introduction names
 * (`drill_missing`), `name` as 2.1 or by default the 2.0 page's title; the other fields as 2.1's.
 */
function groupTestForm211(state: SandboxState, body: Body): Definition {
  const drills =
    formValues(body, "drill") ??
    refuse({ kind: "missing", field: "drill" }, 'form field "drill": one or more drills', "drill");
  return groupTestForm21({ ...body, drills, name: formValue(body, "name") ?? defaultTitle(state, drills) });
}

/** A 2.0 group test form: the fields of 2.0 POST tests (`drill`, `title` …; the page's form is cut). */
function groupTestForm20(state: SandboxState, body: Body): Definition {
  const { questions, adaptive, ...start } = adaptiveFields(body);
  const drillIds =
    formValues(body, "drill") ??
    refuse({ kind: "missing", field: "drill" }, 'form field "drill": one or more drills', "drill");
  return {
    name: formValue(body, "title") ?? defaultTitle(state, drillIds),
    instructions: formValue(body, "instructions") ?? "",
    drillIds,
    direction: formChoice(body, "direction", DIRECTIONS) ?? "BIDIRECTIONAL",
    style: formChoice(body, "style", STYLES) ?? "MULTIPLE_CHOICE",
    disclosure: [formChoice(body, "disclosure", ["FULL", "PARTIAL", "NONE"]) ?? "FULL"],
    questions,
    columns: [],
    allowQuestionNavigation: false,
    allowUnansweredQuestions: false,
    kept: { adaptive, ...start, ...reviewDateOf(body) },
  };
}

/**
 * The 2.0 POST tests page's default title: the drill's name, or the subject for several drills (the
 * first drill's, a sandbox choice where they differ); blank for unknown drills, which are refused first.
 */
function defaultTitle(state: SandboxState, drillIds: readonly string[]): string {
  const first = state.drillable(drillIds[0] ?? "");
  if (first === undefined) return "";
  return new Set(drillIds).size > 1 ? first.subject : first.name;
}

/**
 * Defines a new group test (the POST group tests pages: "defines a new group test … from one or more
 * drills"), hands it to the group's members, and answers it as an entry of the 2.1 test list.
 */
function defineGroupTest(
  state: SandboxState,
  userId: string,
  groupId: string,
  parameter: string,
  form: (body: Body) => Definition,
  body: Body,
) {
  const group = groupFor(state, groupId, userId, "MANAGE", parameter);
  const definition = form(body);
  const field = body?.drill === undefined ? "drills" : "drill";
  const test = defineTest(state, userId, definition, field);
  state.assessment.groupTests.set(group.id, test.id, state.org.now());
  return ok(testV21(state, test, userId));
}

/**
 * Sets one member's review date of a group test set up with `PER_USER` (the PUT group test pages): an
 * unknown test `unknown_test`, one not of this group `not_group_test`, one without a review date
 * `no_objective`, one with a date for all `invalid_objective`; answers the page's empty object.
 */
function setMemberTestReviewDate(
  state: SandboxState,
  userId: string,
  path: { readonly group: string; readonly test: string },
  form: { readonly user: string; readonly reviewDate: string },
) {
  const group = groupFor(state, path.group, userId, "MANAGE", "group");
  // `unknown_test`: the page's identifier for a test (not a test definition's `…_not_found`).
  const test =
    state.assessment.tests.get(path.test) ??
    refuse({ kind: "not_found", resource: "test" }, `test: no test ${JSON.stringify(path.test)}`, "test");
  if (state.assessment.groupTests.get(group.id, test.id) === undefined)
    refuse({ kind: "named", id: "not_group_test" }, `test ${test.id} is not a test of the group`, "test");
  if (test.reviewDate === undefined)
    refuse(
      { kind: "named", id: "no_objective" },
      `test ${test.id} was defined without a review date`,
      "test",
    );
  if (test.reviewDate !== PER_USER)
    refuse(
      { kind: "invalid", field: "objective" },
      `test ${test.id} has one review date for all members, not ${PER_USER}`,
      "test",
    );
  // Written as the group test form's dates are (seconds, `Z`).
  const date = futureReviewDate(state, form.reviewDate).replace(/\.000Z$/, "Z");
  state.assessment.testReviewDates.set(test.id, groupMember(state, group.id, form.user), date);
  return ok({});
}

function removeFromGroup(
  state: SandboxState,
  userId: string,
  groupId: string,
  testId: string,
  parameter: string,
) {
  const group = groupFor(state, groupId, userId, "MANAGE", parameter);
  if (!state.assessment.groupTests.delete(group.id, testId)) {
    refuse(
      { kind: "not_found", resource: "test" },
      `${JSON.stringify(testId)} is not a test of the group`,
      "test",
    );
  }
  return ok({ description: `${testId} removed from ${group.name}` });
}

/** The 2.0 page's group results: each drill and course of the group with its members' average proficiency. */
function groupDrillResults(state: SandboxState, userId: string, groupId: string, parameter: string) {
  const group = groupFor(state, groupId, userId, "VIEW", parameter);
  const members = state.org.groupMembers.rightsOf(group.id).map(([id]) => id);
  const average = (id: string) => {
    const record = state.drillable(id);
    if (!record || members.length === 0) return 0;
    const sum = members.reduce(
      (n, m) => n + (state.toDrillable(record, m).practice?.proficiency.overall ?? 0),
      0,
    );
    return Math.round(sum / members.length);
  };
  const entries = state.org.groupDrillables.rightsOf(group.id).flatMap(([id]) => {
    const record = state.drillable(id);
    if (!record) return [];
    const inside =
      record.type === "COURSE"
        ? record.drillIds.map((d) => ({ type: "drill", id: d, proficiency: average(d) }))
        : [];
    // The page's example writes the types in lower case: `course`, `drill`.
    const type = record.type === "COURSE" ? "course" : "drill";
    return [{ type, id: record.id, proficiency: average(record.id), drillResults: inside }];
  });
  const overall =
    entries.length === 0 ? 0 : Math.round(entries.reduce((n, e) => n + e.proficiency, 0) / entries.length);
  return ok({ groupId: group.id, averageProficiency: overall, averageDrillResults: entries });
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function timeLimitSeconds(timeLimit: string): number {
  const seconds = durationSeconds(timeLimit);
  if (seconds === undefined || seconds <= 0) {
    refuse(
      { kind: "invalid", field: "timeLimit" },
      `form field "timeLimit": ${JSON.stringify(timeLimit)} is no positive duration in weeks, days, hours, minutes and seconds (years and months have no fixed length)`,
      "timeLimit",
    );
  }
  return seconds;
}

function bool(value: unknown): boolean {
  return value === true || value === "true";
}

/** Completes the acting user's run of a test with question navigation (the 2.1 and 2.1.1 submit). */
function completeRun(state: SandboxState, userId: string, testId: string) {
  const test = testFor(state, testId, "test");
  const result =
    resultOf(state, test.id, userId) ??
    refuse(
      { kind: "not_found", resource: "test_result" },
      `the acting user has not started test ${JSON.stringify(testId)}`,
      "test",
    );
  if (!test.allowQuestionNavigation) {
    refuse(
      { kind: "named", id: "invalid_test_type" },
      "the test completes with its last answer (no question navigation)",
      "test",
    );
  }
  if (result.completed !== undefined)
    refuse({ kind: "named", id: "already_completed" }, "the test is completed", "test");
  if (!test.allowUnansweredQuestions && answered(result).length < result.questions.length) {
    refuse(
      { kind: "named", id: "not_all_questions_answered" },
      `${result.questions.length - answered(result).length} questions are unanswered`,
      "test",
    );
  }
  result.completed = state.org.now();
  return { test, result };
}

/** A test the acting user defined (2.1.1's `unknown_test`, `no_permission`), to change or copy. */
function ownTest(state: SandboxState, userId: string, testId: string, action: string): TestRecord {
  const test =
    state.assessment.tests.get(testId) ??
    refuse({ kind: "not_found", resource: "test" }, `test: no test ${JSON.stringify(testId)}`, "test");
  if (test.ownerId !== userId) {
    refuse({ kind: "no_permission", resource: "test" }, `only the test's definer may ${action} it`);
  }
  return test;
}

/**
 * A result as 2.1.1 answers it. The sandbox keeps one attempt per user and test, so the attempt's ID
 * is made of both; the score shows only where the test discloses it (`OVERALL_SCORE`, or 2.0's `FULL`).
 */
function resultV211(test: TestRecord, result: TestResultRecord) {
  const s = score(result);
  const disclosed = test.disclosure.some((d) => d === "OVERALL_SCORE" || d === "FULL");
  const minutes =
    result.completed === undefined
      ? undefined
      : Math.round((Date.parse(result.completed) - Date.parse(result.started)) / 60_000);
  return {
    id: `attempt-${test.id}-${result.userId}`,
    ...(disclosed ? { score: { percentage: s.percentage, transformations: [] } } : {}),
    started: result.started,
    ...(result.completed === undefined ? {} : { completed: result.completed, duration: minutes }),
    size: result.questions.length,
    ...(disclosed ? { correctlyAnswered: s.correct } : {}),
    progress: s.progress,
  };
}

/** The 2.1.1 POST test tickets form (all fields optional; booleans converted by the pipeline). */
interface TicketForm {
  readonly name?: string;
  readonly emailAddress?: string;
  readonly reference?: string;
  readonly generatePin?: boolean;
  readonly sendAnnouncementEmail?: boolean;
}

/**
 * Issues a ticket, or a PIN, for an anonymous attempt at a test (the 2.1.1 POST test tickets page).
 * Who may ask is not shown: those who may read the test's results (its definer, staff of a group it is
 * in), since the page's use of a ticket is reading that attempt's results.
 */
function issueTicket(state: SandboxState, userId: string, testId: string, form: TicketForm = {}) {
  const test = testFor(state, testId, "test");
  if (!mayReadResultsOf(state, userId, test))
    refuse(
      { kind: "no_permission", resource: "test" },
      `the acting user may not issue tickets for test ${JSON.stringify(testId)}: only its definer or staff of a group it is in`,
    );
  const emailAddress = form.emailAddress?.trim() || undefined;
  if (emailAddress !== undefined && !EMAIL.test(emailAddress))
    refuse(
      { kind: "invalid", field: "emailAddress" },
      `form field "emailAddress": ${JSON.stringify(emailAddress)} is not an email address`,
      "emailAddress",
    );
  if (form.sendAnnouncementEmail === true && emailAddress === undefined)
    refuse(
      { kind: "missing", field: "emailAddress" },
      'form field "emailAddress": required with sendAnnouncementEmail=true (the page: "An emailAddress must be provided")',
      "emailAddress",
    );
  const kind = form.generatePin === true ? "PIN" : "CODE";
  const name = form.name?.trim() || undefined;
  const reference = form.reference?.trim() || undefined;
  const ticket = state.assessment.issueTicket({
    testId: test.id,
    kind,
    ...(name === undefined ? {} : { name }),
    ...(emailAddress === undefined ? {} : { emailAddress }),
    ...(reference === undefined ? {} : { reference }),
    issuedBy: userId,
    issued: state.org.now(),
  });
  return ok({
    test: { type: "TEST", id: test.id, name: test.name },
    ticket: kind === "PIN" ? { pin: ticket.id } : { code: ticket.id },
  });
}

/** The 2.1 and 2.0 operations; 2.1.1 reuses the handlers where its page agrees. */
const V21 = {
  defineTest_v2_1: {
    behaviour:
      "defines a test of the drills and courses the acting user may use (ID `test-<n>`, `created`); it asks every item of its drills in order (`questions`: one count caps the whole test, one per drill or course caps each, any other number of counts is `invalid_questions`; the answer's `questions` repeats the counts applied), `direction` (`BIDIRECTIONAL` alternates, a sandbox choice), `style` (default `MULTIPLE_CHOICE`, four choices in alphabetical order), `disclosures`, `columns`, `allowQuestionNavigation`, `allowUnansweredQuestions`, `timeLimit` (each 2.1 question answers the `remainingTestTime` since the run started, whole seconds; years and months are refused as `invalid_time_limit`, having no fixed length; a late answer is not refused). `adaptive` (two or more drills as levels, easiest first, `invalid_drills` otherwise; at most one `questions` count, the questions of each level, all the level's items without one; never navigable) asks a set from the entry level (`startDrill`, 1-based, `invalid_start_drill` outside the levels; by default the group tests page's #levels/2, read as a 0-based index) and, after each set, moves by the group tests page's rule: under 1/3 right the level below, 2/3 or more the level above, otherwise (or with no such level) the same; the run asks enough sets to reach the easiest or hardest level from the entry level, whichever is farther (the page does not give the total: a sandbox choice), and its score is the last set's (the page). `tags` and `weights` are kept on the test as sent but not applied and not answered: no answer shape has a place for them, and the pages do not show how weights choose questions. Answers the test as an entry of the 2.1 test list (the answer is not shown). `not_found` for an unknown drill, `no_permission` for one the user may not use, `invalid_drills` for drills without items",
    handle: ({ state, userId, body }: Both<"defineTest">) => {
      const test = defineTest(
        state,
        userId,
        {
          name: body.name,
          instructions: str(body.instructions) ?? "",
          drillIds: body.drills,
          direction: body.direction ?? "BIDIRECTIONAL",
          style: body.style ?? "MULTIPLE_CHOICE",
          disclosure: body.disclosures ?? [],
          questions: body.questions,
          columns: body.columns ?? [],
          allowQuestionNavigation: bool(body.allowQuestionNavigation),
          allowUnansweredQuestions: bool(body.allowUnansweredQuestions),
          kept: {
            ...(body.tags === undefined ? {} : { tags: body.tags }),
            ...(body.weights === undefined ? {} : { weights: body.weights }),
            ...(body.adaptive === undefined ? {} : { adaptive: bool(body.adaptive) }),
            ...(body.startDrill === undefined ? {} : { startDrill: body.startDrill }),
            ...(body.timeLimit === undefined ? {} : { timeLimitSeconds: timeLimitSeconds(body.timeLimit) }),
          },
        },
        "drills",
      );
      return ok(testV21(state, test, userId));
    },
  },
  defineTest_v2_0: {
    behaviour:
      "as `defineTest_v2_1` with the 2.0 fields (`drill`, `title` (optional: by default the drill's name, or the subject for several drills, the first drill's where they differ; the 2.0 POST tests page), `instructions`, `disclosure` (default `FULL`), `direction`, `style` (`MULTIPLE_CHOICE` unless `OPEN_ENDED`)); answers the test's `id` and fields (the answer is not shown)",
    handle: ({ state, userId, body }) => {
      const test = defineTest(
        state,
        userId,
        {
          name: body.title?.trim() || defaultTitle(state, body.drill),
          instructions: body.instructions ?? "",
          drillIds: body.drill,
          direction: body.direction ?? "BIDIRECTIONAL",
          style: body.style === "OPEN_ENDED" ? "OPEN_ENDED" : "MULTIPLE_CHOICE",
          disclosure: [body.disclosure ?? "FULL"],
          questions: undefined,
          columns: [],
          allowQuestionNavigation: false,
          allowUnansweredQuestions: false,
        },
        "drill",
      );
      const { testResults: _r, ...shown } = testV21(state, test, userId);
      return ok(shown);
    },
  },
  listTests_v2_1: {
    behaviour:
      "the tests the acting user may take (defined by them or added to a group they are a member of), in creation order, with their own result; `filter` `COMPLETED` or `OPEN`",
    handle: ({ state, userId, query }: Both<"listTests">) => {
      const all = state.assessment.tests.all().filter((t) => mayTake(state, userId, t));
      const done = (t: TestRecord) => resultOf(state, t.id, userId)?.completed !== undefined;
      const shown = all.filter((t) =>
        query.filter === "COMPLETED" ? done(t) : query.filter === "OPEN" ? !done(t) : true,
      );
      const completed = all.filter(done).length;
      return ok({
        total: all.length,
        open: all.length - completed,
        completed,
        tests: shown.map((t) => testV21(state, t, userId)),
      });
    },
  },
  getTestQuestion_v2_1: {
    behaviour:
      "the acting user's next unanswered question (the same one until it is answered; the run starts on the first request); `test_definition_not_found`, `inaccessible_test` (not the definer nor a member of its group), `already_completed`, `questions_exhausted`",
    handle: ({ state, userId, path }: Both<"getTestQuestion">) => {
      const { test, result, question } = nextQuestion(
        state,
        userId,
        path.test,
        "test",
        "questions_exhausted",
      );
      return ok({
        question: { ...questionBody(test, result, question), ...remainingTestTime(state, test, result) },
      });
    },
  },
  getTestQuestion_v2_0: {
    behaviour:
      "as `getTestQuestion_v2_1`, in the 2.0 `QuestionResponse` (with `notifications`); all answered: `already_completed`",
    handle: ({ state, userId, path }) => {
      // 2.0's page lists no questions_exhausted: an answered-out run counts as completed there.
      const { test, result, question } = nextQuestion(
        state,
        userId,
        path.test_id,
        "test_id",
        "already_completed",
      );
      const { questionsInTest: _n, ...shown } = questionBody(test, result, question);
      return ok({ question: shown, notifications: [] });
    },
  },
  submitTestAnswer_v2_0: {
    behaviour:
      "answers a test question by its `reference` with the form field `answer` (repeated for several values), evaluated as practice answers are; a test without question navigation completes with its last answer. Answers the evaluation (and `completed`); 2.1 lists no counterpart, so 2.1 questions are answered here too. `not_found` (a reference not given to the acting user), `answer_already_given`, `already_completed`, `answer_missing`",
    handle: ({ state, userId, path, body }) => answerQuestion(state, userId, path.reference, body as Body),
  },
  completeTest_v2_1: {
    behaviour:
      "completes the acting user's run of a test that allows question navigation; `not_found` (no run), `invalid_test_type` (no navigation), `already_completed`, `not_all_questions_answered` (questions left and unanswered ones not allowed); answers `{}`",
    handle: ({ state, userId, path }) => {
      completeRun(state, userId, path.test);
      return ok({});
    },
  },
  getTestResult_v2_1: {
    behaviour:
      "the acting user's result (score in percent, progress 0..1, per-drill scores); `not_found` when not taken",
    handle: ({ state, userId, path }) => {
      const { test, result } = readResult(state, userId, path.test, "test");
      return ok(resultV21(state, test, result));
    },
  },
  getTestResult_v2_0: {
    behaviour:
      "as `getTestResult_v2_1` in the 2.0 shape, with each question, the given and the correct answer",
    handle: ({ state, userId, path }) => {
      const { test, result } = readResult(state, userId, path.test_id, "test_id");
      return ok(resultV20(state, test, result));
    },
  },
  getTestResultFor_v2_0: {
    behaviour:
      "the result of the user the path names (ID, email address or third-party ID; a ticket names no user, since the sandbox keeps no anonymous attempts: `not_found`): the user themself, the test's definer or staff of a group it is in; `no_permission`, `not_found`",
    handle: ({ state, userId, path }) => {
      const { test, result } = readResult(state, userId, path.test_id, "test_id", path.user_id_or_ticket);
      return ok(resultV20(state, test, result));
    },
  },
  addGroupTest_v2_1: {
    behaviour:
      "defines a new group test from one or more drills and hands it to the group's members (the POST group tests page; needs MANAGE). The page's form is cut, so the sandbox takes the fields of 2.1 POST tests (`name` (`name_missing`), `drills` (`drills_missing`), `instructions`, `direction`, `style`, `disclosures`, `questions`, `columns`, `allowQuestionNavigation`, `allowUnansweredQuestions`, `timeLimit`) and those the page's text names: `reviewDate` (the objective's date, answered as `reviewDate`; `invalid_review_date`; or `PER_USER`, the value the 2.0 PUT test link page names, for a date per member that `setGroupTestReviewDate_v2_1_1` sets and the member reads as `reviewDate`), `adaptive` and `startDrill` (an adaptive test, as `defineTest_v2_1`); reminder and announcement messages are not taken (their fields are cut). Answers the test as an entry of the 2.1 test list (the answer is cut: a sandbox choice)",
    handle: ({ state, userId, path, body }) =>
      defineGroupTest(state, userId, path.group, "group", groupTestForm21, body as Body),
  },
  addGroupTest_v2_0: {
    behaviour:
      "as `addGroupTest_v2_1` (the 2.0 POST group tests page), with the fields of 2.0 POST tests: `drill` (`drill_missing`), `title` (default the drill's name, or the first drill's subject for several), `instructions`, `disclosure`, `direction`, `style`, and `questions`, `adaptive`, `startDrill`, `reviewDate`",
    handle: ({ state, userId, path, body }) =>
      defineGroupTest(
        state,
        userId,
        path.group_id,
        "group_id",
        (b) => groupTestForm20(state, b),
        body as Body,
      ),
  },
  getTest_v2_1: {
    behaviour:
      "the 2.1 Test object (its page) of a test the acting user may take, defined, or whose results they may read (staff of its group): `id`, `name`, `drills`, `direction`, `style`, `group` and `testType` `GROUP` for a group test, `instructions` (`text`, no markup), `disclosure`, `columns`, `questions`, `created`, `reviewDate` where the group test set one, `startable` (the acting user may take it and has not completed it: a sandbox reading), an empty `icon`; `not_found`, `no_permission`",
    handle: ({ state, userId, path }) => {
      const test = testFor(state, path.test, "test");
      if (!mayTake(state, userId, test) && !mayReadResultsOf(state, userId, test))
        refuse({ kind: "no_permission", resource: "test" }, `the acting user may not read test ${path.test}`);
      return ok(testObjectV21(state, test, userId));
    },
  },
  getTestQuestionForTicket_v2_0: {
    behaviour:
      'an anonymous test\'s question by ticket (the 2.0 GET test-question page): the sandbox keeps no anonymous attempts, and no page says a ticket of `createTestTicket_v2_1_1` starts one through this 2.0 form, so a test that exists answers `invalid_ticket` (400, "not set up for the test definition") to every ticket, one the sandbox issued too (its message says so); an unknown test `test_definition_not_found` (404)',
    handle: ({ state, path }) => {
      // The identifiers of the 2.0 GET test-question page, which the description says types this form.
      const test =
        state.assessment.tests.get(path.test_id) ??
        refuse(
          { kind: "named", id: "test_definition_not_found" },
          `test_id: no test ${JSON.stringify(path.test_id)}`,
          "test_id",
        );
      const issued = state.assessment.tickets.get(path.ticket)?.testId === test.id;
      return refuse(
        { kind: "named", id: "invalid_ticket" },
        issued
          ? `ticket ${JSON.stringify(path.ticket)} was issued through API 2.1.1 for test ${JSON.stringify(test.id)}; the sandbox starts no anonymous attempts through this 2.0 form`
          : `ticket ${JSON.stringify(path.ticket)} is not set up for test ${JSON.stringify(test.id)}`,
        "ticket",
      );
    },
  },
  removeGroupTest_v2_1: {
    behaviour: "takes the test from the group (needs MANAGE; results stay); answers a `Message`",
    handle: ({ state, userId, path }) => removeFromGroup(state, userId, path.group, path.test, "group"),
  },
  removeGroupTest_v2_0: {
    behaviour: "as `removeGroupTest_v2_1`",
    handle: ({ state, userId, path }) =>
      removeFromGroup(state, userId, path.group_id, path.test_id, "group_id"),
  },
  listGroupTests_v2_1: {
    behaviour:
      "the group's tests (needs VIEW) in the shape of the 2.1 test list, each with the acting user's result (the answer is not shown)",
    handle: ({ state, userId, path }) => {
      const group = groupFor(state, path.group, userId, "VIEW", "group");
      const list = state.assessment.groupTests
        .rightsOf(group.id)
        .flatMap(([id]) => state.assessment.tests.get(id) ?? []);
      return ok({ total: list.length, tests: list.map((t) => testV21(state, t, userId)) });
    },
  },
  getGroupResults_v2_1: {
    behaviour:
      "group drill results (needs VIEW): the members' practice proficiency on each drill and course of the group, averaged. No 2.1 or 2.1.1 page of group results was found and the description leaves the 2.1 answer open (a 2.0 shape never types a 2.1 operation), so the fields are the sandbox's choice: it answers those of the only page that shows group results, the 2.0 one (`groupId`, `averageProficiency`, `averageDrillResults` with `type` `course` or `drill` as its example writes them)",
    handle: ({ state, userId, path }) => groupDrillResults(state, userId, path.group, "group"),
  },
  getGroupResults_v2_0: {
    behaviour:
      "the members' practice proficiency (overall) on each drill and course of the group, averaged over the members (needs VIEW; a member who has not practised counts 0), with a course's drills inside; `type` is `course` or `drill`, in lower case as the 2.0 GET group results page's example writes it",
    handle: ({ state, userId, path }) => groupDrillResults(state, userId, path.group_id, "group_id"),
  },
} satisfies FamilyTable;

/** API 2.1.1: the 2.1 test definitions and runs, with the 2.1.1 TestResult and the own results list. */
const V211 = {
  defineTest_v2_1_1: {
    behaviour:
      "as `defineTest_v2_1` (the 2.1.1 page's `disclosures`: `OVERALL_SCORE`, `COMPONENT_SCORES`, `CORRECTIONS`, `FEEDBACK`, none given selecting none)",
    handle: V21.defineTest_v2_1.handle,
  },
  listTests_v2_1_1: { behaviour: "as `listTests_v2_1`", handle: V21.listTests_v2_1.handle },
  getTestQuestion_v2_1_1: { behaviour: "as `getTestQuestion_v2_1`", handle: V21.getTestQuestion_v2_1.handle },
  getGroupTestResults_v2_1_1: {
    behaviour:
      "the group (needs VIEW) in its 2.1.1 shape, the test (one of the group's: `not_found` otherwise) as a playable (`type` `TEST`, `id`, `name`, an empty `icon`) and `total`, how many members (matched by `query` on their name, case-insensitive) have an attempt at it; the page is cut before the field that lists each result, so the sandbox answers none and `resultStart`/`resultSize` change nothing shown",
    handle: ({ state, userId, path, query }) => {
      const group = groupFor(state, path.group, userId, "VIEW", "group");
      const test = testFor(state, path.test, "test");
      if (state.assessment.groupTests.get(group.id, test.id) === undefined)
        refuse(
          { kind: "not_found", resource: "test" },
          `${JSON.stringify(test.id)} is not a test of the group`,
          "test",
        );
      const needle = query?.query?.trim().toLowerCase();
      const total = state.org.groupMembers.rightsOf(group.id).filter(([memberId]) => {
        const name = state.user(memberId)?.name.toLowerCase();
        return name !== undefined && (!needle || name.includes(needle)) && resultOf(state, test.id, memberId);
      }).length;
      const shown = { type: "TEST", id: test.id, name: test.name, icon: {} };
      return ok({ group: groupV211(state, group), total, test: shown });
    },
  },
  completeTest_v2_1_1: {
    behaviour:
      "completes the run as `completeTest_v2_1` (`not_found`, `invalid_test_type`, `already_completed`, `not_all_questions_answered`) and answers the 2.1.1 TestResult: `id` (`attempt-<test>-<user>`: one attempt per user and test), `started`, `completed`, `duration` (whole minutes), `size`, `progress`, and `score` (`percentage`, no `transformations`) and `correctlyAnswered` only where the test's `disclosures` hold `OVERALL_SCORE` (or 2.0's `FULL`); `user_id` and `ticket` are not taken (the page does not say how they are sent)",
    handle: ({ state, userId, path }) => {
      const { test, result } = completeRun(state, userId, path.test);
      return ok(resultV211(test, result));
    },
  },
  listOwnTestResults_v2_1_1: {
    behaviour:
      "the acting user's attempts at a test they may take (one at most: the sandbox keeps one per user and test) as `{ total, testResults }` of 2.1.1 TestResults as `completeTest_v2_1_1` answers them (a sandbox choice: the page does not show the TestResults object's fields); `status` `INCOMPLETE` or `LASTCOMPLETED` filters, `resultStart`/`resultSize` page (at most 10); `detail` changes nothing; `not_found` for an unknown test, `inaccessible_test` for one the user may not take",
    handle: ({ state, userId, path, query }) => {
      const test = testFor(state, path.test, "test");
      if (!mayTake(state, userId, test)) {
        refuse(
          { kind: "named", id: "inaccessible_test" },
          `the acting user may not take test ${JSON.stringify(path.test)}`,
          "test",
        );
      }
      const result = resultOf(state, test.id, userId);
      const attempts = (result === undefined ? [] : [result]).filter((r) =>
        query.status === "INCOMPLETE"
          ? r.completed === undefined
          : query.status === "LASTCOMPLETED"
            ? r.completed !== undefined
            : true,
      );
      const page = pageByIndex(attempts, { ...query, resultSize: Math.min(query.resultSize ?? 10, 10) });
      return ok({ total: page.total, testResults: page.items.map((r) => resultV211(test, r)) });
    },
  },
  updateTest_v2_1_1: {
    behaviour:
      "the definer changes the fields sent (`name` (blank: `invalid_name`), `instructions`, `timeLimit` (as `defineTest_v2_1`), `disclosures`, `allowQuestionNavigation`, `allowUnansweredQuestions`, `weights` (numbers, kept but not applied, as at definition)) and gets the test as `defineTest_v2_1_1` answers it (the page's answer is cut: a sandbox choice); `testScoreTransformers` is not taken (its form is cut); the sandbox holds no uploads, so `iconKey`/`coverKey` are `invalid_icon_key`/`invalid_cover_key`; `not_found`, `no_permission` for a test someone else defined",
    handle: ({ state, userId, path, body }) => {
      const test = ownTest(state, userId, path.test, "change");
      refuseImageKeys(body, ["iconKey", "coverKey"]);
      const name = body?.name?.trim();
      if (name === "")
        refuse({ kind: "invalid", field: "name" }, 'form field "name": must not be blank', "name");
      const weights = body?.weights?.map((w) =>
        Number.isFinite(Number(w))
          ? Number(w)
          : refuse(
              { kind: "invalid", field: "weights" },
              `form field "weights": ${JSON.stringify(w)} is no number`,
              "weights",
            ),
      );
      const changed = state.assessment.tests.put({
        ...test,
        ...(name === undefined ? {} : { name }),
        ...(body?.instructions === undefined ? {} : { instructions: body.instructions }),
        ...(body?.timeLimit === undefined ? {} : { timeLimitSeconds: timeLimitSeconds(body.timeLimit) }),
        ...(body?.disclosures === undefined ? {} : { disclosure: [...body.disclosures] }),
        ...(body?.allowQuestionNavigation === undefined
          ? {}
          : { allowQuestionNavigation: body.allowQuestionNavigation }),
        ...(body?.allowUnansweredQuestions === undefined
          ? {}
          : { allowUnansweredQuestions: body.allowUnansweredQuestions }),
        ...(weights === undefined ? {} : { weights }),
      });
      return ok(testV21(state, changed, userId));
    },
  },
  addGroupTest_v2_1_1: {
    behaviour:
      "as `addGroupTest_v2_1` (the 2.1.1 POST group tests page, whose form is cut after its introduction), with the drills in the repeated `drill` the introduction names (`drill_missing`), `name` (by default the drill's name, or the first drill's subject for several, as 2.0), `questions`, `adaptive`, and `reviewDate` (a date-time, as the description types it; a test with a date per member, the PUT group test page's `PER_USER`, is defined through the 2.1 and 2.0 forms, which take `reviewDate=PER_USER`); the other fields as 2.1's. Answers the test as `listTests_v2_1_1` lists it (the answer is cut: a sandbox choice)",
    handle: ({ state, userId, path, body }) =>
      defineGroupTest(state, userId, path.group, "group", (b) => groupTestForm211(state, b), body as Body),
  },
  setGroupTestReviewDate_v2_1_1: {
    behaviour:
      "sets one member's date to complete a group test defined with `reviewDate` `PER_USER` (through `addGroupTest_v2_1` or `_v2_0`; the 2.1.1 PUT group test page; needs MANAGE, a sandbox choice: the page does not say who may): `user` (`user_id_missing`) a member of the group (`user_not_group_member`), `reviewDate` (`review_date_missing`) an ISO 8601 date in the future (`invalid_review_date`); `unknown_test`, `not_group_test` (a test not of this group), `no_objective` (no review date), `invalid_objective` (one date for all). The page gives no statuses: 404 for `unknown_test`, 400 for the others (the sandbox's rule). Answers `{}` as the page; the member then reads the date as the test's `reviewDate`",
    handle: ({ state, userId, path, body }) => setMemberTestReviewDate(state, userId, path, body),
  },
  unlinkTestDefinition_v2_1_1: {
    behaviour:
      "removes the link between a test and a group (the 2.1.1 DELETE test accesses page: 204, no body), as `removeGroupTest_v2_1` does (needs MANAGE on the group; results stay). The page shows no errors, so they are the sandbox's choice: an unknown or unlinked group, or a test not linked to it, is `not_found` (404), no MANAGE `no_permission` (403); the sandbox keeps no links to organizations or users (`linkTestDefinition_v2_1_1` is not simulated), so `ORGANIZATION` and `USER` are `not_found` (404)",
    handle: ({ state, userId, path }) => {
      if (path.type !== "GROUP")
        refuse(
          { kind: "not_found", resource: "link" },
          `test ${JSON.stringify(path.test)} has no link to ${path.type} ${JSON.stringify(path.id)}`,
          "id",
        );
      removeFromGroup(state, userId, path.id, path.test, "id");
      return { status: 204 };
    },
  },
  createTestTicket_v2_1_1: {
    behaviour:
      "issues a ticket for an anonymous attempt at the test (the 2.1.1 POST test tickets page) and answers the TestTicket: `test` (`type` `TEST`, `id`, `name`) and `ticket` with a `code`, or with `generatePin=true` a `pin` instead. The page shows no errors, status or permission rule, so these are the sandbox's choices: the code is 22 URL-safe characters (as long as the TestTicket page's example) and the PIN six digits, both unique; the ticket has no `url` (the sandbox has no test player to start); the form's `name`, `emailAddress` and `reference` are kept with the ticket; `sendAnnouncementEmail` sends nothing (the sandbox mails nobody) but needs an `emailAddress` as the page says (`email_address_missing` 400); an address that is not one is `invalid_email_address` (400, the rule and identifier of the 2.0 POST test-tickets page); only those who may read the test's results (its definer, staff of a group it is in) issue tickets (`no_permission` 403); an unknown test `not_found` (404). Tickets are not yet honoured by the reads that take one (`listTestResults_v2_1_1` is not simulated; the 2.0 ticket forms answer as before)",
    handle: ({ state, userId, path, body }) => issueTicket(state, userId, path.test, body),
  },
  duplicateTest_v2_1_1: {
    behaviour:
      "copies a test the acting user defined under the form field `name` (blank: `name_missing`) as a new test of theirs (ID `test-<n>`, `created` now, no group, no results), and answers it as a 2.1.1 Test: `type` `TEST`, `id`, `name`; `unknown_test` (404), `no_permission` (401, the page's status) for a test someone else defined (a sandbox choice: the page does not say who may copy)",
    handle: ({ state, userId, path, body }) => {
      const test = ownTest(state, userId, path.test, "copy");
      const name =
        typeof body.name === "string" && body.name.trim() !== ""
          ? body.name.trim()
          : refuse({ kind: "missing", field: "name" }, 'form field "name": must not be blank', "name");
      const copy = state.assessment.tests.put({
        ...test,
        id: state.assessment.tests.newId("test"),
        name,
        ownerId: userId,
        created: state.org.now(),
      });
      return ok({ type: "TEST", id: copy.id, name: copy.name });
    },
  },
} satisfies FamilyTable;

/** The tests family; see the module comment. */
export const tests = defineFamily("tests", { ...V21, ...V211 });
