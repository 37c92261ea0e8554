/**
 * 2.1.1 group tests and group objectives over the state 2.1 and 2.0 read, following the 2.1.1 pages:
 * POST group/…/tests, PUT group/…/test/… (a member's review date of a `PER_USER` test), POST
 * group/…/objectives (a review date may be left out), PUT group/…/objective/… (a member's review date),
 * and the current evaluations the GET objective events page points to.
 */
import { describe, expect, it } from "vitest";
import { client, expectRefusals, startWithAnasGroup, tokenFor } from "../support/helpers.js";

const FUTURE = "2099-01-01T00:00:00Z";
const PAST = "2001-01-01T00:00:00Z";

describe("2.1.1 group tests (the POST group tests and PUT group test pages)", () => {
  it("defines a group test from `drill`, and sets one member's date of a PER_USER test, which she reads in 2.1", async () => {
    const { sandbox, sa, ana, group } = await startWithAnasGroup();
    const tests = `/api/2.1.1/group/${group.id}/tests`;

    // The page's introduction names `drill`; without a name the test is called after its drill.
    const undated = await sa("POST", tests, { body: { drill: ["es-animals"] } });
    expect(undated.status, JSON.stringify(undated.body)).toBe(200);
    expect(undated.body).toMatchObject({ title: "Spanish animals", group: group.id, testType: "GROUP" });
    const listed = await sa("GET", `/api/2.1/group/${group.id}/tests`);
    expect(listed.body).toMatchObject({ total: 1 });

    // The description types 2.1.1's `reviewDate` as a date-time; a date per member (`PER_USER`, the
    // value the 2.0 PUT test link page names) is set up through the 2.1 form, over the same state.
    const defined = await sa("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "Colours", reviewDate: "PER_USER" },
    });
    expect(defined.status, JSON.stringify(defined.body)).toBe(200);
    const test = defined.body as { id: string };

    // Ana, a member, may take it; before her date is set the test shows none.
    const before = await ana("GET", `/api/2.1/test/${test.id}`);
    expect(before.status).toBe(200);
    expect((before.body as { reviewDate?: string }).reviewDate).toBeUndefined();

    const set = await sa("PUT", `/api/2.1.1/group/${group.id}/test/${test.id}`, {
      body: { user: "u-ana", reviewDate: FUTURE },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({});
    const after = await ana("GET", `/api/2.1/test/${test.id}`);
    expect(after.body).toMatchObject({ reviewDate: FUTURE });

    // The errors of the PUT group test page (no statuses on the page: 404 unknown, 400 otherwise).
    const dated = await sa("POST", tests, { body: { drill: ["es-colours"], reviewDate: FUTURE } });
    const own = await sa("POST", "/api/2.1.1/tests", { body: { drills: ["es-colours"], name: "Mine" } });
    const put = (id: string) => `/api/2.1.1/group/${group.id}/test/${id}`;
    const bodyOf = (answer: { body: unknown }) => (answer.body as { id: string }).id;
    const form = { user: "u-ana", reviewDate: FUTURE };
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    await expectRefusals([
      [sa, "POST", tests, 400, "drill_missing", { body: { reviewDate: FUTURE } }],
      [
        sa,
        "POST",
        "/api/2.1.1/group/no-such-group/tests",
        404,
        "not_found",
        { body: { drill: ["es-colours"] } },
      ],
      [bob, "POST", tests, 403, "no_permission", { body: { drill: ["es-colours"] } }],
      [sa, "PUT", put("no-such-test"), 404, "unknown_test", { body: form }],
      [sa, "PUT", put(bodyOf(own)), 400, "not_group_test", { body: form }],
      [sa, "PUT", put(bodyOf(undated)), 400, "no_objective", { body: form }],
      [sa, "PUT", put(bodyOf(dated)), 400, "invalid_objective", { body: form }],
      [sa, "PUT", put(test.id), 400, "user_id_missing", { body: { reviewDate: FUTURE } }],
      [sa, "PUT", put(test.id), 400, "review_date_missing", { body: { user: "u-ana" } }],
      [sa, "PUT", put(test.id), 400, "invalid_review_date", { body: { user: "u-ana", reviewDate: PAST } }],
      [
        sa,
        "PUT",
        put(test.id),
        400,
        "user_not_group_member",
        { body: { user: "u-bob", reviewDate: FUTURE } },
      ],
    ]);
  });
});

describe("2.1.1 test accesses (the DELETE test accesses page)", () => {
  it("unlinks a group test with 204, which the 2.1 group tests list then leaves out", async () => {
    const { sandbox, sa, group } = await startWithAnasGroup();
    const defined = await sa("POST", `/api/2.1.1/group/${group.id}/tests`, {
      body: { drill: ["es-colours"] },
    });
    const test = (defined.body as { id: string }).id;
    const link = `/api/2.1.1/test/${test}/accesses/GROUP/${group.id}`;
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    // No error table on the page: the sandbox's choices.
    await expectRefusals([[bob, "DELETE", link, 403, "no_permission"]]);

    const unlinked = await sa("DELETE", link);
    expect(unlinked.status).toBe(204);
    expect(unlinked.body).toBeUndefined();
    expect((await sa("GET", `/api/2.1/group/${group.id}/tests`)).body).toMatchObject({ total: 0, tests: [] });

    await expectRefusals([
      [sa, "DELETE", link, 404, "not_found"],
      [sa, "DELETE", `/api/2.1.1/test/${test}/accesses/ORGANIZATION/org-1`, 404, "not_found"],
    ]);
  });
});

describe("2.1.1 group objectives (the POST group objectives and PUT group objective pages)", () => {
  it("defines an objective without a review date, sets a member's date, and lists its evaluations", async () => {
    const { sa, ana, group } = await startWithAnasGroup();
    const objectives = `/api/2.1.1/group/${group.id}/objectives`;
    const fields = { drills: ["es-colours"], minimumProficiency: "80" };

    // 2.1 needs a review date; 2.1.1's page lets it be left out for a date per member.
    const v21 = await sa("POST", `/api/2.1/group/${group.id}/objectives`, { body: fields });
    expect(v21.status).toBe(400);
    const defined = await sa("POST", objectives, { body: { ...fields, reviewDuration: "P7D" } });
    expect(defined.status, JSON.stringify(defined.body)).toBe(200);
    const objective = (defined.body as { id: string }).id;
    expect((defined.body as { reviewDate?: string }).reviewDate).toBeUndefined();

    const set = await sa("PUT", `/api/2.1.1/group/${group.id}/objective/${objective}`, {
      body: { user: "u-ana", reviewDate: FUTURE },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ id: objective });
    // Ana's own list (2.1) shows her date.
    const listed = await ana("GET", "/api/2.1/objectives?includeCompleted=true");
    expect(listed.body).toMatchObject({
      objectives: [{ id: objective, reviewDate: "2099-01-01T00:00:00.000Z" }],
    });
    // The 2.0 group objectives list reads the same objective, without a date for all.
    const v20 = await sa("GET", `/api/2/group/${group.id}/objectives`);
    expect(v20.body).toEqual([expect.objectContaining({ id: objective, minimumProficiency: 80 })]);
    expect((v20.body as { reviewDate?: string }[])[0]?.reviewDate).toBeUndefined();

    const evaluations = await sa("GET", `/api/2.1.1/group/${group.id}/objective/${objective}/evaluations`);
    expect(evaluations.status).toBe(200);
    expect(evaluations.body).toMatchObject({
      objective: { id: objective },
      evaluations: [{ user: { id: "u-ana" }, met: false, proficiency: 0 }],
    });

    // PUT objective/… (the 2.1.1 PUT objective page) changes it by its ID; 2.0 reads the change.
    const updated = await sa("PUT", `/api/2.1.1/objective/${objective}`, {
      body: { type: "PERMANENT", minimumProficiency: "90" },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const v20After = await sa("GET", `/api/2/group/${group.id}/objectives`);
    expect(v20After.body).toEqual([
      expect.objectContaining({ id: objective, type: "PERMANENT", minimumProficiency: 90 }),
    ]);
    const change = `/api/2.1.1/objective/${objective}`;
    await expectRefusals([
      [sa, "PUT", change, 400, "invalid_type", { body: { type: "TEST" } }],
      // The required `type` left out: the page's errors are cut, so the pipeline's own identifier.
      [sa, "PUT", change, 400, "invalid_request", { body: { name: "Colours" } }],
      [sa, "PUT", "/api/2.1.1/objective/no-such-objective", 404, "not_found", { body: { type: "ONEOFF" } }],
      [ana, "PUT", change, 403, "no_permission", { body: { type: "ONEOFF" } }],
    ]);

    // The errors of the PUT group objective page (no statuses on the page: the sandbox's rule).
    const dated = await sa("POST", objectives, { body: { ...fields, reviewDate: FUTURE } });
    const put = (g: string, o: string) => `/api/2.1.1/group/${g}/objective/${o}`;
    const form = { user: "u-ana", reviewDate: FUTURE };
    const datedId = (dated.body as { id: string }).id;
    const review = put(group.id, objective);
    await expectRefusals([
      [sa, "POST", objectives, 400, "drills_missing", { body: { minimumProficiency: "80" } }],
      [sa, "PUT", put("no-such-group", objective), 404, "group_not_found", { body: form }],
      [ana, "PUT", review, 403, "no_group_access", { body: form }],
      [sa, "PUT", put(group.id, "no-such-objective"), 404, "unknown_objective", { body: form }],
      [sa, "PUT", put(group.id, datedId), 400, "invalid_objective", { body: form }],
      [sa, "PUT", review, 400, "user_id_missing", { body: { reviewDate: FUTURE } }],
      [sa, "PUT", review, 400, "review_date_missing", { body: { user: "u-ana" } }],
      [sa, "PUT", review, 400, "invalid_review_date", { body: { user: "u-ana", reviewDate: PAST } }],
      [sa, "PUT", review, 400, "user_not_group_member", { body: { user: "u-bob", reviewDate: FUTURE } }],
      [sa, "GET", `/api/2.1.1/group/${group.id}/objective/no-such-objective/evaluations`, 404, "not_found"],
    ]);
  });
});

describe("2.1.1 member results (the GET group member results page)", () => {
  it("pages one member's drills and courses by resultFrom, searched by name", async () => {
    const { sandbox, sa, ana, group } = await startWithAnasGroup();
    await sa("PUT", `/api/2.1/group/${group.id}/drills/es-colours`);
    await sa("PUT", `/api/2.1/group/${group.id}/drills/es-animals`);
    const results = `/api/2.1.1/group/${group.id}/member-results/u-ana`;

    const first = await sa("GET", `${results}?resultSize=1`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      group: { id: group.id },
      member: { id: "u-ana" },
      pagination: { total: 2, lastOnPage: "es-colours", moreAvailable: true },
      groupDrillableMemberResults: [{ drillable: { id: "es-colours" }, proficiency: 0 }],
    });
    const second = await sa("GET", `${results}?resultSize=1&resultFrom=es-colours`);
    expect(second.body).toMatchObject({
      pagination: { total: 2, lastOnPage: "es-animals", moreAvailable: false },
      groupDrillableMemberResults: [{ drillable: { id: "es-animals" } }],
    });
    const searched = await ana("GET", `${results}?query=ANIMALS`);
    expect(searched.status).toBe(200);
    expect(searched.body).toMatchObject({
      groupDrillableMemberResults: [{ drillable: { id: "es-animals" } }],
    });

    // No error table is visible on the page: the sandbox's choices.
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    await expectRefusals([
      [bob, "GET", results, 403, "no_permission"],
      [sa, "GET", `/api/2.1.1/group/${group.id}/member-results/u-bob`, 404, "not_found"],
      [sa, "GET", `${results}?resultFrom=nothing`, 400, "invalid_result_from"],
    ]);
  });
});
