/**
 * Issue 47: the 2.1 reads of courses, reviews, appreciations, preferences, objectives and the
 * proficiency chart answer from the state (they answered a static example, header
 * `Drill-Sandbox-Example`); a 2.1 delete warns with 428 as the 2.1.1 delete page says; the practice
 * status carries the Practice pages' fields. Each test names the page it follows.
 */
import { describe, expect, it } from "vitest";
import { SECONDS_PER_ANSWER, SECONDS_PER_ITEM } from "../../src/domain/practice.js";
import { EXAMPLE_HEADER } from "../../src/index.js";
import {
  type client,
  clientAs,
  expectRefusals,
  SMALL_DATA,
  start,
  startWithAnasGroup,
} from "../support/helpers.js";

type Api = ReturnType<typeof client>;
type Answer = Awaited<ReturnType<Api>>;

/** A 200 answer from the state: no example header. */
function fromState(answer: Answer): unknown {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.headers.has(EXAMPLE_HEADER)).toBe(false);
  return answer.body;
}

async function created(api: Api, path: string, body: Record<string, string>): Promise<string> {
  const res = await api("POST", path, { body });
  expect(res.status).toBe(200);
  return (res.body as { id: string }).id;
}

/** Answers one question of a drill, rightly or not, looking the answer up in the test data. */
async function practise(api: Api, drill: string, right: boolean): Promise<void> {
  const q = (await api("GET", `/api/2.1/question/${drill}`)).body as {
    question: { reference: string; ask: { term: { value: string } } };
  };
  const items = SMALL_DATA.drills.flatMap((d) => d.items);
  const tell = items.find((i) => i.ask === q.question.ask.term.value)?.tell ?? "";
  const answer = right ? tell : `not ${tell}`;
  const res = await api("PUT", `/api/2.1/answer/${encodeURIComponent(q.question.reference)}`, {
    body: { answer },
  });
  expect(res.status).toBe(200);
}

describe("2.1 course reads and removal (the 2.1 put-course-drill page's Course object)", () => {
  it("reads a course in course order and takes a drill out of it", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const bob = await clientAs(sandbox, "u-bob");
    const verbs = await created(ana, "/api/2.1/drills", {
      name: "Verbs",
      subject: "German",
      description: "d",
    });
    const nouns = await created(ana, "/api/2.1/drills", {
      name: "Nouns",
      subject: "German",
      description: "d",
    });
    const course = await created(ana, "/api/2.1/courses", { name: "German at work", description: "d" });
    for (const drill of [verbs, nouns]) {
      expect((await ana("PUT", `/api/2.1/course/${course}/${drill}`)).status).toBe(200);
    }
    expect(fromState(await ana("GET", `/api/2.1/course/${course}`))).toMatchObject({
      id: course,
      type: "COURSE",
      name: "German at work",
      subject: "German",
      drills: [{ id: verbs }, { id: nouns }],
    });
    // A course of the data file, open to everyone through the store.
    expect(fromState(await bob("GET", "/api/2.1/course/course-spanish"))).toMatchObject({
      id: "course-spanish",
      drills: [{ id: "es-animals" }, { id: "es-colours" }],
    });

    const removed = fromState(await ana("DELETE", `/api/2.1/course/${course}/${verbs}`));
    expect(removed).toMatchObject({ id: course, drills: [{ id: nouns }] });
    expect((await ana("GET", `/api/2.1/course/${course}`)).body).toMatchObject({ drills: [{ id: nouns }] });

    await expectRefusals([
      [ana, "GET", "/api/2.1/course/no-such-course", 404, "not_found"],
      [ana, "GET", "/api/2.1/course/es-animals", 404, "not_found"],
      [bob, "GET", `/api/2.1/course/${course}`, 403, "no_permission"],
      [ana, "DELETE", `/api/2.1/course/${course}/${verbs}`, 404, "not_found"],
      [ana, "DELETE", `/api/2.1/course/no-such-course/${nouns}`, 404, "not_found"],
      [bob, "DELETE", `/api/2.1/course/${course}/${nouns}`, 403, "no_permission"],
    ]);
  });

  it("lets an emptied course take the subject of the next drill added", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const german = await created(ana, "/api/2.1/drills", { name: "V", subject: "German", description: "d" });
    const dutch = await created(ana, "/api/2.1/drills", { name: "W", subject: "Dutch", description: "d" });
    const course = await created(ana, "/api/2.1/courses", { name: "C", description: "d" });
    await ana("PUT", `/api/2.1/course/${course}/${german}`);
    expect(fromState(await ana("DELETE", `/api/2.1/course/${course}/${german}`))).toMatchObject({
      drills: [],
    });
    const added = await ana("PUT", `/api/2.1/course/${course}/${dutch}`);
    expect(added.body).toMatchObject({ subject: "Dutch", drills: [{ id: dutch }] });
  });
});

describe("2.1 delete with warnings (the 2.1.1 page DELETE drillable/…, which types 2.1's)", () => {
  it("answers 428 with the warnings, deletes nothing, and deletes with ignoreWarnings=true", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const drill = await created(ana, "/api/2.1/drills", {
      name: "Verbs",
      subject: "German",
      description: "d",
    });
    const course = await created(ana, "/api/2.1/courses", { name: "C", description: "d" });
    await ana("PUT", `/api/2.1/course/${course}/${drill}`);

    const warned = await ana("DELETE", `/api/2.1/drillable/${drill}`);
    expect(warned.status).toBe(428);
    expect(warned.body).toEqual({
      warnings: [{ id: "part_of_course", description: expect.any(String) }],
    });
    expect((await ana("GET", `/api/2.1/playable/${drill}`)).status).toBe(200);
    expect((await ana("DELETE", `/api/2.1/drillable/${drill}?ignoreWarnings=false`)).status).toBe(428);

    expect((await ana("DELETE", `/api/2.1/drillable/${drill}?ignoreWarnings=true`)).status).toBe(204);
    expect((await ana("GET", `/api/2.1/playable/${drill}`)).status).toBe(404);
    expect((await ana("GET", `/api/2.1/course/${course}`)).body).toMatchObject({ drills: [] });
  });
});

describe("reviews, appreciation and preferences reads (the 2.1.1 pages of posting and storing them)", () => {
  it("lists the reviews, reads one's own review, the rating and the stored preferences", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const bob = await clientAs(sandbox, "u-bob");
    for (const [api, content, appreciation] of [
      [ana, "Clear and short", "4"],
      [bob, "Too easy", "2"],
    ] as const) {
      expect((await api("PUT", "/api/2.1/repertoire/es-animals")).status).toBe(200);
      const posted = await api("PUT", "/api/2.1/drillable/es-animals/review", {
        body: { content, appreciation },
      });
      expect(posted.status).toBe(200);
    }
    const reviews = fromState(await bob("GET", "/api/2.1/drillable/es-animals/reviews"));
    expect(reviews).toEqual([
      {
        timestamp: expect.any(String),
        reviewer: expect.objectContaining({ id: "u-ana" }),
        content: "Clear and short",
      },
      {
        timestamp: expect.any(String),
        reviewer: expect.objectContaining({ id: "u-bob" }),
        content: "Too easy",
      },
    ]);
    expect(fromState(await ana("GET", "/api/2.1/drillable/es-colours/reviews"))).toEqual([]);
    expect(fromState(await ana("GET", "/api/2.1/drillable/es-animals/review"))).toMatchObject({
      reviewer: { id: "u-ana" },
      content: "Clear and short",
    });

    // The rating storing an appreciation answers: 4 and 2 give a mean of 3 (60 % of 5).
    expect(fromState(await ana("GET", "/api/2.1/playable/es-animals/appreciation"))).toEqual({
      points: 3,
      score: 60,
    });
    expect(fromState(await ana("GET", "/api/2.1/playable/es-colours/appreciation"))).toEqual({});

    expect(fromState(await ana("GET", "/api/2.1/rendition/es-animals/preferences"))).toEqual({});
    await ana("PUT", "/api/2.1/rendition/es-animals/preferences", { body: { direction: "RECEPTIVE" } });
    expect(fromState(await ana("GET", "/api/2.1/rendition/es-animals/preferences"))).toEqual({
      direction: "RECEPTIVE",
    });
    expect(fromState(await bob("GET", "/api/2.1/rendition/es-animals/preferences"))).toEqual({});

    const sa = await clientAs(sandbox, "sa-1");
    await expectRefusals([
      [sa, "GET", "/api/2.1/drillable/es-animals/review", 404, "not_found"],
      [ana, "GET", "/api/2.1/drillable/nope/review", 404, "not_found"],
      [ana, "GET", "/api/2.1/drillable/nope/reviews", 404, "not_found"],
      [ana, "GET", "/api/2.1/playable/nope/appreciation", 404, "not_found"],
      [ana, "GET", "/api/2.1/rendition/nope/preferences", 404, "not_found"],
      [bob, "GET", "/api/2.1/drillable/de-business/reviews", 403, "no_permission"],
      [bob, "GET", "/api/2.1/drillable/de-business/review", 403, "no_permission"],
      [bob, "GET", "/api/2.1/playable/de-business/appreciation", 403, "no_permission"],
      [bob, "GET", "/api/2.1/rendition/de-business/preferences", 403, "no_permission"],
    ]);
  });
});

interface Chart {
  users: { type: string; id: string }[];
  singular: boolean;
  incomplete: boolean;
  average: number[][];
  extremes: number[][];
  individuals: number[][][];
}

describe("proficiency chart (the 2.1.1 page GET drillable/…/proficiency-chart, the revision of 2.1)", () => {
  it("charts the acting user's proficiency after each answer, and every practising user's on AVERAGE", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const bob = await clientAs(sandbox, "u-bob");
    await practise(ana, "es-colours", true);
    await practise(ana, "es-colours", true);
    await practise(bob, "es-colours", false);
    const rendition = (await ana("GET", "/api/2.1/rendition/es-colours")).body as {
      proficiency: { receptive: number; overall: number };
    };

    const self = fromState(
      await ana("GET", "/api/2.1/drillable/es-colours/proficiency-chart?type=NORMALIZED&series=SELF"),
    ) as Chart;
    expect(self.users).toEqual([{ type: "USER", id: "u-ana" }]);
    expect(self.singular).toBe(true);
    expect(self.incomplete).toBe(false);
    const [mine] = self.individuals;
    expect(mine?.map(([x]) => x)).toEqual([0, 1, 2]);
    expect(mine?.[0]).toEqual([0, 0]);
    // Rising after two right answers, and ending at the proficiency the practice status shows.
    expect(mine?.[2]?.[1]).toBeGreaterThan(mine?.[1]?.[1] ?? Number.POSITIVE_INFINITY);
    expect(mine?.[2]).toEqual([2, rendition.proficiency.overall]);
    expect(self.average).toEqual(mine);

    const receptive = (
      await ana(
        "GET",
        "/api/2.1.1/drillable/es-colours/proficiency-chart?type=STANDARD&series=SELF&mode=RECEPTIVE",
      )
    ).body as Chart;
    expect(receptive.individuals[0]?.at(-1)).toEqual([2, rendition.proficiency.receptive]);

    const all = fromState(
      await ana("GET", "/api/2.1/drillable/es-colours/proficiency-chart?type=NORMALIZED&series=AVERAGE"),
    ) as Chart;
    expect(all.users.map((u) => u.id)).toEqual(["u-ana", "u-bob"]);
    expect(all.singular).toBe(false);
    // Bob answered once, Ana twice: his series is the shorter one.
    expect(all.incomplete).toBe(true);
    expect(all.individuals.map((s) => s.length)).toEqual([3, 2]);
    const [anaSeries = [], bobSeries = []] = all.individuals;
    const [anaAfterOne, bobAfterOne] = [anaSeries[1]?.[1] ?? 0, bobSeries[1]?.[1] ?? 0];
    expect(all.extremes[1]).toEqual([
      1,
      Math.min(anaAfterOne, bobAfterOne),
      Math.max(anaAfterOne, bobAfterOne),
    ]);
    expect(all.average[1]).toEqual([1, Math.round((anaAfterOne + bobAfterOne) / 2)]);

    const chart = "/api/2.1/drillable/es-colours/proficiency-chart";
    await expectRefusals([
      [ana, "GET", `${chart}?type=NORMALIZED&series=SELF&mode=SIDEWAYS`, 400, "invalid_mode"],
      [ana, "GET", `${chart}?type=STANDARD&series=AVERAGE`, 400, "invalid_series"],
      [ana, "GET", "/api/2.1/drillable/nope/proficiency-chart?type=NORMALIZED&series=SELF", 404, "not_found"],
      [
        bob,
        "GET",
        "/api/2.1/drillable/de-business/proficiency-chart?type=NORMALIZED&series=SELF",
        403,
        "no_permission",
      ],
    ]);
  });

  it("charts a course as the average of its drills", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    await practise(ana, "es-colours", true);
    await practise(ana, "es-animals", true);
    const chart = (
      await ana("GET", "/api/2.1/drillable/course-spanish/proficiency-chart?type=NORMALIZED&series=SELF")
    ).body as Chart;
    const rendition = (await ana("GET", "/api/2.1/rendition/course-spanish")).body as {
      proficiency: { overall: number };
    };
    expect(chart.individuals[0]?.map(([x]) => x)).toEqual([0, 1, 2]);
    expect(chart.individuals[0]?.at(-1)).toEqual([2, rendition.proficiency.overall]);
  });
});

describe("practice status (the 2.0 and 2.1.1 Practice object pages)", () => {
  it("carries timeSpent, expectedDuration to 100 %, lastPracticed and added; no highestProficiency for courses", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const items = SMALL_DATA.drills.find((d) => d.id === "es-animals")?.items.length ?? 0;

    const untouched = (await ana("GET", "/api/2.1/rendition/es-animals")).body;
    expect(untouched).toMatchObject({ timeSpent: 0, expectedDuration: items * SECONDS_PER_ITEM });
    // Not in the repertoire yet: a trial rendition has no `added`.
    expect(untouched).not.toHaveProperty("added");

    expect((await ana("PUT", "/api/2.1/repertoire/es-animals")).status).toBe(200);
    await practise(ana, "es-animals", true);
    const drill = (await ana("GET", "/api/2.1/rendition/es-animals")).body as {
      proficiency: { overall: number };
      expectedDuration: number;
      added?: string;
      lastPracticed?: string;
    };
    expect(drill).toMatchObject({
      timeSpent: SECONDS_PER_ANSWER,
      highestProficiency: drill.proficiency,
      lastPracticed: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      added: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The time still needed to reach 100 % shrinks as the proficiency grows.
    expect(drill.proficiency.overall).toBeGreaterThan(0);
    expect(drill.expectedDuration).toBe(
      Math.round((items * SECONDS_PER_ITEM * (100 - drill.proficiency.overall)) / 100),
    );

    // A drillable's `practice` in a result list is the same Practice object (the 2.0 Drillable page).
    const found = (await ana("GET", "/api/2.1/store?query=spanish")).body as {
      drills: { id: string; practice?: Record<string, unknown> }[];
    };
    const entry = (id: string) => found.drills.find((d) => d.id === id)?.practice;
    expect(entry("es-animals")).toMatchObject({ expectedDuration: drill.expectedDuration });
    expect(entry("course-spanish")).toBeDefined();
    expect(entry("course-spanish")).not.toHaveProperty("highestProficiency");

    const course = (await ana("GET", "/api/2.1/rendition/course-spanish")).body;
    expect(course).toMatchObject({ timeSpent: SECONDS_PER_ANSWER, lastPracticed: drill.lastPracticed });
    expect(course).not.toHaveProperty("highestProficiency");
    expect(course).not.toHaveProperty("added");
    // The Practice page's `autoAdvancement`: the sandbox answers the user's stored preference.
    await ana("PUT", "/api/2.1/rendition/es-animals/preferences", { body: { autoAdvancement: "true" } });
    expect((await ana("GET", "/api/2.1/rendition/es-animals")).body).toMatchObject({ autoAdvancement: true });
    expect((await ana("DELETE", "/api/2.1/repertoire/es-animals")).status).toBe(200);
    expect((await ana("GET", "/api/2.1/rendition/es-animals")).body).not.toHaveProperty("added");
  });
});

describe("objective reads (the 2.1.1 objectives page's entry; the 2.0 group objectives page's Objective)", () => {
  it("reads one of the acting user's objectives in 2.1 and lists theirs in 2.0", async () => {
    const { sandbox, sa, ana, group } = await startWithAnasGroup();
    await sa("PUT", `/api/2.1/group/${group.id}/drills/es-colours`);
    const objective = await created(sa, `/api/2.1/group/${group.id}/objectives`, {
      drills: "es-colours",
      reviewDate: "2030-01-31T00:00:00Z",
      minimumProficiency: "90",
    });
    expect(fromState(await ana("GET", `/api/2.1/objective/${objective}`))).toMatchObject({
      id: objective,
      type: "ONEOFF",
      minimumProficiency: 90,
      evaluation: { met: false, proficiency: 0 },
      playables: [{ type: "DRILL", id: "es-colours" }],
    });
    await practise(ana, "es-colours", true);
    const after = (await ana("GET", `/api/2.1/objective/${objective}`)).body as {
      evaluation: { proficiency: number };
    };
    expect(after.evaluation.proficiency).toBeGreaterThan(0);

    expect(fromState(await ana("GET", "/api/2/objectives"))).toEqual([
      {
        id: objective,
        type: "ONEOFF",
        reviewDate: "2030-01-31T00:00:00.000Z",
        minimumProficiency: 90,
        drills: [{ id: "es-colours", name: "Spanish colours" }],
      },
    ]);
    const bob = await clientAs(sandbox, "u-bob");
    expect(fromState(await bob("GET", "/api/2/objectives"))).toEqual([]);
    await expectRefusals([
      [ana, "GET", "/api/2.1/objective/no-such-objective", 404, "not_found"],
      [bob, "GET", `/api/2.1/objective/${objective}`, 403, "no_permission"],
    ]);
  });
});
