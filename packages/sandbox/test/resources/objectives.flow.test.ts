import { describe, expect, it } from "vitest";
import { expectRefused, startWithAnasGroup } from "../support/helpers.js";

const COLOURS: Record<string, string> = { rojo: "red", azul: "blue", verde: "green" };

/** A group of the service account with es-colours and Ana as a member. */
async function setUp() {
  const started = await startWithAnasGroup();
  await started.sa("PUT", `/api/2.1/group/${started.group.id}/drills/es-colours`);
  return started;
}

describe("group objectives", () => {
  it("defines, lists in both versions, evaluates from practice, updates and removes an objective", async () => {
    const { sa, ana, group } = await setUp();
    const defined = await sa("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { drills: ["es-colours"], reviewDate: "2030-01-31T00:00:00Z", minimumProficiency: "90" },
    });
    expect(defined.status).toBe(200);
    const objective = defined.body as { id: string };
    expect(defined.body).toMatchObject({
      type: "ONEOFF",
      reviewDate: "2030-01-31T00:00:00.000Z",
      minimumProficiency: 90,
      evaluation: { met: false, proficiency: 0 },
      playables: [{ type: "DRILL", id: "es-colours", name: "Spanish colours" }],
    });

    const listed20 = await sa("GET", `/api/2/group/${group.id}/objectives`);
    expect(listed20.body).toEqual([
      {
        id: objective.id,
        type: "ONEOFF",
        reviewDate: "2030-01-31T00:00:00.000Z",
        minimumProficiency: 90,
        drills: [{ id: "es-colours", name: "Spanish colours" }],
      },
    ]);
    const mine = await ana("GET", "/api/2.1/objectives");
    expect(mine.body).toMatchObject({
      total: 1,
      objectives: [{ id: objective.id, evaluation: { met: false } }],
    });

    // Ana practises; with the minimum lowered to 1 the objective is met and drops out of the open list.
    for (let i = 0; i < 3; i++) {
      const q = (await ana("GET", "/api/2.1/question/es-colours")).body as {
        question: { reference: string; ask: { term: { value: string } } };
      };
      const answer = COLOURS[q.question.ask.term.value] as string;
      await ana("PUT", `/api/2/answer/${q.question.reference}`, { body: { answer } });
    }
    // An objective's own fields change through PUT objective (2.1.1 page); the 2.1 PUT group objective
    // sets a member's review date, as the 2.1.1 page of that path says.
    const updated = await sa("PUT", `/api/2.1.1/objective/${objective.id}`, {
      body: { type: "ONEOFF", minimumProficiency: "1" },
    });
    expect(updated.status).toBe(200);
    expect((await sa("GET", `/api/2/group/${group.id}/objectives`)).body).toMatchObject([
      { id: objective.id, minimumProficiency: 1, reviewDate: "2030-01-31T00:00:00.000Z" },
    ]);
    expect((await ana("GET", "/api/2.1/objectives")).body).toMatchObject({ total: 0, objectives: [] });
    const all = (await ana("GET", "/api/2.1/objectives?includeCompleted=true")).body as {
      objectives: { evaluation: { met: boolean; proficiency: number } }[];
    };
    expect(all.objectives[0]?.evaluation.met).toBe(true);
    expect(all.objectives[0]?.evaluation.proficiency).toBeGreaterThan(0);
    const evaluations = await sa("GET", `/api/2.1/group/${group.id}/objective/${objective.id}/evaluations`);
    expect(evaluations.body).toMatchObject({ evaluations: [{ user: { id: "u-ana" }, met: true }] });
    // Each item has the 2.0 ObjectiveEvaluation page's required evaluation date.
    expect(
      Date.parse(
        (evaluations.body as { evaluations: { evaluationDate: string }[] }).evaluations[0]?.evaluationDate ??
          "",
      ),
    ).not.toBeNaN();

    expect((await sa("DELETE", `/api/2/group/${group.id}/objectives/${objective.id}`)).status).toBe(200);
    expect((await sa("GET", `/api/2/group/${group.id}/objectives`)).body).toEqual([]);
  });

  it("forgets a deleted group's objectives", async () => {
    const { sa, ana, group } = await setUp();
    await sa("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { drills: ["es-colours"], reviewDate: "2030-01-31T00:00:00Z", minimumProficiency: "90" },
    });
    expect((await ana("GET", "/api/2.1/objectives")).body).toMatchObject({ total: 1 });
    expect((await sa("DELETE", `/api/2.1/groups/${group.id}`)).status).toBe(200);
    // A new group may be given the freed ID; it must not inherit the old group's objectives.
    const next = (await sa("POST", "/api/2.1/groups", { body: { name: "H", description: "d" } })).body as {
      id: string;
    };
    expect(next.id).toBe(group.id);
    expect((await sa("GET", `/api/2/group/${next.id}/objectives`)).body).toEqual([]);
  });

  it("lists a group's drillables as playables", async () => {
    const { sa, group } = await setUp();
    await sa("PUT", `/api/2.1/group/${group.id}/drills/es-animals`);
    const res = await sa("GET", `/api/2.1/group/${group.id}/drillables?resultStart=1`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: group.id,
      counts: { drillables: 2 },
      drillables: [{ type: "DRILL", id: "es-animals", name: "Spanish animals" }],
    });
    expect((res.body as { drillables: unknown[] }).drillables).toHaveLength(1);
  });
});

describe("group objectives: the pages' errors", () => {
  it("answers <field>_missing and invalid_<field>", async () => {
    const { sa, group } = await setUp();
    const noDate = await sa("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { drills: ["es-colours"], minimumProficiency: "50" },
    });
    expectRefused(noDate, 400, "review_date_missing", "reviewDate");
    const noDrill = await sa("POST", `/api/2/group/${group.id}/objectives`, {
      body: { reviewDate: "2030-01-01T00:00:00Z", minimumProficiency: "50" },
    });
    expect(noDrill.body).toMatchObject({ ID: "drill_missing" });
    const tooHigh = await sa("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { drills: ["es-colours"], reviewDate: "2030-01-01T00:00:00Z", minimumProficiency: "150" },
    });
    expectRefused(tooHigh, 400, "invalid_minimum_proficiency");
  });

  it("answers the pages' not_found and permission identifiers", async () => {
    const { sa, ana, group } = await setUp();
    const unknown = await sa("GET", "/api/2/group/g-none/objectives");
    expectRefused(unknown, 404, "group_not_found");
    const member = await ana("GET", `/api/2/group/${group.id}/objectives`);
    expectRefused(member, 403, "no_group_access");
    const define = await ana("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { drills: ["es-colours"], reviewDate: "2030-01-01T00:00:00Z", minimumProficiency: "5" },
    });
    expectRefused(define, 403, "no_permission");
    const gone = await sa("DELETE", `/api/2.1/group/${group.id}/objective/objective-9`);
    expectRefused(gone, 404, "not_found", "objective");
  });
});

describe("group objectives: the falling minimum", () => {
  it("sets a member's review date through the 2.1 path, as the 2.1.1 PUT group objective page (example sent to /api/2.1/) says", async () => {
    const { sa, ana, group } = await setUp();
    const defined = await sa("POST", `/api/2.1.1/group/${group.id}/objectives`, {
      body: { drills: ["es-colours"], minimumProficiency: "80" },
    });
    const id = (defined.body as { id: string }).id;
    const set = await sa("PUT", `/api/2.1/group/${group.id}/objective/${id}`, {
      body: { user: "u-ana", reviewDate: "2099-01-01T00:00:00Z" },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ id });
    expect((await ana("GET", "/api/2.1/objectives?includeCompleted=true")).body).toMatchObject({
      objectives: [{ id, reviewDate: "2099-01-01T00:00:00.000Z" }],
    });
    const missing = await sa("PUT", `/api/2.1/group/${group.id}/objective/${id}`, {
      body: { reviewDate: "2099-01-01T00:00:00Z" },
    });
    expect(missing.status).toBe(400);
  });

  it("keeps fallingMinimumProficiency, answers it in 2.1, changes it on update and refuses one outside 0..100", async () => {
    const { sa, group } = await setUp();
    const base = { drills: ["es-colours"], reviewDate: "2030-01-31T00:00:00Z", minimumProficiency: "80" };
    const defined = await sa("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { ...base, fallingMinimumProficiency: "60", name: "Colours by January" },
    });
    expect(defined.body).toMatchObject({ minimumProficiency: 80, fallingMinimumProficiency: 60 });
    const id = (defined.body as { id: string }).id;
    const updated = await sa("PUT", `/api/2.1.1/objective/${id}`, {
      body: { type: "ONEOFF", fallingMinimumProficiency: "50" },
    });
    expect(updated.status).toBe(200);
    expect((await sa("GET", `/api/2.1/group/${group.id}/objectives`)).body).toMatchObject({
      objectives: [{ id, minimumProficiency: 80, fallingMinimumProficiency: 50 }],
    });
    const without = await sa("POST", `/api/2.1/group/${group.id}/objectives`, { body: base });
    expect(without.body).not.toHaveProperty("fallingMinimumProficiency");
    const tooHigh = await sa("POST", `/api/2.1/group/${group.id}/objectives`, {
      body: { ...base, fallingMinimumProficiency: "150" },
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body).toMatchObject({ parameter: "fallingMinimumProficiency" });
  });
});
