/**
 * Issue 46's content flow through `@drill-practice/client/v2.1.1`, written once and run through every
 * door (HTTP, in process, MSW): Ana creates two drills and a course, places the drills by position,
 * publishes the course, is warned (428) deleting a drill of it, and deletes it with `ignoreWarnings`.
 */
import { expect } from "vitest";
import { client, type TestSandbox, tokenFor } from "./helpers.js";
import { v211Client } from "./version-clients.js";

type Api = Awaited<ReturnType<typeof v211Client>>;

/** Creates a German drill as the client's user; answers its ID. */
export async function newDrill(api: Api, name: string): Promise<string> {
  const { data, response } = await api.POST("/api/2.1.1/drills", {
    body: { name, subject: "German", description: "Words at work" },
  });
  expect(response.status).toBe(200);
  expect(data).toMatchObject({ type: "DRILL", name, subject: "German" });
  return (data as { id: string }).id;
}

/** Puts a drill at a position of a course; answers the course's drill IDs in order. */
export async function courseDrills(api: Api, course: string, drill: string, position: number) {
  const { data, error, response } = await api.PUT("/api/2.1.1/course/{course}/{drill}/{position}", {
    params: { path: { course, drill, position } },
  });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return (data as { drills: { id: string }[] }).drills.map((d) => d.id);
}

/** Runs the flow as `u-ana` of SMALL_DATA (who may use the catalog `cat-business`). */
export async function contentFlowV211(sandbox: TestSandbox): Promise<void> {
  const ana = await v211Client(sandbox, "u-ana");
  const verbs = await newDrill(ana, "Bureau verbs");
  const nouns = await newDrill(ana, "Bureau nouns");

  const created = await ana.POST("/api/2.1.1/courses", {
    body: { name: "German in the bureau", description: "Words and verbs for the office" },
  });
  expect(created.data).toMatchObject({ type: "COURSE", name: "German in the bureau" });
  const course = (created.data as { id: string }).id;

  expect(await courseDrills(ana, course, verbs, 0)).toEqual([verbs]);
  // A new drill at position 0 goes first; the same drill at 1 moves back behind the other.
  expect(await courseDrills(ana, course, nouns, 0)).toEqual([nouns, verbs]);
  expect(await courseDrills(ana, course, nouns, 1)).toEqual([verbs, nouns]);

  const published = await ana.PUT("/api/2.1.1/playable/{playable}/publish", {
    params: { path: { playable: course } },
    body: { catalog: "cat-business" },
  });
  expect(published.response.status).toBe(204);

  // The drill is in the course: 2.1.1 answers 428 with its warning and deletes nothing.
  const warned = await ana.DELETE("/api/2.1.1/drillable/{drillable}", {
    params: { path: { drillable: verbs } },
  });
  expect(warned.response.status).toBe(428);
  expect(warned.error).toEqual({
    warnings: [{ id: "part_of_course", description: expect.any(String) }],
  });
  const still = await ana.GET("/api/2.1.1/playable/{playable}", { params: { path: { playable: verbs } } });
  expect(still.response.status).toBe(200);

  const deleted = await ana.DELETE("/api/2.1.1/drillable/{drillable}", {
    params: { path: { drillable: verbs }, query: { ignoreWarnings: true } },
  });
  expect(deleted.response.status).toBe(204);
  const gone = await ana.GET("/api/2.1.1/playable/{playable}", { params: { path: { playable: verbs } } });
  expect(gone.response.status).toBe(404);
  expect(gone.error).toMatchObject({ id: "not_found" });

  // The course lost the drill, as 2.1 reads it too.
  const raw21 = client(sandbox, await tokenFor(sandbox, "u-ana"));
  const moved = await raw21("PUT", `/api/2.1/course/${course}`, { body: { name: "German at the office" } });
  expect(moved.body).toMatchObject({ id: course, name: "German at the office", drills: [{ id: nouns }] });
}
