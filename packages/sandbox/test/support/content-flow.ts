/**
 * Flow 2 of issue 36, written once and run through every door (HTTP, in process, MSW): Ana creates a
 * drill and a course, adds the drill to the course, publishes the course to a catalog, reviews it and
 * reads its reception; a catalog search and the 2.1 playable show what she made.
 */
import { expect } from "vitest";
import { client, type TestSandbox, tokenFor } from "./helpers.js";

/** Runs the flow as `u-ana` of SMALL_DATA (who may use the catalog `cat-business`). */
export async function contentFlow(sandbox: TestSandbox): Promise<void> {
  const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));

  const drillAnswer = await ana("POST", "/api/2.1/drills", {
    body: { name: "Office verbs", subject: "German", description: "Verbs at work", tags: ["german", "work"] },
  });
  expect(drillAnswer.status).toBe(200);
  const drill = drillAnswer.body as { id: string; type: string; name: string };
  expect(drill).toMatchObject({ type: "DRILL", name: "Office verbs", subject: "German" });
  expect(drill.id).not.toBe("example");

  const courseAnswer = await ana("POST", "/api/2/courses", {
    body: { name: "German at work", description: "Words and verbs for the office" },
  });
  expect(courseAnswer.status).toBe(200);
  const course = courseAnswer.body as { id: string; type: string };
  expect(course.type).toBe("COURSE");
  expect(course.id).not.toBe(drill.id);

  const added = await ana("PUT", `/api/2.1/course/${course.id}/${drill.id}`);
  expect(added.status).toBe(200);
  expect(added.body).toMatchObject({
    id: course.id,
    type: "COURSE",
    subject: "German",
    drills: [{ id: drill.id, name: "Office verbs" }],
  });

  // Before publishing, a catalog search does not find the course.
  const before = await ana("GET", "/api/2.1/store?catalog=cat-business&query=work");
  expect((before.body as { drills: { id: string }[] }).drills.map((d) => d.id)).not.toContain(course.id);
  const published = await ana("PUT", `/api/2.1/playable/${course.id}/publish`, {
    body: { catalog: "cat-business", position: "0" },
  });
  expect(published.status).toBe(204);
  const after = await ana("GET", "/api/2.1/store?catalog=cat-business&query=work");
  expect((after.body as { drills: { id: string }[] }).drills.map((d) => d.id)).toContain(course.id);

  const playable = await ana("GET", `/api/2.1/playable/${course.id}`);
  expect(playable.status).toBe(200);
  expect(playable.body).toMatchObject({
    type: "COURSE",
    id: course.id,
    name: "German at work",
    creator: { id: "u-ana", name: "Ana" },
  });

  expect((await ana("PUT", `/api/2.1/repertoire/${course.id}`)).status).toBe(200);
  const review = await ana("PUT", `/api/2.1/drillable/${course.id}/review`, {
    body: { content: "Clear and short", appreciation: "4" },
  });
  expect(review.status).toBe(200);
  expect(review.body).toMatchObject({ content: "Clear and short", reviewer: { id: "u-ana" } });

  const reception = await ana("GET", `/api/2.1/drillable/${course.id}/reception`);
  expect(reception.status).toBe(200);
  expect(reception.body).toEqual({ popularity: 1, appreciation: { points: 4, score: 80 } });
}
