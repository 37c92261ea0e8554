import { describe, expect, it } from "vitest";
import { evaluate, SECONDS_PER_ANSWER, SECONDS_PER_ITEM } from "../../src/domain/practice.js";
import type { SandboxState } from "../../src/domain/state.js";
import { createState } from "../../src/domain/state.js";
import type { QuestionResponse, SandboxData } from "../../src/domain/types.js";
import { D1, D2, D3, domainError, drill, fixtureData } from "../support/domain-data.js";

function counterReferences(): () => string {
  let n = 0;
  return () => `ref-${++n}`;
}

/** The expected answer, looked up in the fixture's own item list (not in the sandbox's records). */
function rightValue(q: QuestionResponse, drills = [D1, D2, D3]): string {
  for (const d of drills) {
    const item = d.items.find((i) => i.ask === q.question.ask.term.value);
    if (item !== undefined) return item.tell;
  }
  throw new Error(`no item asks ${q.question.ask.term.value}`);
}

function wrongValue(q: QuestionResponse): string {
  const right = rightValue(q);
  const wrong = q.question.tell.terms.find((t) => t.value !== right);
  if (wrong === undefined) throw new Error("no wrong choice offered");
  return wrong.value;
}

function dataWith(extra: Partial<SandboxData>): SandboxData {
  return { ...fixtureData(), ...extra };
}

describe("nextQuestion", () => {
  it("builds a multiple-choice question in the interface's shape", () => {
    const state = createState(fixtureData());
    const response = state.nextQuestion("u1", ["d1"]);
    expect(Object.keys(response).sort()).toEqual(["notifications", "question"]);
    expect(response.notifications).toEqual([]);
    const { question } = response;
    expect(Object.keys(question).sort()).toEqual(["ask", "reference", "sequenceNr", "tell"]);
    expect(typeof question.reference).toBe("string");
    expect(question.sequenceNr).toBe(1);
    expect(question.ask.name).toBe("Ask");
    expect(D1.items.map((i) => i.ask)).toContain(question.ask.term.value);
    expect(question.tell).toMatchObject({ name: "Tell", composition: "SINGLE", type: "MULTIPLE_CHOICE" });
    expect(question.tell.terms).toHaveLength(4);
    const values = question.tell.terms.map((t) => t.value);
    expect(new Set(values).size).toBe(4);
    expect(values).toContain(rightValue(response));
    for (const value of values) expect(D1.items.map((i) => i.tell)).toContain(value);
  });

  it("offers fewer choices when the drill is small, and never the right value twice", () => {
    const state = createState(
      dataWith({
        drills: [
          drill(
            "dup",
            "Duplicates",
            "Spanish",
            "",
            [],
            [
              ["ser", "to be"],
              ["estar", "to be"],
              ["ir", "to go"],
            ],
          ),
        ],
        courses: [],
        catalogs: [],
      }),
    );
    for (let i = 0; i < 6; i++) {
      const values = state.nextQuestion("u1", ["dup"]).question.tell.terms.map((t) => t.value);
      expect(values.sort()).toEqual(["to be", "to go"]);
    }
    const two = createState(fixtureData())
      .nextQuestion("u1", ["d3"])
      .question.tell.terms.map((t) => t.value);
    expect(two.sort()).toEqual(["bread", "coffee"]);
  });

  it("deals every item once before repeating any", () => {
    const state = createState(fixtureData());
    const asked = Array.from(
      { length: D1.items.length },
      () => state.nextQuestion("u1", ["d1"]).question.ask.term.value,
    );
    expect(asked.sort()).toEqual(D1.items.map((i) => i.ask).sort());
  });

  it("picks items across several drills and a course's drills", () => {
    const state = createState(fixtureData());
    const total = D2.items.length + D3.items.length;
    const asked = Array.from(
      { length: total },
      () => state.nextQuestion("u1", ["d2", "d3"]).question.ask.term.value,
    );
    expect(asked.sort()).toEqual([...D2.items, ...D3.items].map((i) => i.ask).sort());
    // Choices always come from the drill of the asked item.
    const q = state.nextQuestion("u1", ["d2", "d3"]);
    const source = D2.items.some((i) => i.ask === q.question.ask.term.value) ? D2 : D3;
    for (const t of q.question.tell.terms) expect(source.items.map((i) => i.tell)).toContain(t.value);

    const viaCourse = Array.from(
      { length: D1.items.length + D3.items.length },
      () => state.nextQuestion("u1", ["c1"]).question.ask.term.value,
    );
    expect(viaCourse.sort()).toEqual([...D1.items, ...D3.items].map((i) => i.ask).sort());
  });

  it("keeps one deck for a drill set whatever order its IDs come in", () => {
    const state = createState(fixtureData());
    const total = D2.items.length + D3.items.length;
    // Alternate the order on every call: a deck per order would be dealt anew each time and repeat items.
    const asked = Array.from(
      { length: total },
      (_, n) => state.nextQuestion("u1", n % 2 === 0 ? ["d2", "d3"] : ["d3", "d2"]).question.ask.term.value,
    );
    expect(asked.sort()).toEqual([...D2.items, ...D3.items].map((i) => i.ask).sort());
  });

  it("counts sequence numbers per user and drill set", () => {
    const state = createState(fixtureData());
    const seq = (user: string, drills: string[]) => state.nextQuestion(user, drills).question.sequenceNr;
    expect([seq("u1", ["d1"]), seq("u1", ["d1"]), seq("u1", ["d1"])]).toEqual([1, 2, 3]);
    expect(seq("u1", ["d1", "d2"])).toBe(1);
    expect(seq("u1", ["d2", "d1"])).toBe(2);
    expect(seq("u2", ["d1"])).toBe(1);
    expect(seq("u1", ["d1"])).toBe(4);
  });

  it("is deterministic for a seed, apart from the random reference", () => {
    const run = (seed: number) => {
      const state = createState(fixtureData(), { seed, randomReference: counterReferences() });
      return Array.from({ length: 12 }, () => state.nextQuestion("u1", ["d1", "d2"]));
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });

  it("uses unguessable references by default", () => {
    const state = createState(fixtureData());
    const refs = Array.from({ length: 20 }, () => state.nextQuestion("u1", ["d1"]).question.reference);
    expect(new Set(refs).size).toBe(20);
    for (const ref of refs)
      expect(ref).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("rejects missing, unknown, empty and inaccessible drills", () => {
    const state = createState(
      dataWith({
        courses: [{ ...fixtureData().courses[0], id: "empty", drillIds: [] } as SandboxData["courses"][0]],
      }),
    );
    expect(domainError(() => state.nextQuestion("u1", [])).id).toBe("drill_missing");
    const unknown = domainError(() => state.nextQuestion("u1", ["d1", "nope"]));
    expect([unknown.id, unknown.status]).toEqual(["drill_not_found", 404]);
    expect(domainError(() => state.nextQuestion("u1", ["empty"])).id).toBe("drill_empty");
    // d6 is only in catalog cat1, which u1 may use and u2 may not.
    expect(state.nextQuestion("u1", ["d6"]).question.ask.term.value).toBe("hola");
    const denied = domainError(() => state.nextQuestion("u2", ["d6"]));
    expect([denied.id, denied.status]).toEqual(["drillable_access_denied", 403]);
    expect(domainError(() => state.nextQuestion("ghost", ["d1"])).id).toBe("user_not_found");
  });
});

describe("answer", () => {
  it("evaluates right and wrong answers in the service's AnswerResponse shape", () => {
    const state = createState(fixtureData());
    const q1 = state.nextQuestion("u1", ["d1"]);
    const right = state.answer("u1", q1.question.reference, { answer: rightValue(q1) });
    expect(right.evaluation).toEqual({
      result: "CORRECT",
      termEvaluations: [{ value: rightValue(q1), result: "CORRECT" }],
    });
    expect(right.notifications).toEqual([]);
    // The answer reports the proficiency the rendition now shows.
    expect(right.proficiency).toEqual(state.getRendition("u1", "d1").proficiency);
    const q2 = state.nextQuestion("u1", ["d1"]);
    const wrong = state.answer("u1", q2.question.reference, { answer: wrongValue(q2) });
    expect(wrong.evaluation).toEqual({
      result: "INCORRECT",
      termEvaluations: [
        { value: wrongValue(q2), result: "INCORRECT" },
        { value: rightValue(q2), result: "MISSED" },
      ],
    });
  });

  it("takes several values as a list: one term evaluation per given and per missed term", () => {
    const state = createState(fixtureData());
    const q = state.nextQuestion("u1", ["d1"]);
    const both = state.answer("u1", q.question.reference, { answer: [wrongValue(q), rightValue(q)] });
    expect(both.evaluation).toEqual({
      result: "INCORRECT",
      termEvaluations: [
        { value: wrongValue(q), result: "INCORRECT" },
        { value: rightValue(q), result: "CORRECT" },
      ],
    });
    const twice = state.nextQuestion("u1", ["d1"]);
    const repeated = state.answer("u1", twice.question.reference, {
      answer: [rightValue(twice), rightValue(twice)],
    });
    // Giving the right term twice does not make the second copy right.
    expect(repeated.evaluation.termEvaluations.map((t) => t.result)).toEqual(["CORRECT", "INCORRECT"]);
    expect(repeated.evaluation.result).toBe("INCORRECT");
  });

  it("evaluates with the reference's rules, independent of any question", () => {
    expect(evaluate(["red", "blue"], ["red", "green"])).toEqual({
      result: "INCORRECT",
      termEvaluations: [
        { value: "red", result: "CORRECT" },
        { value: "blue", result: "INCORRECT" },
        { value: "green", result: "MISSED" },
      ],
    });
    expect(evaluate(["green", "red"], ["red", "green"]).result).toBe("CORRECT");
  });

  it("takes an answer once per reference", () => {
    const state = createState(fixtureData());
    const q = state.nextQuestion("u1", ["d1"]);
    state.answer("u1", q.question.reference, { answer: rightValue(q) });
    const again = domainError(() => state.answer("u1", q.question.reference, { answer: rightValue(q) }));
    expect([again.id, again.status]).toEqual(["answer_already_given", 409]);
    expect(state.getRendition("u1", "d1").answerCount).toBe(1);
  });

  it("does not know references of other users or made-up ones", () => {
    const state = createState(fixtureData());
    const q = state.nextQuestion("u1", ["d1"]);
    const foreign = domainError(() => state.answer("u2", q.question.reference, { answer: rightValue(q) }));
    expect([foreign.id, foreign.status]).toEqual(["reference_not_found", 404]);
    expect(domainError(() => state.answer("u1", "made-up", { answer: "dog" })).id).toBe(
      "reference_not_found",
    );
    // The owner can still answer.
    expect(state.answer("u1", q.question.reference, { answer: rightValue(q) }).evaluation.result).toBe(
      "CORRECT",
    );
  });

  it("rejects malformed bodies without using up the reference; a value not offered is just wrong", () => {
    const state = createState(fixtureData());
    const q = state.nextQuestion("u1", ["d1"]);
    const ref = q.question.reference;
    for (const body of [null, "dog", [], {}, { answer: 3 }, { answer: [] }, { value: rightValue(q) }]) {
      const error = domainError(() => state.answer("u1", ref, body));
      expect([error.id, error.status, error.parameter]).toEqual(["answer_invalid", 400, "answer"]);
    }
    const notOffered = state.answer("u1", ref, { answer: "unicorn" });
    expect(notOffered.evaluation.termEvaluations).toEqual([
      { value: "unicorn", result: "INCORRECT" },
      { value: rightValue(q), result: "MISSED" },
    ]);
  });

  it("forgets the oldest references beyond the configured limit", () => {
    const state = createState(fixtureData(), { maxOpenQuestions: 3 });
    const qs = Array.from({ length: 4 }, () => state.nextQuestion("u1", ["d1"]));
    expect(domainError(() => state.answer("u1", qs[0]?.question.reference ?? "", { answer: "dog" })).id).toBe(
      "reference_not_found",
    );
    const last = qs[3] as QuestionResponse;
    expect(state.answer("u1", last.question.reference, { answer: rightValue(last) }).evaluation.result).toBe(
      "CORRECT",
    );
  });
});

describe("renditions", () => {
  function practise(state: SandboxState, user: string, drillId: string, correct: boolean) {
    const q = state.nextQuestion(user, [drillId]);
    return state.answer(user, q.question.reference, { answer: correct ? rightValue(q) : wrongValue(q) });
  }

  it("dates the latest answer as lastPracticed, for the drill and for a course holding it", () => {
    let at = new Date("2026-03-01T10:00:00.000Z");
    const state = createState(fixtureData(), { clock: () => at });
    expect(state.getRendition("u1", "d1")).not.toHaveProperty("lastPracticed");
    practise(state, "u1", "d3", true);
    practise(state, "u1", "d1", true);
    at = new Date("2026-03-02T08:30:00.000Z");
    practise(state, "u1", "d1", false);
    expect(state.getRendition("u1", "d1")).toMatchObject({
      lastPracticed: "2026-03-02T08:30:00.000Z",
      timeSpent: 2 * SECONDS_PER_ANSWER,
    });
    expect(state.getRendition("u1", "d3")).toMatchObject({ lastPracticed: "2026-03-01T10:00:00.000Z" });
    expect(state.getRendition("u1", "c1")).toMatchObject({
      lastPracticed: "2026-03-02T08:30:00.000Z",
      timeSpent: 3 * SECONDS_PER_ANSWER,
    });
    expect(state.getRendition("u2", "d1")).not.toHaveProperty("lastPracticed");
  });

  it("starts at zero and moves up with right answers, down with wrong ones, keeping the highest", () => {
    const state = createState(fixtureData());
    const zero = { receptive: 0, productive: 0, overall: 0 };
    expect(state.getRendition("u1", "d1")).toEqual({
      drillableId: "d1",
      type: "DRILL",
      answerCount: 0,
      correctCount: 0,
      proficiency: zero,
      highestProficiency: zero,
      timeSpent: 0,
      expectedDuration: D1.items.length * SECONDS_PER_ITEM,
    });

    let previous = state.getRendition("u1", "d1").proficiency;
    for (let i = 0; i < 5; i++) {
      practise(state, "u1", "d1", true);
      const now = state.getRendition("u1", "d1").proficiency;
      expect(now.receptive).toBeGreaterThan(previous.receptive);
      expect(now.productive).toBeGreaterThan(previous.productive);
      expect(now.overall).toBeGreaterThan(previous.overall);
      expect(now.receptive).toBeGreaterThan(now.productive);
      previous = now;
    }
    const peak = state.getRendition("u1", "d1");
    expect(peak.highestProficiency).toEqual(peak.proficiency);

    for (let i = 0; i < 3; i++) {
      practise(state, "u1", "d1", false);
      const now = state.getRendition("u1", "d1").proficiency;
      expect(now.receptive).toBeLessThan(previous.receptive);
      expect(now.overall).toBeLessThan(previous.overall);
      previous = now;
    }
    const after = state.getRendition("u1", "d1");
    expect(after.highestProficiency).toEqual(peak.proficiency);
    expect(after).toMatchObject({ answerCount: 8, correctCount: 5, timeSpent: 8 * SECONDS_PER_ANSWER });
    for (const value of Object.values(after.proficiency)) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(100);
    }
  });

  it("follows the documented rule for the first answer", () => {
    const state = createState(fixtureData());
    practise(state, "u1", "d1", true);
    // receptive 0 + 0.2 * 100 = 20, productive 0 + 0.05 * 100 = 5, overall = mean 12.5 → 13.
    expect(state.getRendition("u1", "d1").proficiency).toEqual({ receptive: 20, productive: 5, overall: 13 });
  });

  it("keeps renditions apart per user and drill", () => {
    const state = createState(fixtureData());
    practise(state, "u1", "d1", true);
    expect(state.getRendition("u2", "d1").answerCount).toBe(0);
    expect(state.getRendition("u1", "d2").answerCount).toBe(0);
  });

  it("combines a course's drills", () => {
    const state = createState(fixtureData());
    practise(state, "u1", "d1", true);
    const course = state.getRendition("u1", "c1");
    // d1 at 20/5, d3 untouched: averages 10 and 2.5.
    expect(course).toMatchObject({
      type: "COURSE",
      answerCount: 1,
      correctCount: 1,
      proficiency: { receptive: 10, productive: 3, overall: 6 },
      // The time still needed to reach 100 % (the Practice pages): 94 % of the course's items are left.
      expectedDuration: Math.round(((D1.items.length + D3.items.length) * SECONDS_PER_ITEM * 94) / 100),
    });
    // The Practice pages: the highest proficiency is "not included for courses".
    expect(course).not.toHaveProperty("highestProficiency");
  });

  it("answers with the proficiency of all the drills practised together", () => {
    const state = createState(fixtureData());
    const q = state.nextQuestion("u1", ["c1"]);
    const reply = state.answer("u1", q.question.reference, { answer: rightValue(q) });
    // One drill of the course moved to 20/5; the course averages over both of its drills.
    expect(reply.proficiency).toEqual(state.getRendition("u1", "c1").proficiency);
    expect(reply.proficiency).toEqual({ receptive: 10, productive: 3, overall: 6 });
  });

  it("adds practice to search results only once the user has answered", () => {
    const state = createState(fixtureData());
    const d1 = () =>
      state.searchStore("u1", { query: "spanish", searchField: ["NAME"] }).drills.find((d) => d.id === "d1");
    expect(d1()).not.toHaveProperty("practice");
    state.nextQuestion("u1", ["d1"]);
    expect(d1()).not.toHaveProperty("practice");
    practise(state, "u1", "d1", true);
    expect(d1()?.practice).toEqual({
      proficiency: { receptive: 20, productive: 5, overall: 13 },
      highestProficiency: { receptive: 20, productive: 5, overall: 13 },
      // The 2.0 Practice page: the time still needed to reach 100 %; 87 % is still missing.
      expectedDuration: Math.round((D1.items.length * SECONDS_PER_ITEM * 87) / 100),
    });
    const c1 = state.searchStore("u1", { query: "course" }).drills.find((d) => d.id === "c1");
    expect(c1?.practice?.proficiency.receptive).toBe(10);
    // The 2.0 Practice page: the highest proficiency is "not included for courses".
    expect(c1?.practice).not.toHaveProperty("highestProficiency");
    // Another user sees no practice.
    expect(state.searchStore("u2", { query: "spanish" }).drills.every((d) => d.practice === undefined)).toBe(
      true,
    );
  });

  it("rejects unknown and inaccessible drillables", () => {
    const state = createState(fixtureData());
    expect(domainError(() => state.getRendition("u1", "nope")).id).toBe("drillable_not_found");
    expect(domainError(() => state.getRendition("u2", "d6")).id).toBe("drillable_access_denied");
  });
});

describe("repertoire", () => {
  it("adds, lists by name, pages and removes", () => {
    const state = createState(fixtureData());
    expect(state.listRepertoire("u1")).toEqual({ total: 0, drills: [] });
    expect(state.addToRepertoire("u1", "d3")).toBe(true);
    expect(state.addToRepertoire("u1", "c1")).toBe(true);
    expect(state.addToRepertoire("u1", "d2")).toBe(true);
    expect(state.addToRepertoire("u1", "d2")).toBe(false);
    const list = state.listRepertoire("u1");
    expect(list.total).toBe(3);
    expect(list.drills.map((d) => d.id)).toEqual(["d2", "c1", "d3"]);
    expect(state.listRepertoire("u1", { resultStart: "1", resultSize: "1" })).toMatchObject({
      total: 3,
      drills: [{ id: "c1" }],
    });
    expect(state.listRepertoire("u2").total).toBe(0);

    state.removeFromRepertoire("u1", "c1");
    expect(state.listRepertoire("u1").drills.map((d) => d.id)).toEqual(["d2", "d3"]);
    const missing = domainError(() => state.removeFromRepertoire("u1", "c1"));
    expect([missing.id, missing.status]).toEqual(["not_in_repertoire", 404]);
  });

  it("shows practice in the list and drops deleted drillables", () => {
    const state = createState(fixtureData());
    state.addToRepertoire("u1", "d1");
    state.addToRepertoire("u1", "d2");
    const q = state.nextQuestion("u1", ["d1"]);
    state.answer("u1", q.question.reference, { answer: rightValue(q) });
    const [first, second] = state.listRepertoire("u1").drills;
    expect(second?.id).toBe("d1");
    expect(second?.practice?.proficiency.receptive).toBe(20);
    // The 2.0 Drillable page: a drill in the repertoire carries its progress, practised or not.
    expect(first?.practice?.proficiency).toEqual({ receptive: 0, productive: 0, overall: 0 });
    state.deleteDrillable("d2");
    expect(state.listRepertoire("u1").drills.map((d) => d.id)).toEqual(["d1"]);
  });

  it("rejects unknown and inaccessible drillables", () => {
    const state = createState(fixtureData());
    expect(domainError(() => state.addToRepertoire("u1", "nope")).id).toBe("drillable_not_found");
    expect(domainError(() => state.addToRepertoire("u2", "d6")).id).toBe("drillable_access_denied");
    expect(state.addToRepertoire("u1", "d6")).toBe(true);
  });
});

describe("users and access", () => {
  it("resolves token subjects by ID, email and third-party ID within the organization", () => {
    const state = createState(fixtureData());
    expect(state.resolveTokenSubject("sa", "sa")?.id).toBe("sa");
    expect(state.resolveTokenSubject("sa", "u1")?.id).toBe("u1");
    expect(state.resolveTokenSubject("sa", "one@example.test")?.id).toBe("u1");
    expect(state.resolveTokenSubject("sa", "ext-1")?.id).toBe("u1");
    expect(state.resolveTokenSubject("sa", "u3")).toBeUndefined();
    expect(state.resolveTokenSubject("sa", "nobody")).toBeUndefined();
    expect(state.resolveTokenSubject("u1", "u1")).toBeUndefined();
    expect(state.findUserBySubject("three@example.test")?.id).toBe("u3");
  });

  it("grants and revokes catalog access", () => {
    const state = createState(fixtureData());
    expect(domainError(() => state.searchStore("u2", { catalog: "cat1" })).id).toBe("catalog_access_denied");
    state.grantCatalogAccess("u2", "cat1");
    state.grantCatalogAccess("u2", "cat1");
    expect(state.searchStore("u2", { catalog: "cat1" }).total).toBe(3);
    expect(state.nextQuestion("u2", ["d6"]).question.ask.term.value).toBe("hola");
    state.revokeCatalogAccess("u2", "cat1");
    expect(domainError(() => state.searchStore("u2", { catalog: "cat1" })).id).toBe("catalog_access_denied");
    expect(state.catalog("cat1")?.userIds).toEqual(["u1"]);
    expect(domainError(() => state.grantCatalogAccess("u2", "nope")).id).toBe("catalog_not_found");
    expect(domainError(() => state.grantCatalogAccess("ghost", "cat1")).id).toBe("user_not_found");
  });

  it("lets group members practise the group's drillables", () => {
    const state = createState(
      dataWith({
        groups: [{ id: "g", name: "G", organizationId: "org", memberIds: ["u2"], drillableIds: ["d6"] }],
      }),
    );
    expect(state.nextQuestion("u2", ["d6"]).question.sequenceNr).toBe(1);
    expect(domainError(() => state.nextQuestion("u3", ["d6"])).id).toBe("drillable_access_denied");
  });
});
