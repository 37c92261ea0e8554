/**
 * Group tests as the POST group tests pages define them (issue #47): a group test is defined from the
 * form, adaptive levels move by the page's thirds, the 2.0 title defaults to the drill's name, and the
 * 2.1 test and 2.0 ticket question answer from the state.
 */
import { describe, expect, it } from "vitest";
import { client, expectRefused, SMALL_DATA, startWithAnasGroup, tokenFor } from "../support/helpers.js";

type Api = ReturnType<typeof client>;

/** Each item's drill and right answer, by what it asks (a RECEPTIVE test asks the `ask` side). */
const ITEMS = new Map(
  SMALL_DATA.drills.flatMap((d) => d.items.map((i) => [i.ask, { drill: d.id, tell: i.tell }] as const)),
);

interface Asked {
  drill: string;
  reference: string;
  tell: string;
}

async function nextQuestion(api: Api, testId: string): Promise<Asked> {
  const got = await api("GET", `/api/2.1/test-question/${testId}`);
  expect(got.status).toBe(200);
  const q = (got.body as { question: { reference: string; ask: { term: { value: string } } } }).question;
  const item = ITEMS.get(q.ask.term.value);
  if (item === undefined) throw new Error(`unknown item ${q.ask.term.value}`);
  return { reference: q.reference, ...item };
}

/** Answers the next `count` questions, right or wrong as `right(i)` says; returns the drills asked. */
async function answerSet(api: Api, testId: string, right: (i: number) => boolean, count = 2) {
  const drills: string[] = [];
  for (let i = 0; i < count; i++) {
    const q = await nextQuestion(api, testId);
    drills.push(q.drill);
    const answer = right(i) ? q.tell : "wrong";
    expect((await api("PUT", `/api/2/test-answer/${q.reference}`, { body: { answer } })).status).toBe(200);
  }
  return drills;
}

/** Three levels, easiest first, two questions each (the POST group tests page's adaptive test). */
const LEVELS = { drills: ["fr-animals", "es-colours", "es-animals"], questions: "2", adaptive: "TRUE" };

describe("group tests (POST group tests pages, issue #47)", () => {
  it("defines a new group test from the form, with its review date, for the group's members", async () => {
    const { sa, ana, group } = await startWithAnasGroup();
    const defined = await sa("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "Colours", reviewDate: "2030-01-31T12:00:00Z" },
    });
    expect(defined.status).toBe(200);
    const test = defined.body as { id: string };
    expect(defined.body).toMatchObject({
      title: "Colours",
      group: group.id,
      reviewDate: "2030-01-31T12:00:00Z",
    });
    const listed = await ana("GET", "/api/2.1/tests");
    expect(listed.body).toMatchObject({ total: 1, tests: [{ id: test.id, group: group.id }] });

    const noDrills = await sa("POST", `/api/2.1/group/${group.id}/tests`, { body: { name: "X" } });
    expectRefused(noDrills, 400, "drills_missing");
    const noName = await sa("POST", `/api/2.1/group/${group.id}/tests`, { body: { drills: ["es-colours"] } });
    expectRefused(noName, 400, "name_missing");
    const badDate = await sa("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "X", reviewDate: "soon" },
    });
    expectRefused(badDate, 400, "invalid_review_date");
    // The old form (an existing test's ID) defines nothing.
    const old = await sa("POST", `/api/2.1/group/${group.id}/tests`, { body: { test: test.id } });
    expectRefused(old, 400, "drills_missing");
  });

  it("defines a 2.0 group test from the 2.0 fields, titled by the drill when no title is given", async () => {
    const { sa, group } = await startWithAnasGroup();
    const defined = await sa("POST", `/api/2/group/${group.id}/tests`, { body: { drill: ["es-colours"] } });
    expect(defined.status).toBe(200);
    expect(defined.body).toMatchObject({ title: "Spanish colours", group: group.id });
    expectRefused(
      await sa("POST", `/api/2/group/${group.id}/tests`, { body: { title: "X" } }),
      400,
      "drill_missing",
    );
  });

  it("moves an adaptive test a level up after 2/3 or more right, and scores the last set", async () => {
    const { sa, ana, group } = await startWithAnasGroup();
    const test = (
      await sa("POST", `/api/2.1/group/${group.id}/tests`, {
        body: { ...LEVELS, name: "Adaptive", direction: "RECEPTIVE" },
      })
    ).body as { id: string };
    // The entry level is halfway: the second of three levels.
    expect(await answerSet(ana, test.id, () => true)).toEqual(["es-colours", "es-colours"]);
    expect(await answerSet(ana, test.id, () => false)).toEqual(["es-animals", "es-animals"]);
    const result = await ana("GET", `/api/2.1/test-result/${test.id}`);
    // The score is the evaluation of the last set only: none of it was right.
    expect(result.body).toMatchObject({ score: 0, size: 4, progress: 1 });
    expect((result.body as { completed?: string }).completed).toBeDefined();
  });

  it("moves an adaptive test a level down under 1/3 right, and keeps it between 1/3 and 2/3", async () => {
    const { sa, ana, group } = await startWithAnasGroup();
    const define = async (name: string) =>
      (
        (
          await sa("POST", `/api/2.1/group/${group.id}/tests`, {
            body: { ...LEVELS, name, direction: "RECEPTIVE" },
          })
        ).body as { id: string }
      ).id;
    const down = await define("Down");
    await answerSet(ana, down, () => false);
    expect(await answerSet(ana, down, () => true)).toEqual(["fr-animals", "fr-animals"]);
    expect((await ana("GET", `/api/2.1/test-result/${down}`)).body).toMatchObject({ score: 100 });
    const same = await define("Same");
    await answerSet(ana, same, (i) => i === 0);
    expect(await answerSet(ana, same, () => true)).toEqual(["es-colours", "es-colours"]);
  });

  it("starts an adaptive test at startDrill and keeps the top level when there is none above", async () => {
    const { sa } = await startWithAnasGroup();
    const test = (
      await sa("POST", "/api/2.1/tests", {
        body: { ...LEVELS, adaptive: "true", name: "Top", direction: "RECEPTIVE", startDrill: "3" },
      })
    ).body as { id: string };
    expect(await answerSet(sa, test.id, () => true)).toEqual(["es-animals", "es-animals"]);
    expect(await answerSet(sa, test.id, () => true)).toEqual(["es-animals", "es-animals"]);
    const refuse = (fields: Record<string, string | string[]>) =>
      sa("POST", "/api/2.1/tests", { body: { ...LEVELS, adaptive: "true", name: "X", ...fields } });
    expectRefused(await refuse({ startDrill: "4" }), 400, "invalid_start_drill");
    expectRefused(await refuse({ drills: ["es-colours"] }), 400, "invalid_drills");
    expectRefused(await refuse({ questions: ["1", "2", "3"] }), 400, "invalid_questions");
  });
});

describe("2.0 POST tests: the title (2.0 POST tests page)", () => {
  it("defaults to the drill's name, or the subject for several drills", async () => {
    const { sa } = await startWithAnasGroup();
    const one = await sa("POST", "/api/2/tests", { body: { drill: ["es-colours"] } });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ title: "Spanish colours" });
    const two = await sa("POST", "/api/2/tests", {
      body: { drill: ["es-colours", "es-animals"], title: " " },
    });
    expect(two.body).toMatchObject({ title: "Spanish" });
  });
});

describe("reading a test (2.1 Test object page) and a ticket's question (2.0 GET test-question page)", () => {
  it("answers the 2.1 Test object from the state, to those who may take or watch it", async () => {
    const { sandbox, sa, ana, group } = await startWithAnasGroup();
    const test = (
      await sa("POST", `/api/2.1/group/${group.id}/tests`, {
        body: { drills: ["es-colours"], name: "Colours", instructions: "Take your time" },
      })
    ).body as { id: string };
    const read = await ana("GET", `/api/2.1/test/${test.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: test.id,
      name: "Colours",
      drills: ["es-colours"],
      group: group.id,
      testType: "GROUP",
      instructions: { text: "Take your time" },
      startable: true,
    });
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    expectRefused(await bob("GET", `/api/2.1/test/${test.id}`), 403, "no_permission");
    expectRefused(await ana("GET", "/api/2.1/test/test-none"), 404, "not_found");
  });

  it("refuses every ticket of an existing test (the sandbox issues none) and names an unknown test", async () => {
    const { sa, group } = await startWithAnasGroup();
    const test = (
      await sa("POST", `/api/2.1/group/${group.id}/tests`, {
        body: { drills: ["es-colours"], name: "Colours" },
      })
    ).body as { id: string };
    expectRefused(await sa("GET", `/api/2/test-question/${test.id}/ticket-1`), 400, "invalid_ticket");
    expectRefused(
      await sa("GET", "/api/2/test-question/test-none/ticket-1"),
      404,
      "test_definition_not_found",
    );
  });
});
