import { describe, expect, it } from "vitest";
import { contentFlow } from "../support/content-flow.js";
import { client, expectRefusals, expectRefused, start, tokenFor } from "../support/helpers.js";

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
    expectRefused(await bob("GET", `/api/2.1/playable/${first}`), 403, "no_playable_access");
    const store = await bob("GET", "/api/2.1/store?query=office");
    expect((store.body as { drills: { id: string }[] }).drills.map((d) => d.id)).not.toContain(first);
  });

  it("answers the create and update pages' errors", async () => {
    const { ana, bob } = await actors();
    await expectRefusals([
      [ana, "POST", "/api/2.1/drills", 400, "subject_missing", { body: { name: "A", description: "d" } }],
      [
        ana,
        "POST",
        "/api/2.1/drills",
        400,
        "name_missing",
        { body: { name: " ", subject: "S", description: "d" } },
      ],
      [
        ana,
        "POST",
        "/api/2/drills",
        400,
        "subject_equal_to_name",
        { body: { name: "Verbs", subject: "verbs", description: "d" } },
      ],
      [
        ana,
        "POST",
        "/api/2.1/drills",
        400,
        "invalid_tag",
        { body: { name: "A", subject: "S", description: "d", tags: ["ok", " "] } },
      ],
    ]);
    const drill = await newDrill(ana);
    await expectRefusals([
      [bob, "PUT", `/api/2.1/drill/${drill}`, 403, "no_permission", { body: { name: "Mine" } }],
      [ana, "PUT", "/api/2.1/drill/nope", 400, "invalid_drill_id", { body: { name: "X" } }],
      [ana, "PUT", "/api/2/drill/course-spanish", 400, "invalid_drill_id", { body: { name: "X" } }],
      // A drill of the data file has no author: nobody may change it.
      [ana, "PUT", "/api/2.1/drill/es-animals", 403, "no_permission", { body: { name: "X" } }],
      [ana, "PUT", `/api/2/drill/${drill}`, 400, "missing_parameters"],
      [ana, "PUT", `/api/2/drill/${drill}`, 400, "invalid_name", { body: { name: "" } }],
    ]);
  });

  it("merges the author's drills into the target and refuses foreign or unknown ones", async () => {
    const { sandbox, ana, bob } = await actors();
    const target = await newDrill(ana, "Target", "German");
    const source = await newDrill(ana, "Source", "German");
    // Drills created through the API are empty (uploads are not simulated), so the target keeps none.
    const merged = await ana("POST", `/api/2.1/drill/${target}/merge`, { body: { source: [source] } });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: target, type: "DRILL", name: "Target" });
    await expectRefusals([
      [
        ana,
        "POST",
        `/api/2.1/drill/${target}/merge`,
        400,
        "invalid_drill",
        { body: { source: ["es-animals"] } },
      ],
      [ana, "POST", `/api/2.1/drill/${target}/merge`, 400, "invalid_drill", { body: { source: [target] } }],
      [bob, "POST", `/api/2.1/drill/${target}/merge`, 400, "invalid_target", { body: { source: [source] } }],
      [ana, "POST", "/api/2.1/drill/nope/merge", 400, "invalid_target", { body: { source: [source] } }],
    ]);
    expect(sandbox.responseViolations).toEqual([]);
  });
});

describe("courses", () => {
  it("creates in both versions, renames, and answers the course pages' errors", async () => {
    const { ana, bob } = await actors();
    const course20 = await ana("POST", "/api/2/courses", { body: { name: "C", description: "d" } });
    expect(course20.body).toEqual({ id: expect.stringMatching(/^course-/), type: "COURSE" });
    expectRefused(
      await ana("POST", "/api/2.1/courses", { body: { name: "C", description: "  " } }),
      400,
      "description_missing",
    );
    const course = await newCourse(ana);
    const renamed = await ana("PUT", `/api/2.1/course/${course}`, { body: { name: "Deutsch im Büro" } });
    expect(renamed.body).toMatchObject({ id: course, name: "Deutsch im Büro", description: "d" });
    await expectRefusals([
      [ana, "PUT", "/api/2.1/course/nope", 404, "not_found", { body: { name: "X" } }],
      [bob, "PUT", `/api/2.1/course/${course}`, 403, "not_permitted", { body: { name: "X" } }],
      [ana, "PUT", `/api/2.1/course/${course}`, 400, "invalid_icon_key", { body: { iconKey: "k" } }],
    ]);
  });

  it("adds drills the user may use, once each, of one subject", async () => {
    const { ana, bob } = await actors();
    const course = await newCourse(ana);
    expect((await ana("PUT", `/api/2.1/course/${course}/de-business`)).status).toBe(200);
    await expectRefusals([
      [ana, "PUT", `/api/2.1/course/${course}/de-business`, 400, "drill_already_in_course"],
      [ana, "PUT", `/api/2.1/course/${course}/es-animals`, 400, "subject_mismatch"],
      [ana, "PUT", `/api/2.1/course/nope/es-animals`, 404, "course_unknown"],
      [ana, "PUT", `/api/2.1/course/${course}/nope`, 404, "drill_unknown"],
      [ana, "PUT", `/api/2.1/course/${course}/course-spanish`, 404, "drill_unknown"],
      [bob, "PUT", `/api/2.1/course/${course}/es-animals`, 403, "no_access"],
    ]);
    const bobsCourse = await newCourse(bob);
    // de-business is in a catalog Bob cannot use.
    expectRefused(await bob("PUT", `/api/2.1/course/${bobsCourse}/de-business`), 403, "no_access");
  });

  it("places a drill at the 2.1 page's optional position and moves one there (REF …/api/2.1/endpoints/put-course-drill/)", async () => {
    const { ana, bob } = await actors();
    const course = await newCourse(ana);
    const [first, second, third] = [
      await newDrill(ana, "One"),
      await newDrill(ana, "Two"),
      await newDrill(ana, "Three"),
    ];
    const order = async (answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      expect(status, JSON.stringify(body)).toBe(200);
      return (body as { drills: { id: string }[] }).drills.map((d) => d.id);
    };
    // Without a position a new drill goes last; with one it is inserted there.
    expect(await order(ana("PUT", `/api/2.1/course/${course}/${first}`))).toEqual([first]);
    expect(await order(ana("PUT", `/api/2.1/course/${course}/${second}/0`))).toEqual([second, first]);
    expect(await order(ana("PUT", `/api/2.1/course/${course}/${third}/1`))).toEqual([second, third, first]);
    // A drill of the course moves to the position; the others keep their order.
    expect(await order(ana("PUT", `/api/2.1/course/${course}/${second}/2`))).toEqual([third, first, second]);
    // The course as read afterwards has that order.
    expect(await order(ana("GET", `/api/2.1/course/${course}`))).toEqual([third, first, second]);
    await expectRefusals([
      [ana, "PUT", `/api/2.1/course/${course}/${first}/3`, 400, "position_invalid"],
      [ana, "PUT", `/api/2.1/course/nope/${first}/0`, 404, "course_unknown"],
      [ana, "PUT", `/api/2.1/course/${course}/nope/0`, 404, "drill_unknown"],
      [ana, "PUT", `/api/2.1/course/${course}/es-animals/0`, 400, "subject_mismatch"],
      [bob, "PUT", `/api/2.1/course/${course}/${first}/0`, 403, "no_access"],
    ]);
    // A position that is not a whole number breaks the description's path parameter, not the page's rule.
    expectRefused(await ana("PUT", `/api/2.1/course/${course}/${first}/last`), 400, "invalid_request");
    expect(await order(ana("GET", `/api/2.1/course/${course}`))).toEqual([third, first, second]);
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
    expectRefused(await ana("GET", `/api/2.1/question/${drill}`), 409, "drill_empty");
  });
});

describe("deleting and publishing", () => {
  // The 2.1.1 page of deleting a drillable (the revision of 2.1; the description types 2.1 by it):
  // warnings answer 428 and delete nothing until `ignoreWarnings=true`.
  it("deletes the author's drill or course, warning with 428 while it is part of a course", async () => {
    const { ana, bob } = await actors();
    const drill = await newDrill(ana);
    const course = await newCourse(ana);
    expect((await ana("PUT", `/api/2.1/course/${course}/${drill}`)).status).toBe(200);
    const warned = await ana("DELETE", `/api/2.1/drillable/${drill}`);
    expect(warned.status).toBe(428);
    expect(warned.body).toMatchObject({ warnings: [{ id: "part_of_course" }] });
    await expectRefusals([
      [bob, "DELETE", `/api/2.1/drillable/${course}`, 403, "no_permission"],
      [ana, "DELETE", "/api/2.1/drillable/nope", 404, "unknown_drillable_id"],
    ]);
    const deleted = await ana("DELETE", `/api/2.1/drillable/${course}`);
    expect(deleted.status).toBe(204);
    expectRefused(await ana("GET", `/api/2.1/playable/${course}`), 404, "not_found");
    expect((await ana("DELETE", `/api/2.1/drillable/${drill}`)).status).toBe(204);
  });

  it("warns with 428 before deleting a drill that is part of a group (the 2.1.1 delete page)", async () => {
    const sandbox = await start();
    const sa = client(sandbox, await tokenFor(sandbox));
    const drill = await newDrill(sa);
    const group = await sa("POST", "/api/2.1/groups", { body: { name: "G", description: "d" } });
    const groupId = (group.body as { id: string }).id;
    expect((await sa("PUT", `/api/2.1/group/${groupId}/drills/${drill}`)).status).toBe(200);
    const warned = await sa("DELETE", `/api/2.1/drillable/${drill}`);
    expect(warned.status).toBe(428);
    expect(warned.body).toMatchObject({ warnings: [{ id: "part_of_group" }] });
    expect((await sa("DELETE", `/api/2.1/drillable/${drill}?ignoreWarnings=true`)).status).toBe(204);
  });

  it("answers the publish page's errors", async () => {
    const { ana, bob } = await actors();
    const drill = await newDrill(ana);
    const toBusiness = { body: { catalog: "cat-business" } };
    await expectRefusals([
      [ana, "PUT", "/api/2.1/playable/nope/publish", 404, "unknown_drillable", toBusiness],
      [bob, "PUT", `/api/2.1/playable/${drill}/publish`, 403, "not_permitted", toBusiness],
      // Ana may use the catalog, but es-animals is nobody's to publish.
      [ana, "PUT", "/api/2.1/playable/es-animals/publish", 403, "not_permitted", toBusiness],
      [
        ana,
        "PUT",
        `/api/2.1/playable/${drill}/publish`,
        400,
        "catalog_not_found",
        { body: { catalog: "nope" } },
      ],
      [
        ana,
        "PUT",
        `/api/2.1/playable/${drill}/publish`,
        400,
        "invalid_position",
        { body: { catalog: "cat-business", position: "3" } },
      ],
    ]);
    expect(
      (
        await ana("PUT", `/api/2.1/playable/${drill}/publish`, {
          body: { catalog: "cat-business", position: "2" },
        })
      ).status,
    ).toBe(204);
    expectRefused(
      await ana("PUT", `/api/2.1/playable/${drill}/publish`, { body: { catalog: "cat-business" } }),
      400,
      "playable_part_of_catalog",
    );
    const bobsDrill = await newDrill(bob);
    expectRefused(
      await bob("PUT", `/api/2.1/playable/${bobsDrill}/publish`, { body: { catalog: "cat-business" } }),
      403,
      "not_permitted",
    );
  });
});

describe("reviews, appreciations, reception and preferences", () => {
  it("answers the review, appreciation and reception pages' errors", async () => {
    const { ana, bob } = await actors();
    await expectRefusals([
      [
        ana,
        "PUT",
        "/api/2.1/drillable/es-animals/review",
        403,
        "not_in_repertoire",
        { body: { content: "Nice" } },
      ],
      [
        ana,
        "PUT",
        "/api/2.1/drillable/es-animals/review",
        400,
        "missing_message",
        { body: { content: " " } },
      ],
      [ana, "PUT", "/api/2.1/drillable/nope/review", 404, "not_found", { body: { content: "Nice" } }],
      [ana, "PUT", "/api/2.1/playable/es-animals/appreciation/6", 400, "invalid_appreciation"],
      [ana, "PUT", "/api/2.1/playable/nope/appreciation/3", 404, "playable_not_found"],
      [bob, "PUT", "/api/2.1/playable/de-business/appreciation/3", 403, "no_access"],
      [bob, "GET", "/api/2.1/drillable/de-business/reception", 403, "no_access"],
      [bob, "GET", "/api/2.1/drillable/nope/reception", 404, "not_found"],
    ]);
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
    await expectRefusals([
      [bob, "PUT", "/api/2.1/rendition/de-business/preferences", 403, "no_permission"],
      [bob, "PUT", "/api/2.1/rendition/nope/preferences", 404, "not_found"],
    ]);
  });
});
