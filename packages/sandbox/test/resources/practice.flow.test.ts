import { describe, expect, it } from "vitest";
import { SECONDS_PER_ANSWER } from "../../src/domain/practice.js";
import { client, expectRefused, SMALL_DATA, start, type TestSandbox, tokenFor } from "../support/helpers.js";

interface QuestionBody {
  question: {
    reference: string;
    sequenceNr: number;
    ask: { name: string; term: { value: string } };
    tell: { name: string; composition: string; type: string; terms: { value: string }[] };
  };
  notifications: unknown[];
}

/** The right answer for an asked term, looked up in the test dataset (not in the sandbox). */
function rightAnswer(ask: string): string {
  for (const drill of SMALL_DATA.drills) {
    const item = drill.items.find((i) => i.ask === ask);
    if (item) return item.tell;
  }
  throw new Error(`no item asks ${ask}`);
}

function drillOf(ask: string): string | undefined {
  return SMALL_DATA.drills.find((d) => d.items.some((i) => i.ask === ask))?.id;
}

async function as(sandbox: TestSandbox, sub: string) {
  return client(sandbox, await tokenFor(sandbox, sub));
}

describe("practice loop", () => {
  it("serves questions, grades answers and keeps the rendition", async () => {
    const sandbox = await start();
    const ana = await as(sandbox, "u-ana");

    const first = await ana("GET", "/api/2/question/es-animals");
    expect(first.status).toBe(200);
    const q1 = first.body as QuestionBody;
    expect(q1.notifications).toEqual([]);
    expect(q1.question.sequenceNr).toBe(1);
    expect(q1.question.ask.name).toBe("Spanish");
    expect(q1.question.tell).toMatchObject({
      name: "English",
      composition: "SINGLE",
      type: "MULTIPLE_CHOICE",
    });
    expect(drillOf(q1.question.ask.term.value)).toBe("es-animals");
    const expected1 = rightAnswer(q1.question.ask.term.value);
    expect(q1.question.tell.terms.map((t) => t.value)).toContain(expected1);

    const right = await ana("PUT", `/api/2/answer/${encodeURIComponent(q1.question.reference)}`, {
      body: { answer: expected1 },
    });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({
      notifications: [],
      // First right answer: receptive 20, productive 5, overall their mean rounded (the domain README's rule).
      proficiency: { receptive: 20, productive: 5, overall: 13 },
      evaluation: { result: "CORRECT", termEvaluations: [{ value: expected1, result: "CORRECT" }] },
    });

    const again = await ana("PUT", `/api/2/answer/${encodeURIComponent(q1.question.reference)}`, {
      body: { answer: expected1 },
    });
    expectRefused(again, 409, "answer_already_given");

    const q2 = (await ana("GET", "/api/2.1/question/es-animals")).body as QuestionBody;
    expect(q2.question.sequenceNr).toBe(2);
    const expected2 = rightAnswer(q2.question.ask.term.value);
    const wrongChoice = q2.question.tell.terms.find((t) => t.value !== expected2)?.value;
    expect(wrongChoice).toBeDefined();
    const wrong = await ana("PUT", `/api/2.1/answer/${encodeURIComponent(q2.question.reference)}`, {
      body: { answer: wrongChoice ?? "" },
    });
    expect(wrong.body).toMatchObject({
      evaluation: {
        result: "INCORRECT",
        termEvaluations: [
          { value: wrongChoice, result: "INCORRECT" },
          { value: expected2, result: "MISSED" },
        ],
      },
    });

    const rendition = await ana("GET", "/api/2.1/rendition/es-animals");
    expect(rendition.status).toBe(200);
    expect(rendition.body).toMatchObject({
      drillableId: "es-animals",
      answerCount: 2,
      correctCount: 1,
      timeSpent: 2 * SECONDS_PER_ANSWER,
      lastPracticed: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // Search results now carry Ana's practice for that drill, and only hers.
    const mine = (await ana("GET", "/api/2.1/store?query=animals&searchField=NAME")).body as {
      drills: { id: string; practice?: unknown }[];
    };
    expect(mine.drills.find((d) => d.id === "es-animals")?.practice).toMatchObject({
      proficiency: expect.any(Object),
      highestProficiency: expect.any(Object),
      expectedDuration: expect.any(Number),
    });
    expect(mine.drills.find((d) => d.id === "fr-animals")?.practice).toBeUndefined();
    const bob = await as(sandbox, "u-bob");
    const his = (await bob("GET", "/api/2.1/store?query=animals&searchField=NAME")).body as {
      drills: { practice?: unknown }[];
    };
    expect(his.drills.every((d) => d.practice === undefined)).toBe(true);
  });

  it("combines drills from the path and repeated drill parameters", async () => {
    const sandbox = await start();
    const ana = await as(sandbox, "u-ana");
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 30 && seen.size < 2; i++) {
      const q = (await ana("GET", "/api/2/question?drill=es-colours&drill=fr-animals")).body as QuestionBody;
      seen.add(drillOf(q.question.ask.term.value));
    }
    expect(seen).toEqual(new Set(["es-colours", "fr-animals"]));

    const combined = new Set<string | undefined>();
    for (let i = 0; i < 30 && combined.size < 2; i++) {
      const q = (await ana("GET", "/api/2.1/question/es-colours?drill=fr-animals")).body as QuestionBody;
      combined.add(drillOf(q.question.ask.term.value));
    }
    expect(combined).toEqual(new Set(["es-colours", "fr-animals"]));
  });

  it("answers drill_missing when no drill is named", async () => {
    const sandbox = await start();
    const res = await (await as(sandbox, "u-ana"))("GET", "/api/2/question");
    expectRefused(res, 400, "drill_missing", "drill");
  });

  it("refuses unknown drills, foreign references and bad answers", async () => {
    const sandbox = await start();
    const ana = await as(sandbox, "u-ana");
    const bob = await as(sandbox, "u-bob");

    const unknown = await ana("GET", "/api/2/question/no-such-drill");
    expectRefused(unknown, 404, "drill_not_found");

    const q = (await ana("GET", "/api/2/question/es-animals")).body as QuestionBody;
    const ref = encodeURIComponent(q.question.reference);
    expect((await bob("PUT", `/api/2/answer/${ref}`, { body: { answer: "dog" } })).body).toMatchObject({
      ID: "reference_not_found",
      id: "reference_not_found",
    });
    expect((await ana("PUT", "/api/2/answer/nope", { body: { answer: "dog" } })).status).toBe(404);
    // The 2.0 answer requires the field answer (the description says so), the 2.1 one leaves its fields
    // open and the sandbox refuses the missing field itself.
    const noField = await ana("PUT", `/api/2/answer/${ref}`, { body: { value: "dog" } });
    expect([noField.status, (noField.body as { ID: string }).ID]).toEqual([400, "invalid_request"]);
    expect((noField.body as { description: string }).description).toMatch(/answer/);
    expect((await ana("PUT", `/api/2/answer/${ref}`)).body).toMatchObject({ ID: "invalid_request" });
    const open21 = await ana("PUT", `/api/2.1/answer/${ref}`, { body: { value: "dog" } });
    expect(open21.body).toMatchObject({ ID: "answer_invalid", parameter: "answer" });
    // A value that was not offered is a wrong answer, not a refusal.
    const zebra = await ana("PUT", `/api/2/answer/${ref}`, { body: { answer: "zebra" } });
    expect(zebra.status).toBe(200);
    expect(zebra.body).toMatchObject({ evaluation: { result: "INCORRECT" } });
  });

  it("lets only catalog members practise catalog-only drills", async () => {
    const sandbox = await start();
    expect((await (await as(sandbox, "u-ana"))("GET", "/api/2/question/de-business")).status).toBe(200);
    const bob = await (await as(sandbox, "u-bob"))("GET", "/api/2/question/de-business");
    expectRefused(bob, 403, "drillable_access_denied");
  });
});

describe("repertoire", () => {
  it("adds, lists and removes drills and courses", async () => {
    const sandbox = await start();
    const ana = await as(sandbox, "u-ana");
    expect((await ana("GET", "/api/2.1/repertoire")).body).toEqual({ total: 0, drills: [] });
    const added = { status: 200, body: { description: "Added to repertoire" } };
    expect(await ana("PUT", "/api/2.1/repertoire/es-colours")).toMatchObject(added);
    expect(await ana("PUT", "/api/2.1/repertoire/course-spanish")).toMatchObject(added);
    expect(await ana("PUT", "/api/2.1/repertoire/course-spanish")).toMatchObject(added);

    const list = (await ana("GET", "/api/2.1/repertoire")).body as {
      total: number;
      drills: { id: string }[];
    };
    expect(list.total).toBe(2);
    expect(list.drills.map((d) => d.id)).toEqual(["course-spanish", "es-colours"]);
    expect((await ana("GET", "/api/2/repertoire")).body).toEqual(list);
    // The 2.0 list pages by resultStart/resultSize; the total stays the whole repertoire's.
    const second = (await ana("GET", "/api/2/repertoire?resultStart=1&resultSize=1")).body as typeof list;
    expect(second.total).toBe(2);
    expect(second.drills.map((d) => d.id)).toEqual(["es-colours"]);
    const first = (await ana("GET", "/api/2/repertoire?resultSize=1")).body as typeof list;
    expect(first.drills.map((d) => d.id)).toEqual(["course-spanish"]);
    // Repertoires are per user.
    expect((await (await as(sandbox, "u-bob"))("GET", "/api/2.1/repertoire")).body).toEqual({
      total: 0,
      drills: [],
    });

    expect(await ana("DELETE", "/api/2.1/repertoire/es-colours")).toMatchObject({ status: 200, body: {} });
    const gone = await ana("DELETE", "/api/2.1/repertoire/es-colours");
    expectRefused(gone, 404, "not_in_repertoire");
    const unknown = await ana("PUT", "/api/2.1/repertoire/nope");
    expectRefused(unknown, 404, "drillable_not_found");
  });
});
