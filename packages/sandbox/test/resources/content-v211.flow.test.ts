/**
 * Drills and courses through `@drill-practice/client/v2.1.1`: the 2.1.1 pages' behaviour (a drill's
 * position in a course, 428 with warnings on a delete, `ignoreWarnings`) over the state 2.1 shares.
 */
import { describe, expect, it } from "vitest";
import { contentFlowV211, courseDrills, newDrill } from "../support/content-v211-flow.js";
import { client, start, tokenFor } from "../support/helpers.js";
import { v211Client } from "../support/version-clients.js";

describe("drills and courses in 2.1.1 (issue 46's flow)", () => {
  it("creates a drill and a course, places drills by position, publishes, and deletes past the 428 warning", async () => {
    await contentFlowV211(await start());
  });

  it("shares drills and courses with 2.1 both ways", async () => {
    const sandbox = await start();
    const ana = await v211Client(sandbox, "u-ana");
    const raw21 = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const made21 = await raw21("POST", "/api/2.1/drills", {
      body: { name: "Made in 2.1", subject: "German", description: "d" },
    });
    const drill21 = (made21.body as { id: string }).id;
    const updated = await ana.PUT("/api/2.1.1/drill/{drill}", {
      params: { path: { drill: drill21 } },
      body: { description: "Changed in 2.1.1" },
    });
    expect(updated.data).toMatchObject({ id: drill21, name: "Made in 2.1", description: "Changed in 2.1.1" });

    const course = (
      (await ana.POST("/api/2.1.1/courses", { body: { name: "Shared", description: "d" } })).data as {
        id: string;
      }
    ).id;
    const appended = await ana.PUT("/api/2.1.1/course/{course}/{drill}", {
      params: { path: { course, drill: drill21 } },
    });
    expect(appended.data).toMatchObject({ id: course, subject: "German", drills: [{ id: drill21 }] });
    const read21 = await raw21("GET", `/api/2.1/playable/${course}`);
    expect(read21.body).toMatchObject({
      id: course,
      type: "COURSE",
      name: "Shared",
      creator: { id: "u-ana" },
    });
    // 2.1 deletes warn as 2.1.1's do (the same 2.1.1 page types both): 428, nothing deleted.
    const warned21 = await raw21("DELETE", `/api/2.1/drillable/${drill21}`);
    expect(warned21.status).toBe(428);
    expect(warned21.body).toMatchObject({ warnings: [{ id: "part_of_course" }] });
  });

  it("answers the 2.1.1 pages' errors with their status codes", async () => {
    const sandbox = await start();
    const ana = await v211Client(sandbox, "u-ana");
    const bob = await v211Client(sandbox, "u-bob");
    const drill = await newDrill(ana, "Verbs");
    const other = await ana.POST("/api/2.1.1/drills", {
      body: { name: "Capitals", subject: "Geography", description: "d" },
    });
    const course = (
      (await ana.POST("/api/2.1.1/courses", { body: { name: "C", description: "d" } })).data as { id: string }
    ).id;
    await courseDrills(ana, course, drill, 0);

    const at = (c: string, d: string, position: number, api = ana) =>
      api.PUT("/api/2.1.1/course/{course}/{drill}/{position}", {
        params: { path: { course: c, drill: d, position } },
      });
    const rated = await ana.PUT("/api/2.1.1/playable/{playable}/appreciation/{appreciation}", {
      params: { path: { playable: drill, appreciation: 4 } },
    });
    expect(rated.data).toEqual({ points: 4, score: 80 });
    const cases: [Promise<{ error?: unknown; response: Response }>, number, string][] = [
      [at(course, drill, 1), 400, "position_invalid"],
      [at("no-such-course", drill, 0), 404, "course_unknown"],
      [at(course, "no-such-drill", 0), 404, "drill_unknown"],
      [at(course, await newDrill(bob, "Bob's own"), 0), 403, "no_access"],
      [at(course, (other.data as { id: string }).id, 0), 400, "subject_mismatch"],
      [
        ana.PUT("/api/2.1.1/course/{course}/{drill}", { params: { path: { course, drill } } }),
        400,
        "drill_already_in_course",
      ],
      [
        ana.DELETE("/api/2.1.1/drillable/{drillable}", { params: { path: { drillable: "nope" } } }),
        404,
        "unknown_drillable_id",
      ],
      [
        bob.DELETE("/api/2.1.1/drillable/{drillable}", { params: { path: { drillable: drill } } }),
        403,
        "no_permission",
      ],
      [
        ana.POST("/api/2.1.1/drills", { body: { name: "Verbs", subject: "verbs", description: "d" } }),
        400,
        "subject_equal_to_name",
      ],
    ];
    for (const [pending, status, id] of cases) {
      const { error, response } = await pending;
      expect(response.status, `${response.url}: ${JSON.stringify(error)}`).toBe(status);
      expect(error).toMatchObject({ id, ID: id });
    }
  });
});
