/**
 * Flow 3 of issue 36, written once and run through every door (HTTP, in process, MSW): define a test,
 * hand it to a group, answer its questions as a member, read the result as the user and the group's
 * results as staff.
 */
import { expect } from "vitest";
import { client, type TestSandbox, tokenFor } from "./helpers.js";

/** es-colours of SMALL_DATA, Spanish → English. */
const COLOURS: Record<string, string> = { rojo: "red", azul: "blue", verde: "green" };

interface Question {
  reference: string;
  sequenceNr: number;
  ask: { term: { value: string } };
  tell: { terms: { value: string }[] };
}

/** Runs the flow on SMALL_DATA: `sa-1` sets up, `u-ana` takes the test, `u-bob` reads as VIEW staff. */
export async function testsFlow(sandbox: TestSandbox): Promise<void> {
  const sa = client(sandbox, await tokenFor(sandbox));
  const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
  const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));

  const group = (await sa("POST", "/api/2.1/groups", { body: { name: "Colours class", description: "d" } }))
    .body as { id: string };
  expect((await sa("PUT", `/api/2.1/group/${group.id}/drills/es-colours`)).status).toBe(200);
  expect((await sa("PUT", `/api/2.1/group/${group.id}/members/u-ana`)).status).toBe(200);
  expect(
    (await sa("PUT", `/api/2.1/group/${group.id}/staff/u-bob/permission`, { body: { permission: "VIEW" } }))
      .status,
  ).toBe(200);

  const form = {
    drills: ["es-colours"],
    name: "Colours quiz",
    direction: "RECEPTIVE",
    style: "MULTIPLE_CHOICE",
  };
  const own = await sa("POST", "/api/2.1/tests", { body: form });
  expect(own.status).toBe(200);
  // An individual test of the service account: Ana may not take it.
  const early = await ana("GET", `/api/2.1/test-question/${(own.body as { id: string }).id}`);
  expect(early.status).toBe(400);
  expect(early.body).toMatchObject({ ID: "inaccessible_test" });

  // The POST group tests page: it "defines a new group test" from one or more drills.
  const defined = await sa("POST", `/api/2.1/group/${group.id}/tests`, { body: form });
  expect(defined.status).toBe(200);
  const test = defined.body as { id: string; title: string; drills: string[]; questions: number[] };
  expect(test).toMatchObject({
    title: "Colours quiz",
    drills: ["es-colours"],
    questions: [3],
    group: group.id,
  });
  const listed = await ana("GET", "/api/2.1/tests?filter=OPEN");
  expect(listed.body).toMatchObject({
    total: 1,
    open: 1,
    completed: 0,
    tests: [{ id: test.id, group: group.id }],
  });

  // Three questions: the first two answered right, the last one wrong.
  const asked: string[] = [];
  for (let i = 0; i < 3; i++) {
    const got = await ana("GET", `/api/2.1/test-question/${test.id}`);
    expect(got.status).toBe(200);
    const question = (got.body as { question: Question }).question;
    expect(question.sequenceNr).toBe(i + 1);
    const expected = COLOURS[question.ask.term.value] as string;
    expect(question.tell.terms.map((t) => t.value)).toContain(expected);
    asked.push(question.ask.term.value);
    const answer = i < 2 ? expected : "purple";
    const answered = await ana("PUT", `/api/2/test-answer/${question.reference}`, { body: { answer } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ evaluation: { result: i < 2 ? "CORRECT" : "INCORRECT" } });
  }
  expect(asked.sort()).toEqual(["azul", "rojo", "verde"]);

  // The last answer completed the test (it allows no question navigation).
  const more = await ana("GET", `/api/2.1/test-question/${test.id}`);
  expect(more.status).toBe(400);
  expect(more.body).toMatchObject({ ID: "already_completed" });

  const mine = await ana("GET", `/api/2.1/test-result/${test.id}`);
  expect(mine.status).toBe(200);
  expect(mine.body).toMatchObject({ userId: "u-ana", size: 3, correctlyAnswered: 2, score: 67, progress: 1 });
  expect((mine.body as { completed?: string }).completed).toEqual(expect.any(String));
  const mine20 = await ana("GET", `/api/2/test-result/${test.id}`);
  const questions = (mine20.body as { questions: { correct: boolean; givenAnswer: string }[] }).questions;
  expect(questions.map((q) => q.correct)).toEqual([true, true, false]);
  expect(questions[2]?.givenAnswer).toBe("purple");

  // Bob, VIEW staff of the group, reads each member's result on the group's test, and the group's
  // drill results; Ana, a member without a staff permission, may not read the group's results.
  const anasResult = await bob("GET", `/api/2/test-result/${test.id}/ana@academy.test`);
  expect(anasResult.status).toBe(200);
  expect(anasResult.body).toMatchObject({ correctlyAnswered: 2, size: 3 });
  const groupTests = await bob("GET", `/api/2.1/group/${group.id}/tests`);
  expect(groupTests.body).toMatchObject({ total: 1, tests: [{ id: test.id }] });
  const results = await bob("GET", `/api/2.1/group/${group.id}/results`);
  expect(results.status).toBe(200);
  expect(results.body).toMatchObject({
    groupId: group.id,
    // In lower case, as the only page of group results (2.0) writes the types.
    averageDrillResults: [{ type: "drill", id: "es-colours" }],
  });
  const refused = await ana("GET", `/api/2.1/group/${group.id}/results`);
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ ID: "no_permission" });
}
