/**
 * Tests through `@drill-practice/client/v2.1.1`: defined and taken in 2.1.1, answered through 2.0 (2.1.1
 * lists no test answer of its own), completed with the 2.1.1 TestResult, and read back in 2.1.
 */
import { describe, expect, it } from "vitest";
import { client, start, startWithAnasGroup, tokenFor } from "../support/helpers.js";
import { v211Client } from "../support/version-clients.js";

/** es-colours of SMALL_DATA, Spanish → English. */
const COLOURS: Record<string, string> = { rojo: "red", azul: "blue", verde: "green" };

/** A fresh sandbox in which Ana has defined a test of `body` through 2.1.1; Bob is another user. */
async function anaDefines(body: {
  drills: string[];
  name: string;
  allowQuestionNavigation?: boolean;
  allowUnansweredQuestions?: boolean;
}) {
  const sandbox = await start();
  const ana = await v211Client(sandbox, "u-ana");
  const bob = await v211Client(sandbox, "u-bob");
  const defined = await ana.POST("/api/2.1.1/tests", { body });
  expect(defined.response.status).toBe(200);
  return { ana, bob, test: (defined.data as { id: string }).id };
}

describe("tests in 2.1.1", () => {
  it("defines, takes and completes a test, answering the 2.1.1 TestResult over the state 2.1 reads", async () => {
    const sandbox = await start();
    const ana = await v211Client(sandbox, "u-ana");
    const raw = client(sandbox, await tokenFor(sandbox, "u-ana"));

    const defined = await ana.POST("/api/2.1.1/tests", {
      body: {
        drills: ["es-colours"],
        name: "Colours quiz",
        direction: "RECEPTIVE",
        disclosures: ["OVERALL_SCORE"],
        allowQuestionNavigation: true,
      },
    });
    expect(defined.response.status).toBe(200);
    const test = (defined.data as { id: string }).id;

    for (let i = 0; i < 3; i++) {
      const asked = await ana.GET("/api/2.1.1/test-question/{test}", { params: { path: { test } } });
      expect(asked.response.status).toBe(200);
      const question = asked.data?.question;
      if (question === undefined) throw new Error("no question");
      expect(question.sequenceNr).toBe(i + 1);
      const term = (question.ask as { term: { value: string } }).term.value;
      const answer = i < 2 ? (COLOURS[term] as string) : "purple";
      expect(
        (await raw("PUT", `/api/2/test-answer/${question.reference}`, { body: { answer } })).status,
      ).toBe(200);
    }

    // With question navigation the last answer does not complete the test: the attempt is open.
    const open = await ana.GET("/api/2.1.1/test-results/{test}", {
      params: { path: { test }, query: { status: "INCOMPLETE" } },
    });
    expect(open.data).toMatchObject({ total: 1, testResults: [{ progress: 1, size: 3 }] });
    expect(
      (open.data as { testResults: { completed?: string }[] }).testResults[0]?.completed,
    ).toBeUndefined();

    const completed = await ana.PUT("/api/2.1.1/test-result/{test}", { params: { path: { test } } });
    expect(completed.response.status).toBe(200);
    expect(completed.data).toMatchObject({
      id: expect.any(String),
      score: { percentage: 67, transformations: [] },
      correctlyAnswered: 2,
      size: 3,
      progress: 1,
      duration: expect.any(Number),
    });
    expect(completed.data?.completed).toEqual(expect.any(String));

    const last = await ana.GET("/api/2.1.1/test-results/{test}", {
      params: { path: { test }, query: { status: "LASTCOMPLETED" } },
    });
    expect(last.data).toMatchObject({ total: 1, testResults: [{ id: completed.data?.id }] });
    expect(
      await ana.GET("/api/2.1.1/test-results/{test}", {
        params: { path: { test }, query: { status: "INCOMPLETE" } },
      }),
    ).toMatchObject({ data: { total: 0, testResults: [] } });

    // 2.1 reads the same run, in its own shape; 2.1.1 lists the test as completed.
    const read21 = await raw("GET", `/api/2.1/test-result/${test}`);
    expect(read21.body).toMatchObject({ userId: "u-ana", score: 67, correctlyAnswered: 2 });
    const listed = await ana.GET("/api/2.1.1/tests", { params: { query: { filter: "COMPLETED" } } });
    expect(listed.data).toMatchObject({ total: 1, completed: 1, tests: [{ id: test }] });

    const again = await ana.PUT("/api/2.1.1/test-result/{test}", { params: { path: { test } } });
    expect(again.response.status).toBe(400);
    expect(again.error).toMatchObject({ id: "already_completed" });
    const unknown = await ana.PUT("/api/2.1.1/test-result/{test}", { params: { path: { test: "nope" } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ id: "not_found" });
  });

  it("leaves the score out where the test does not disclose it, and refuses a test the user may not take", async () => {
    const { ana, bob, test } = await anaDefines({
      drills: ["es-colours"],
      name: "Quiet quiz",
      allowQuestionNavigation: true,
      allowUnansweredQuestions: true,
    });
    await ana.GET("/api/2.1.1/test-question/{test}", { params: { path: { test } } });
    const completed = await ana.PUT("/api/2.1.1/test-result/{test}", { params: { path: { test } } });
    expect(completed.response.status).toBe(200);
    expect(completed.data).toMatchObject({ size: 3, progress: 0 });
    expect(completed.data).not.toHaveProperty("score");

    const refused = await bob.GET("/api/2.1.1/test-results/{test}", { params: { path: { test } } });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ id: "inaccessible_test" });
    const question = await bob.GET("/api/2.1.1/test-question/{test}", { params: { path: { test } } });
    expect(question.response.status).toBe(400);
    expect(question.error).toMatchObject({ id: "inaccessible_test" });
  });

  it("copies a test the user defined under a new name, and answers the copy page's errors", async () => {
    const { ana, bob, test } = await anaDefines({ drills: ["es-colours"], name: "Original" });

    const copied = await ana.POST("/api/2.1.1/test/{test}", {
      params: { path: { test } },
      body: { name: "Copy for spring" },
    });
    expect(copied.response.status).toBe(200);
    expect(copied.data).toMatchObject({ type: "TEST", name: "Copy for spring" });
    const copy = copied.data?.id as string;
    expect(copy).not.toBe(test);
    // The copy is a test of Ana's own, with the original's questions and no attempts yet.
    const listed = await ana.GET("/api/2.1.1/tests");
    expect(listed.data).toMatchObject({ total: 2, open: 2 });
    const asked = await ana.GET("/api/2.1.1/test-question/{test}", { params: { path: { test: copy } } });
    expect(asked.data?.question).toMatchObject({ sequenceNr: 1, questionsInTest: 3 });

    const cases = [
      [
        bob.POST("/api/2.1.1/test/{test}", { params: { path: { test } }, body: { name: "Mine" } }),
        401,
        "no_permission",
      ],
      [
        ana.POST("/api/2.1.1/test/{test}", { params: { path: { test: "nope" } }, body: { name: "X" } }),
        404,
        "unknown_test",
      ],
      [
        ana.POST("/api/2.1.1/test/{test}", { params: { path: { test } }, body: { name: "  " } }),
        400,
        "name_missing",
      ],
    ] as const;
    for (const [pending, status, id] of cases) {
      const { error, response } = await pending;
      expect(response.status, JSON.stringify(error)).toBe(status);
      expect(error).toMatchObject({ id });
    }
  });

  it("updates a test's settings: a disclosed score shows in the next result", async () => {
    const { ana, bob, test } = await anaDefines({ drills: ["es-colours"], name: "Plain" });
    const updated = await ana.PUT("/api/2.1.1/test/{test}", {
      params: { path: { test } },
      body: {
        name: "Open book",
        disclosures: ["OVERALL_SCORE"],
        allowQuestionNavigation: true,
        allowUnansweredQuestions: true,
      },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toMatchObject({ id: test, title: "Open book", disclosure: ["OVERALL_SCORE"] });
    await ana.GET("/api/2.1.1/test-question/{test}", { params: { path: { test } } });
    // Navigation now allowed: the run is submitted by hand, and the score is disclosed.
    const completed = await ana.PUT("/api/2.1.1/test-result/{test}", { params: { path: { test } } });
    expect(completed.data).toMatchObject({ score: { percentage: 0 }, correctlyAnswered: 0, progress: 0 });

    const refused = await bob.PUT("/api/2.1.1/test/{test}", {
      params: { path: { test } },
      body: { name: "Bob's" },
    });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ id: "no_permission" });
    const blank = await ana.PUT("/api/2.1.1/test/{test}", {
      params: { path: { test } },
      body: { name: " " },
    });
    expect(blank.response.status).toBe(400);
    expect(blank.error).toMatchObject({ id: "invalid_name" });
  });
});

describe("a group's test results in 2.1.1", () => {
  it("counts the members who took a test of the group, by name, and refuses a test not in it", async () => {
    const { sandbox, sa, group } = await startWithAnasGroup();
    const staff = await v211Client(sandbox);
    const ana = await v211Client(sandbox, "u-ana");
    // Defined through 2.1 as a group test: the group's tests are one state for every version.
    const defined = await sa("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "Colours quiz" },
    });
    expect(defined.status).toBe(200);
    const test = (defined.body as { id: string }).id;
    const results = (query?: string) =>
      staff.GET("/api/2.1.1/group/{group}/test-results/{test}", {
        params: { path: { group: group.id, test }, query: query === undefined ? {} : { query } },
      });

    const before = await results();
    expect(before.response.status).toBe(200);
    expect(before.data).toMatchObject({
      group: { id: group.id, name: "G" },
      total: 0,
      test: { type: "TEST", id: test, name: "Colours quiz" },
    });

    // Ana takes it: the last answer completes a test without question navigation.
    const raw = client(sandbox, await tokenFor(sandbox, "u-ana"));
    for (let i = 0; i < 3; i++) {
      const asked = await ana.GET("/api/2.1.1/test-question/{test}", { params: { path: { test } } });
      const reference = asked.data?.question?.reference;
      expect((await raw("PUT", `/api/2/test-answer/${reference}`, { body: { answer: "red" } })).status).toBe(
        200,
      );
    }
    expect((await results()).data?.total).toBe(1);
    expect((await results("AN")).data?.total).toBe(1);
    expect((await results("nobody")).data?.total).toBe(0);

    const other = await staff.POST("/api/2.1.1/tests", {
      body: { drills: ["es-colours"], name: "Not handed out" },
    });
    const outside = await staff.GET("/api/2.1.1/group/{group}/test-results/{test}", {
      params: { path: { group: group.id, test: (other.data as { id: string }).id } },
    });
    expect(outside.response.status).toBe(404);
    // A member is no staff: the results are not hers to read.
    const asMember = await ana.GET("/api/2.1.1/group/{group}/test-results/{test}", {
      params: { path: { group: group.id, test } },
    });
    expect(asMember.response.status).toBe(403);
  });
});
