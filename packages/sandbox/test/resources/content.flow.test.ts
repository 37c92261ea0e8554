import { describe, expect, it } from "vitest";
import { contentFlow } from "../support/content-flow.js";
import { client, start, tokenFor } from "../support/helpers.js";

type Api = ReturnType<typeof client>;

async function actors() {
  const sandbox = await start();
  return {
    sandbox,
    ana: client(sandbox, await tokenFor(sandbox, "u-ana")),
    bob: client(sandbox, await tokenFor(sandbox, "u-bob")),
  };
}

async function newDrill(api: Api, name = "Office verbs", subject = "German"): Promise<string> {
  const res = await api("POST", "/api/2.1/drills", { body: { name, subject, description: "d" } });
  expect(res.status).toBe(200);
  return (res.body as { id: string }).id;
}

async function newCourse(api: Api): Promise<string> {
  const res = await api("POST", "/api/2.1/courses", { body: { name: "German at work", description: "d" } });
  expect(res.status).toBe(200);
  return (res.body as { id: string }).id;
}

function expectError(res: { status: number; body: unknown }, status: number, id: string): void {
  expect({ status: res.status, id: (res.body as { ID?: string }).ID }).toEqual({ status, id });
}

describe("drills and courses (flow 2 of the issue)", () => {
  it("creates a drill and a course, fills and publishes the course, reviews it and reads its reception", async () => {
    await contentFlow(await start());
  });
});

describe("drills", () => {
  it("creates with a sequence number on a taken name, updates in both versions, and keeps the drill private", async () => {
    const { ana, bob } = await actors();
    const first = await newDrill(ana);
    const second = await ana("POST", "/api/2/drills", {
      body: { name: "Office verbs", subject: "German", description: "again", tags: "work" },
    });
    expect(second.body).toMatchObject({ type: "DRILL", name: "Office verbs (2)", description: "again" });

    const updated = await ana("PUT", `/api/2.1/drill/${first}`, { body: { name: "Verbs at the office" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: first, name: "Verbs at the office", subject: "German" });
    const updated20 = await ana("PUT", `/api/2/drill/${first}`, { body: { description: "Work verbs" } });
    expect(updated20.body).toMatchObject({
      id: first,
      name: "Verbs at the office",
      description: "Work verbs",
    });

    // Private: Ana reads it as a playable, Bob may not, and the public store does not list it.
    expect((await ana("GET", `/api/2.1/playable/${first}`)).body).toMatchObject({
      name: "Verbs at the office",
    });
    expectError(await bob("GET", `/api/2.1/playable/${first}`), 403, "no_playable_access");
    const store = await bob("GET", "/api/2.1/store?query=office");
    expect((store.body as { drills: { id: string }[] }).drills.map((d) => d.id)).not.toContain(first);
  });

  it("answers the create and update pages' errors", async () => {
    const { ana, bob } = await actors();
    expectError(
      await ana("POST", "/api/2.1/drills", { body: { name: "A", description: "d" } }),
      400,
      "subject_missing",
    );
    expectError(
      await ana("POST", "/api/2.1/drills", { body: { name: " ", subject: "S", description: "d" } }),
      400,
      "name_missing",
    );
    expectError(
      await ana("POST", "/api/2/drills", { body: { name: "Verbs", subject: "verbs", description: "d" } }),
      400,
      "subject_equal_to_name",
    );
    expectError(
      await ana("POST", "/api/2.1/drills", {
        body: { name: "A", subject: "S", description: "d", tags: ["ok", " "] },
      }),
      400,
      "invalid_tag",
    );
    const drill = await newDrill(ana);
    expectError(
      await bob("PUT", `/api/2.1/drill/${drill}`, { body: { name: "Mine" } }),
      403,
      "no_permission",
    );
    expectError(await ana("PUT", "/api/2.1/drill/nope", { body: { name: "X" } }), 400, "invalid_drill_id");
    expectError(
      await ana("PUT", "/api/2/drill/course-spanish", { body: { name: "X" } }),
      400,
      "invalid_drill_id",
    );
    // A drill of the data file has no author: nobody may change it.
    expectError(await ana("PUT", "/api/2.1/drill/es-animals", { body: { name: "X" } }), 403, "no_permission");
    expectError(await ana("PUT", `/api/2/drill/${drill}`), 400, "missing_parameters");
    expectError(await ana("PUT", `/api/2/drill/${drill}`, { body: { name: "" } }), 400, "invalid_name");
  });

  it("merges the author's drills into the target and refuses foreign or unknown ones", async () => {
    const { sandbox, ana, bob } = await actors();
    const target = await newDrill(ana, "Target", "German");
    const source = await newDrill(ana, "Source", "German");
    // Drills created through the API are empty (uploads are not simulated), so the target keeps none.
    const merged = await ana("POST", `/api/2.1/drill/${target}/merge`, { body: { source: [source] } });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: target, type: "DRILL", name: "Target" });
    expectError(
      await ana("POST", `/api/2.1/drill/${target}/merge`, { body: { source: ["es-animals"] } }),
      400,
      "invalid_drill",
    );
    expectError(
      await ana("POST", `/api/2.1/drill/${target}/merge`, { body: { source: [target] } }),
      400,
      "invalid_drill",
    );
    expectError(
      await bob("POST", `/api/2.1/drill/${target}/merge`, { body: { source: [source] } }),
      400,
      "invalid_target",
    );
    expectError(
      await ana("POST", "/api/2.1/drill/nope/merge", { body: { source: [source] } }),
      400,
      "invalid_target",
    );
    expect(sandbox.responseViolations).toEqual([]);
  });
});

describe("courses", () => {
  it("creates in both versions, renames, and answers the course pages' errors", async () => {
    const { ana, bob } = await actors();
    const course20 = await ana("POST", "/api/2/courses", { body: { name: "C", description: "d" } });
    expect(course20.body).toEqual({ id: expect.stringMatching(/^course-/), type: "COURSE" });
    expectError(
      await ana("POST", "/api/2.1/courses", { body: { name: "C", description: "  " } }),
      400,
      "description_missing",
    );
    const course = await newCourse(ana);
    const renamed = await ana("PUT", `/api/2.1/course/${course}`, { body: { name: "Deutsch im Büro" } });
    expect(renamed.body).toMatchObject({ id: course, name: "Deutsch im Büro", description: "d" });
    expectError(await ana("PUT", "/api/2.1/course/nope", { body: { name: "X" } }), 404, "not_found");
    expectError(await bob("PUT", `/api/2.1/course/${course}`, { body: { name: "X" } }), 403, "not_permitted");
    expectError(
      await ana("PUT", `/api/2.1/course/${course}`, { body: { iconKey: "k" } }),
      400,
      "invalid_icon_key",
    );
  });

  it("adds drills the user may use, once each, of one subject", async () => {
    const { ana, bob } = await actors();
    const course = await newCourse(ana);
    expect((await ana("PUT", `/api/2.1/course/${course}/de-business`)).status).toBe(200);
    expectError(await ana("PUT", `/api/2.1/course/${course}/de-business`), 400, "drill_already_in_course");
    expectError(await ana("PUT", `/api/2.1/course/${course}/es-animals`), 400, "subject_mismatch");
    expectError(await ana("PUT", `/api/2.1/course/nope/es-animals`), 404, "course_unknown");
    expectError(await ana("PUT", `/api/2.1/course/${course}/nope`), 404, "drill_unknown");
    expectError(await ana("PUT", `/api/2.1/course/${course}/course-spanish`), 404, "drill_unknown");
    expectError(await bob("PUT", `/api/2.1/course/${course}/es-animals`), 403, "no_access");
    const bobsCourse = await newCourse(bob);
    // de-business is in a catalog Bob cannot use.
    expectError(await bob("PUT", `/api/2.1/course/${bobsCourse}/de-business`), 403, "no_access");
  });
});

describe("practice of created content", () => {
  it("lets the author practise a course of their own, and nobody else before it is published", async () => {
    const { ana, bob } = await actors();
    const course = await newCourse(ana);
    expect((await ana("PUT", `/api/2.1/course/${course}/es-animals`)).status).toBe(200);
    const question = await ana("GET", `/api/2.1/question/${course}`);
    expect(question.status).toBe(200);
    expect(question.body).toMatchObject({ question: { ask: { name: "Spanish" } } });
    const refused = await bob("GET", `/api/2.1/question/${course}`);
    expect((refused.body as { ID: string }).ID).toBe("drillable_access_denied");
    // A created drill is empty until merged: the author reaches it, and hears it has no items.
    const drill = await newDrill(ana);
    expectError(await ana("GET", `/api/2.1/question/${drill}`), 409, "drill_empty");
  });
});

describe("deleting and publishing", () => {
  it("deletes the author's drill or course, refusing while it is part of a course or group", async () => {
    const { ana, bob } = await actors();
    const drill = await newDrill(ana);
    const course = await newCourse(ana);
    expect((await ana("PUT", `/api/2.1/course/${course}/${drill}`)).status).toBe(200);
    expectError(await ana("DELETE", `/api/2.1/drillable/${drill}`), 400, "part_of_course");
    expectError(await bob("DELETE", `/api/2.1/drillable/${course}`), 403, "no_permission");
    expectError(await ana("DELETE", "/api/2.1/drillable/nope"), 404, "unknown_drillable_id");
    const deleted = await ana("DELETE", `/api/2.1/drillable/${course}`);
    expect(deleted.status).toBe(204);
    expectError(await ana("GET", `/api/2.1/playable/${course}`), 404, "not_found");
    expect((await ana("DELETE", `/api/2.1/drillable/${drill}`)).status).toBe(204);
  });

  it("refuses deleting a drill that is part of a group", async () => {
    const sandbox = await start();
    const sa = client(sandbox, await tokenFor(sandbox));
    const drill = await newDrill(sa);
    const group = await sa("POST", "/api/2.1/groups", { body: { name: "G", description: "d" } });
    const groupId = (group.body as { id: string }).id;
    expect((await sa("PUT", `/api/2.1/group/${groupId}/drills/${drill}`)).status).toBe(200);
    expectError(await sa("DELETE", `/api/2.1/drillable/${drill}`), 400, "part_of_group");
  });

  it("answers the publish page's errors", async () => {
    const { ana, bob } = await actors();
    const drill = await newDrill(ana);
    expectError(
      await ana("PUT", "/api/2.1/playable/nope/publish", { body: { catalog: "cat-business" } }),
      404,
      "unknown_drillable",
    );
    expectError(
      await bob("PUT", `/api/2.1/playable/${drill}/publish`, { body: { catalog: "cat-business" } }),
      403,
      "not_permitted",
    );
    // Ana may use the catalog, but es-animals is nobody's to publish.
    expectError(
      await ana("PUT", "/api/2.1/playable/es-animals/publish", { body: { catalog: "cat-business" } }),
      403,
      "not_permitted",
    );
    expectError(
      await ana("PUT", `/api/2.1/playable/${drill}/publish`, { body: { catalog: "nope" } }),
      400,
      "catalog_not_found",
    );
    expectError(
      await ana("PUT", `/api/2.1/playable/${drill}/publish`, {
        body: { catalog: "cat-business", position: "3" },
      }),
      400,
      "invalid_position",
    );
    expect(
      (
        await ana("PUT", `/api/2.1/playable/${drill}/publish`, {
          body: { catalog: "cat-business", position: "2" },
        })
      ).status,
    ).toBe(204);
    expectError(
      await ana("PUT", `/api/2.1/playable/${drill}/publish`, { body: { catalog: "cat-business" } }),
      400,
      "playable_part_of_catalog",
    );
    const bobsDrill = await newDrill(bob);
    expectError(
      await bob("PUT", `/api/2.1/playable/${bobsDrill}/publish`, { body: { catalog: "cat-business" } }),
      403,
      "not_permitted",
    );
  });
});

describe("reviews, appreciations, reception and preferences", () => {
  it("answers the review, appreciation and reception pages' errors", async () => {
    const { ana, bob } = await actors();
    expectError(
      await ana("PUT", "/api/2.1/drillable/es-animals/review", { body: { content: "Nice" } }),
      403,
      "not_in_repertoire",
    );
    expectError(
      await ana("PUT", "/api/2.1/drillable/es-animals/review", { body: { content: " " } }),
      400,
      "missing_message",
    );
    expectError(
      await ana("PUT", "/api/2.1/drillable/nope/review", { body: { content: "Nice" } }),
      404,
      "not_found",
    );
    expectError(await ana("PUT", "/api/2.1/playable/es-animals/appreciation/6"), 400, "invalid_appreciation");
    expectError(await ana("PUT", "/api/2.1/playable/nope/appreciation/3"), 404, "playable_not_found");
    expectError(await bob("PUT", "/api/2.1/playable/de-business/appreciation/3"), 403, "no_access");
    expectError(await bob("GET", "/api/2.1/drillable/de-business/reception"), 403, "no_access");
    expectError(await bob("GET", "/api/2.1/drillable/nope/reception"), 404, "not_found");
  });

  it("rates by every user's appreciation, each user's replacing their earlier one", async () => {
    const { ana, bob } = await actors();
    expect((await ana("GET", "/api/2.1/drillable/es-animals/reception")).body).toEqual({ popularity: 0 });
    expect((await ana("PUT", "/api/2.1/playable/es-animals/appreciation/5")).body).toEqual({
      points: 5,
      score: 100,
    });
    expect((await bob("PUT", "/api/2.1/playable/es-animals/appreciation/2")).body).toEqual({
      points: 4,
      score: 70,
    });
    expect((await bob("PUT", "/api/2.1/playable/es-animals/appreciation/3")).body).toEqual({
      points: 4,
      score: 80,
    });
    expect((await bob("PUT", "/api/2.1/repertoire/es-animals")).status).toBe(200);
    expect((await ana("GET", "/api/2.1/drillable/es-animals/reception")).body).toEqual({
      popularity: 1,
      appreciation: { points: 4, score: 80 },
    });
  });

  it("stores practice preferences per user, keeping fields left out", async () => {
    const { ana, bob } = await actors();
    const first = await ana("PUT", "/api/2.1/rendition/es-animals/preferences", {
      body: { direction: "PRODUCTIVE", unknownColumns: ["notes", "audio"] },
    });
    expect(first.body).toEqual({ direction: "PRODUCTIVE", unknownColumns: ["notes", "audio"] });
    const second = await ana("PUT", "/api/2.1/rendition/es-animals/preferences", {
      body: { style: "OPEN_ENDED", autoAdvancement: "false" },
    });
    expect(second.body).toEqual({
      direction: "PRODUCTIVE",
      unknownColumns: ["notes", "audio"],
      style: "OPEN_ENDED",
      autoAdvancement: false,
    });
    expect((await bob("PUT", "/api/2.1/rendition/es-animals/preferences")).body).toEqual({});
    expectError(await bob("PUT", "/api/2.1/rendition/de-business/preferences"), 403, "no_permission");
    expectError(await bob("PUT", "/api/2.1/rendition/nope/preferences"), 404, "not_found");
  });
});
