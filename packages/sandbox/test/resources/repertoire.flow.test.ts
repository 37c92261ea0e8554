/**
 * The repertoire as the GET repertoire pages (2.0 and 2.1.1) describe it (issue #47): every drill the
 * user (co-)authored, took from the store or received as a group member, each with its progress; the
 * 2.1 search takes the 2.1.1 page's parameters; removal follows the 2.0 DELETE repertoire page's rules.
 */
import { describe, expect, it } from "vitest";
import {
  client,
  expectRefusals,
  expectRefused,
  SMALL_DATA,
  start,
  startWithAnasGroup,
  tokenFor,
} from "../support/helpers.js";

interface Listed {
  total: number;
  drills: { id: string; practice?: { proficiency: { overall: number } } }[];
}

/** Ana with a drill of her own (`mine`) and `es-animals` received through her group: both held, not added. */
async function anaWithOwnAndGroupDrill() {
  const { sa, ana, group } = await startWithAnasGroup();
  const created = await ana("POST", "/api/2.1/drills", {
    body: { name: "Mine", subject: "Words", description: "d" },
  });
  await sa("PUT", `/api/2.1/group/${group.id}/drills/es-animals`);
  return { ana, mine: (created.body as { id: string }).id };
}

describe("repertoire (GET repertoire pages, issue #47)", () => {
  it("holds a drill the user just created, and one received through a group (2.1.1 GET repertoire page)", async () => {
    const { sa, ana, group } = await startWithAnasGroup();
    const created = await ana("POST", "/api/2.1/drills", {
      body: { name: "My words", subject: "Words", description: "d" },
    });
    const mine = (created.body as { id: string }).id;
    expect((await sa("PUT", `/api/2.1/group/${group.id}/drills/es-animals`)).status).toBe(200);
    const listed = (await ana("GET", "/api/2.1/repertoire")).body as Listed;
    expect(listed.drills.map((d) => d.id).sort()).toEqual([mine, "es-animals"].sort());
    // The 2.0 list is the same repertoire.
    expect(((await ana("GET", "/api/2/repertoire")).body as Listed).total).toBe(2);
  });

  it("gives a drill in the repertoire its progress before any answer (2.0 Drillable page)", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    expect((await ana("PUT", "/api/2.1/repertoire/es-colours")).status).toBe(200);
    const listed = (await ana("GET", "/api/2.1/repertoire")).body as Listed;
    expect(listed.drills).toEqual([
      expect.objectContaining({
        id: "es-colours",
        practice: expect.objectContaining({ proficiency: expect.anything() }),
      }),
    ]);
    expect(listed.drills[0]?.practice?.proficiency.overall).toBe(0);
  });

  it("searches the 2.1 repertoire with the 2.1.1 page's parameters (query, searchField, paging)", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    for (const id of ["es-colours", "es-animals", "fr-animals"])
      expect((await ana("PUT", `/api/2.1/repertoire/${id}`)).status).toBe(200);
    const ids = async (query: string) =>
      ((await ana("GET", `/api/2.1/repertoire?${query}`)).body as Listed).drills.map((d) => d.id);
    expect(await ids("query=spanish")).toEqual(["es-animals", "es-colours"]);
    expect(await ids("query=spanish%20AND%20colours")).toEqual(["es-colours"]);
    expect(await ids("query=animals&searchField=NAME&resultStart=1&resultSize=1")).toEqual(["es-animals"]);
    expect(await ids("query=perro&searchField=CONTENTS")).toEqual(["es-animals"]);
    expectRefused(await ana("GET", "/api/2.1/repertoire?searchField=COLOUR"), 400, "invalid_search_field");
    // The 2.0 page shows the same search parameters: one search for both versions.
    const v20 = (await ana("GET", "/api/2/repertoire?query=french")).body as Listed;
    expect(v20.drills.map((d) => d.id)).toEqual(["fr-animals"]);
  });

  it("refuses to remove the user's own drill or a group's (2.0 DELETE repertoire page)", async () => {
    const { ana, mine } = await anaWithOwnAndGroupDrill();
    expectRefused(await ana("DELETE", `/api/2.1/repertoire/${mine}`), 400, "drill_is_yours");
    expectRefused(await ana("DELETE", "/api/2.1/repertoire/es-animals"), 400, "drill_is_part_of_group");
    expectRefused(await ana("DELETE", "/api/2.1/repertoire/fr-animals"), 404, "not_in_repertoire");
    expect((await ana("PUT", "/api/2.1/repertoire/fr-animals")).status).toBe(200);
    expect((await ana("DELETE", "/api/2.1/repertoire/fr-animals")).status).toBe(200);
    expect(((await ana("GET", "/api/2.1/repertoire")).body as Listed).total).toBe(2);
  });

  it("answers the 2.0 writes, whose path has no drill ID, as their pages do for a missing ID", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    expectRefused(await ana("PUT", "/api/2/repertoire"), 400, "no_input");
    expectRefused(await ana("DELETE", "/api/2/repertoire"), 400, "drill_id_missing");
  });

  it("adds and removes by the drill ID in the path of the 2.0 pages (REF …/api/2/endpoints/put-repertoire, …/delete-repertoire)", async () => {
    const { ana, mine } = await anaWithOwnAndGroupDrill();
    const added = await ana("PUT", "/api/2/repertoire/es-colours");
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ description: expect.any(String) });
    const ids = async () => ((await ana("GET", "/api/2/repertoire")).body as Listed).drills.map((d) => d.id);
    expect((await ids()).sort()).toEqual([mine, "es-animals", "es-colours"].sort());
    await expectRefusals([
      // PUT: the page's identifiers (no codes on the page: 400 and 404 are the sandbox's).
      [ana, "PUT", "/api/2/repertoire/es-colours", 400, "drill_already_in_repertoire"],
      [ana, "PUT", `/api/2/repertoire/${mine}`, 400, "drill_already_in_repertoire"],
      [ana, "PUT", "/api/2/repertoire/no-such-drill", 400, "invalid_id"],
      // DELETE: not in the repertoire, the user's own, a group's.
      [ana, "DELETE", "/api/2/repertoire/fr-animals", 404, "unknown_drill"],
      [ana, "DELETE", `/api/2/repertoire/${mine}`, 400, "drill_is_yours"],
      [ana, "DELETE", "/api/2/repertoire/es-animals", 400, "drill_is_part_of_group"],
    ]);
    const removed = await ana("DELETE", "/api/2/repertoire/es-colours");
    expect([removed.status, removed.body]).toEqual([200, {}]);
    expect((await ids()).sort()).toEqual([mine, "es-animals"].sort());
  });

  it("discards the user's progress on a drill removed from the repertoire (REF …/api/2/endpoints/delete-repertoire)", async () => {
    const practised = { userId: "u-ana", drillId: "es-colours", answerCount: 4, correctCount: 4 };
    const sandbox = await start({
      data: { ...SMALL_DATA, practice: [{ ...practised, receptive: 60, productive: 40 }] },
    });
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const overall = async () =>
      ((await ana("GET", "/api/2/repertoire")).body as Listed).drills.find((d) => d.id === "es-colours")
        ?.practice?.proficiency.overall;
    expect((await ana("PUT", "/api/2/repertoire/es-colours")).status).toBe(200);
    expect(await overall()).toBe(50);
    expect((await ana("DELETE", "/api/2/repertoire/es-colours")).status).toBe(200);
    expect((await ana("PUT", "/api/2/repertoire/es-colours")).status).toBe(200);
    expect(await overall()).toBe(0);
  });
});
