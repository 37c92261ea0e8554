import { describe, expect, it } from "vitest";
import { client, expectRefused, start, startWithAnasGroup, tokenFor } from "../support/helpers.js";
import { testsFlow } from "../support/tests-flow.js";

describe("tests (flow 3 of the issue)", () => {
  it("defines a test, answers its questions, reads the result as the user and the group's results as staff", async () => {
    await testsFlow(await start());
  });
});

/** Defines a group test of es-colours as the service account, for a new group with Ana in it. */
async function setUp(fields: Record<string, string> = {}) {
  const { sandbox, sa, ana, group } = await startWithAnasGroup();
  const test = (
    await sa("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "Quiz", direction: "RECEPTIVE", ...fields },
    })
  ).body as { id: string };
  return { sandbox, sa, ana, group, test };
}

async function answerOne(api: ReturnType<typeof client>, testId: string) {
  const q = (await api("GET", `/api/2.1/test-question/${testId}`)).body as {
    question: { reference: string };
  };
  return api("PUT", `/api/2/test-answer/${q.question.reference}`, { body: { answer: "red" } });
}

describe("tests: the pages' errors", () => {
  it("answers <field>_missing for a blank name, invalid_request where the page names no identifier", async () => {
    const { sa, group } = await setUp();
    // The define-test pages list no error identifiers, so a schema failure keeps invalid_request.
    const noName = await sa("POST", "/api/2.1/tests", { body: { drills: ["es-colours"] } });
    expectRefused(noName, 400, "invalid_request");
    // The 2.0 POST tests page: `title` is optional (blank counts as not given), see "tests: 2.0 titles".
    const noDrills = await sa("POST", `/api/2.1/group/${group.id}/tests`, { body: { name: "X" } });
    expectRefused(noDrills, 400, "drills_missing");
  });

  it("answers not_found and the pages' own identifiers for unknown IDs", async () => {
    const { sa, ana, test } = await setUp();
    const unknownDrill = await sa("POST", "/api/2.1/tests", { body: { drills: ["nope"], name: "X" } });
    expectRefused(unknownDrill, 404, "not_found", "drills");
    const question = await ana("GET", "/api/2.1/test-question/test-none");
    expectRefused(question, 404, "test_definition_not_found");
    const notTaken = await ana("GET", `/api/2.1/test-result/${test.id}`);
    expectRefused(notTaken, 404, "not_found");
    const notStarted = await ana("PUT", `/api/2.1/test-result/${test.id}`);
    expectRefused(notStarted, 404, "not_found");
    const reference = await ana("PUT", "/api/2/test-answer/no-such-reference", { body: { answer: "x" } });
    expectRefused(reference, 404, "not_found", "reference");
  });

  it("answers no_permission to a user without the permission", async () => {
    const { sandbox, ana, group, test } = await setUp();
    await answerOne(ana, test.id);
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    const other = await bob("GET", `/api/2/test-result/${test.id}/u-ana`);
    expectRefused(other, 403, "no_permission");
    const results = await bob("GET", `/api/2/group/${group.id}/results`);
    expectRefused(results, 403, "no_permission");
    const hand = await ana("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "Mine" },
    });
    expect(hand.status).toBe(403);
    const take = await bob("GET", `/api/2/test-question/${test.id}`);
    expectRefused(take, 400, "inaccessible_test");
  });

  it("completes a navigable test by hand: invalid_test_type, not_all_questions_answered, already_completed", async () => {
    const plain = await setUp();
    await answerOne(plain.ana, plain.test.id);
    const notNavigable = await plain.ana("PUT", `/api/2.1/test-result/${plain.test.id}`);
    expectRefused(notNavigable, 400, "invalid_test_type");

    const { ana, test } = await setUp({ allowQuestionNavigation: "true" });
    await answerOne(ana, test.id);
    const early = await ana("PUT", `/api/2.1/test-result/${test.id}`);
    expectRefused(early, 400, "not_all_questions_answered");
    await answerOne(ana, test.id);
    await answerOne(ana, test.id);
    // All answered but a navigable test stays open until completed by hand.
    const exhausted = await ana("GET", `/api/2.1/test-question/${test.id}`);
    expectRefused(exhausted, 400, "questions_exhausted");
    const open = await ana("GET", `/api/2.1/tests?filter=OPEN`);
    expect(open.body).toMatchObject({ open: 1, completed: 0 });
    const done = await ana("PUT", `/api/2.1/test-result/${test.id}`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({});
    const again = await ana("PUT", `/api/2.1/test-result/${test.id}`);
    expectRefused(again, 400, "already_completed");
    const completed = await ana("GET", `/api/2.1/tests?filter=COMPLETED`);
    expect(completed.body).toMatchObject({ completed: 1, tests: [{ id: test.id }] });
  });

  it("answers a question once (answer_already_given) and needs an answer (answer_missing)", async () => {
    const { ana, test } = await setUp();
    const q = (await ana("GET", `/api/2.1/test-question/${test.id}`)).body as {
      question: { reference: string };
    };
    const empty = await ana("PUT", `/api/2/test-answer/${q.question.reference}`, { body: { other: "x" } });
    expectRefused(empty, 400, "answer_missing");
    expect(
      (await ana("PUT", `/api/2/test-answer/${q.question.reference}`, { body: { answer: "red" } })).status,
    ).toBe(200);
    const twice = await ana("PUT", `/api/2/test-answer/${q.question.reference}`, { body: { answer: "red" } });
    expectRefused(twice, 400, "answer_already_given");
  });

  it("reports the group's practice proficiency in 2.0 group results", async () => {
    const { sandbox, sa, group } = await setUp();
    await sa("PUT", `/api/2.1/group/${group.id}/drills/es-colours`);
    const before = await sa("GET", `/api/2/group/${group.id}/results`);
    expect(before.body).toEqual({
      groupId: group.id,
      averageProficiency: 0,
      // The 2.0 GET group results page's example writes the types in lower case.
      averageDrillResults: [{ type: "drill", id: "es-colours", proficiency: 0, drillResults: [] }],
    });
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    for (let i = 0; i < 3; i++) {
      const q = (await ana("GET", "/api/2.1/question/es-colours")).body as {
        question: { reference: string; ask: { term: { value: string } } };
      };
      const answer = { rojo: "red", azul: "blue", verde: "green" }[q.question.ask.term.value] as string;
      await ana("PUT", `/api/2/answer/${q.question.reference}`, { body: { answer } });
    }
    const after = (await sa("GET", `/api/2/group/${group.id}/results`)).body as {
      averageProficiency: number;
    };
    expect(after.averageProficiency).toBeGreaterThan(0);
  });
});

describe("tests: a time limit", () => {
  it("answers the remaining test time with each 2.1 question, and refuses a duration without fixed length", async () => {
    const sandbox = await start();
    const sa = client(sandbox, await tokenFor(sandbox));
    const form = { drills: ["es-colours"], name: "Timed" };
    const timed = (await sa("POST", "/api/2.1/tests", { body: { ...form, timeLimit: "PT5M" } })).body as {
      id: string;
    };
    const question = (await sa("GET", `/api/2.1/test-question/${timed.id}`)).body as {
      question: { remainingTestTime?: string };
    };
    expect(question.question.remainingTestTime).toMatch(/^PT(29\d|300)S$/);
    const untimed = (await sa("POST", "/api/2.1/tests", { body: form })).body as { id: string };
    const plain = (await sa("GET", `/api/2.1/test-question/${untimed.id}`)).body as { question: object };
    expect(plain.question).not.toHaveProperty("remainingTestTime");
    expectRefused(
      await sa("POST", "/api/2.1/tests", { body: { ...form, timeLimit: "P1M" } }),
      400,
      "invalid_time_limit",
      "timeLimit",
    );
  });
});

describe("tests: how many questions", () => {
  it("caps the whole test with one count, and each drill with one count per drill", async () => {
    const sandbox = await start();
    const sa = client(sandbox, await tokenFor(sandbox));
    const drillsAsked = async (questions: string[]) => {
      const defined = await sa("POST", "/api/2.1/tests", {
        body: {
          drills: ["es-colours", "es-animals"],
          name: "Mixed",
          questions,
          direction: "RECEPTIVE",
        },
      });
      expect(defined.status).toBe(200);
      const test = defined.body as { id: string; questions: number[] };
      const asked: string[] = [];
      for (;;) {
        const got = await sa("GET", `/api/2.1/test-question/${test.id}`);
        if (got.status !== 200) break;
        const question = (got.body as { question: { reference: string; ask: { term: { value: string } } } })
          .question;
        const answered = await sa("PUT", `/api/2/test-answer/${question.reference}`, {
          body: { answer: "x" },
        });
        expect(answered.status).toBe(200);
        asked.push(question.ask.term.value);
        if (asked.length > 20) break;
      }
      return { counts: test.questions, asked };
    };
    const whole = await drillsAsked(["2"]);
    // Items in each drill's order: es-colours asks rojo, azul, verde; es-animals perro, gato, …
    expect(whole).toEqual({ counts: [2], asked: ["rojo", "azul"] });
    const perDrill = await drillsAsked(["1", "2"]);
    expect(perDrill).toEqual({ counts: [1, 2], asked: ["rojo", "perro", "gato"] });
    const wrong = await sa("POST", "/api/2.1/tests", {
      body: { drills: ["es-colours", "es-animals"], name: "Odd", questions: ["1", "1", "1"] },
    });
    expectRefused(wrong, 400, "invalid_questions", "questions");
  });
});
