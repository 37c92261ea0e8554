/**
 * API 2.1.1's group operations through the real client entry `@drill-practice/client/v2.1.1`, over the
 * same state as 2.1: a group created with one version is read with the other, members are added by
 * third-party ID, the staff permission is a path segment, the groups list pages by `resultFrom`.
 */

import { describe, expect, it } from "vitest";
import { groupsFlowV211 } from "../support/groups-v211-flow.js";
import { BOB_ON_STAFF_DATA, EVENING_CLASS, SMALL_DATA, start } from "../support/helpers.js";
import { refusal, versionClients } from "../support/version-clients.js";

const DATA = { ...BOB_ON_STAFF_DATA, groups: [EVENING_CLASS] };

describe("groups in 2.1.1", () => {
  it("runs issue 46's groups flow: a 2.1 group read with 2.1.1, a member by third-party ID, staff in the path, test results, resultFrom paging", async () => {
    await groupsFlowV211(await start({ data: SMALL_DATA }));
  });

  it("creates with 2.1.1, reads with 2.1, creates with 2.1 and reads with 2.1.1", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const created = await v211.POST("/api/2.1.1/groups", {
      body: { name: "Verbs", description: "Irregular verbs", subscriptionEndDay: 1 },
    });
    // The page is cut before the answer; the sandbox answers the group, as 2.1 does.
    const id = (created.data as { id?: string } | undefined)?.id;
    expect(created.data).toMatchObject({
      name: "Verbs",
      organization: { id: "org-1", name: "Test Academy" },
    });
    const read21 = await v21.GET("/api/2.1/group/{group}", { params: { path: { group: id ?? "" } } });
    expect(read21.data).toMatchObject({ id, name: "Verbs", organization: { id: "org-1" } });

    const made21 = await v21.POST("/api/2.1/groups", { body: { name: "Nouns", description: "d" } });
    const group = made21.data?.id ?? "";
    await v21.PUT("/api/2.1/group/{group}/drills/{drill}", {
      params: { path: { group, drill: "es-animals" } },
    });
    const read211 = await v211.GET("/api/2.1.1/group/{group}", { params: { path: { group } } });
    expect(read211.data).toMatchObject({
      id: group,
      name: "Nouns",
      counts: { members: 0, drillables: 1, tests: 0 },
      organization: { id: "org-1", name: "Test Academy" },
    });

    const updated = await v211.PUT("/api/2.1.1/group/{group}", {
      params: { path: { group } },
      body: { name: "Nouns B1", description: "renamed" },
    });
    expect(updated.data).toMatchObject({ id: group, name: "Nouns B1" });
    expect((await v21.GET("/api/2.1/group/{group}", { params: { path: { group } } })).data).toMatchObject({
      name: "Nouns B1",
      description: "renamed",
    });
  });

  it("pages the groups list by resultFrom with the pagination object, 10 by default", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    for (let n = 1; n <= 11; n++) {
      await v211.POST("/api/2.1.1/groups", { body: { name: `Set ${n}`, description: "numbered" } });
    }
    const first = await v211.GET("/api/2.1.1/groups", { params: { query: { query: "numbered" } } });
    expect(first.data?.groups).toHaveLength(10);
    expect(first.data?.pagination).toMatchObject({ total: 11, moreAvailable: true });
    const resultFrom = first.data?.pagination?.lastOnPage ?? "";
    const next = await v211.GET("/api/2.1.1/groups", {
      params: { query: { query: "numbered", resultFrom, resultSize: 5 } },
    });
    expect(next.data?.groups?.map((g) => g.name)).toEqual(["Set 11"]);
    expect(next.data?.pagination?.moreAvailable).toBe(false);
    const short = await v211.GET("/api/2.1.1/groups", {
      params: { query: { query: "Set 1", profile: "AUTO_COMPLETE", resultSize: 1 } },
    });
    expect(short.data?.groups?.[0]).toEqual({ id: expect.any(String), name: "Set 1" });
    const stale = await v211.GET("/api/2.1.1/groups", { params: { query: { resultFrom: "g-gone" } } });
    expect(refusal(stale)).toEqual({ status: 400, id: "invalid_result_from" });
  });

  it("adds members by ID, email address and third-party ID, removes them, cancels an invitation", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const group = "g-class";
    const byThirdParty = await v211.PUT("/api/2.1.1/group/{group}/members/{third_party}/{third_party_id}", {
      params: { path: { group, third_party: "hr", third_party_id: "ext-9" } },
    });
    expect(byThirdParty.response.status).toBe(200);
    await v211.PUT("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group, user: "bob@academy.test" } },
    });
    const members = await v21.GET("/api/2.1/group/{group}/members", { params: { path: { group } } });
    expect(members.data?.members?.map((m) => m.member?.id)).toEqual(["u-ana", "u-zoe", "u-bob"]);

    const unknown = await v211.PUT("/api/2.1.1/group/{group}/members/{third_party}/{third_party_id}", {
      params: { path: { group, third_party: "hr", third_party_id: "hr-9999" } },
    });
    expect(refusal(unknown)).toEqual({ status: 404, id: "not_found" });

    const removed = await v211.DELETE("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group, user: "u-zoe" } },
    });
    expect(removed.response.status).toBe(200);
    const again = await v211.DELETE("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group, user: "u-zoe" } },
    });
    expect(refusal(again)).toEqual({ status: 400, id: "not_group_member" });

    await v211.PUT("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group, user: "new@academy.test" } },
    });
    const invitees = await v21.GET("/api/2.1/group/{group}/members", { params: { path: { group } } });
    expect(invitees.data?.counts).toMatchObject({ members: 2, invitees: 1 });
    await v211.DELETE("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group, user: "new@academy.test" } },
    });
    const after = await v21.GET("/api/2.1/group/{group}/members", { params: { path: { group } } });
    expect(after.data?.counts).toMatchObject({ members: 2, invitees: 0 });

    const missing = await v211.DELETE("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group: "g-none", user: "u-ana" } },
    });
    expect(refusal(missing)).toEqual({ status: 404, id: "group_not_found" });
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const denied = await ana.DELETE("/api/2.1.1/group/{group}/members/{user}", {
      params: { path: { group, user: "u-bob" } },
    });
    expect(refusal(denied)).toEqual({ status: 403, id: "no_group_access" });
  });

  it("gives and takes staff permissions named in the path, searched by name in the staff list", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const group = "g-class";
    const granted = await v211.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group, user: "u-ana", permission: "VIEW" } },
    });
    expect(granted.data).toMatchObject({
      group: { id: group },
      count: 1,
      groupStaffUsers: [{ user: { id: "u-ana" }, permission: "VIEW" }],
    });
    await v211.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group, user: "u-bob", permission: "MANAGE" } },
    });
    const searched = await v211.GET("/api/2.1.1/group/{group}/staff", {
      params: { path: { group }, query: { query: "BO" } },
    });
    expect(searched.data).toMatchObject({ count: 1, groupStaffUsers: [{ user: { id: "u-bob" } }] });
    const staff21 = await v21.GET("/api/2.1/group/{group}/staff", { params: { path: { group } } });
    expect(staff21.data?.count).toBe(2);

    const notHeld = await v211.DELETE("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group, user: "u-ana", permission: "MANAGE" } },
    });
    expect(refusal(notHeld)).toEqual({ status: 404, id: "unknown_user" });
    const revoked = await v211.DELETE("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group, user: "u-ana", permission: "VIEW" } },
    });
    expect(revoked.data?.groupStaffUsers?.map((s) => s.user?.id)).toEqual(["u-bob"]);
    const unknownGroup = await v211.GET("/api/2.1.1/group/{group}/staff", {
      params: { path: { group: "g-none" } },
    });
    expect(refusal(unknownGroup)).toEqual({ status: 404, id: "unknown_group" });
    // Ana, a member whose VIEW permission was just taken, may not give herself one.
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const denied = await ana.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group, user: "u-ana", permission: "MANAGE" } },
    });
    expect(refusal(denied)).toEqual({ status: 403, id: "not_permitted" });
  });

  it("adds drills and lists them with the group, 10 by default, searched in descriptions too", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    const group = "g-class";
    const added = await v211.PUT("/api/2.1.1/group/{group}/drills/{drill}", {
      params: { path: { group, drill: "es-animals" } },
    });
    expect(added.response.status).toBe(200);
    const twice = await v211.PUT("/api/2.1.1/group/{group}/drills/{drill}", {
      params: { path: { group, drill: "es-animals" } },
    });
    expect(refusal(twice)).toEqual({ status: 400, id: "drill_already_in_group" });
    const listed = await v211.GET("/api/2.1.1/group/{group}/drillables", { params: { path: { group } } });
    expect(listed.data).toMatchObject({
      id: group,
      counts: { drillables: 1 },
      drillables: [{ id: "es-animals" }],
    });
  });
});

describe("a subscribed group in 2.1.1", () => {
  it("answers a group to its member, refuses others with the page's identifiers", async () => {
    const sandbox = await start({ data: DATA });
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const seen = await ana.GET("/api/2.1.1/group/subscriptions/{group}", {
      params: { path: { group: "g-class" } },
    });
    expect(seen.data).toEqual({
      id: "g-class",
      name: "Class",
      description: "Evening class",
      organization: { type: "ORGANIZATION", id: "org-1", name: "Test Academy" },
    });
    const unknown = await ana.GET("/api/2.1.1/group/subscriptions/{group}", {
      params: { path: { group: "g-none" } },
    });
    expect(refusal(unknown)).toEqual({ status: 404, id: "not_found" });
    // The service account manages the group but is no member of it.
    const { v211 } = await versionClients(sandbox);
    const staff = await v211.GET("/api/2.1.1/group/subscriptions/{group}", {
      params: { path: { group: "g-class" } },
    });
    expect(refusal(staff)).toEqual({ status: 403, id: "not_subscribed" });
  });
});
