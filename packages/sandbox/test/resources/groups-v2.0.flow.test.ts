/**
 * The 2.0 group reads and writes that answered a static example before (issue #47): the group search,
 * the group's staff, the staff removal and the invitation list, now answered from the one state.
 */
import { describe, expect, it } from "vitest";
import { client, EVENING_CLASS, expectRefusals, SMALL_DATA, start, tokenFor } from "../support/helpers.js";

/** SMALL_DATA with the organization's evening class (Ana a member) and a second group. */
const DATA = {
  ...SMALL_DATA,
  groups: [
    EVENING_CLASS,
    {
      id: "g-day",
      name: "Day class",
      description: "Morning lessons",
      organizationId: "org-1",
      memberIds: [],
      drillableIds: ["es-animals"],
    },
  ],
};

describe("2.0 group search", () => {
  it("lists the groups the acting user holds a permission on, each a 2.0 Group with counts (POST groups page's shape)", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    const created = await sa("POST", "/api/2/groups", { body: { name: "Made now", description: "d" } });
    const found = await sa("GET", "/api/2/groups");
    expect(found.status).toBe(200);
    expect(found.headers.get("Drill-Sandbox-Example")).toBeNull();
    expect(found.body).toEqual([
      { id: "g-class", name: "Class", description: "Evening class", members: 1, drills: 0 },
      { id: "g-day", name: "Day class", description: "Morning lessons", members: 0, drills: 1 },
      { ...(created.body as object), members: 0, drills: 0 },
    ]);
    // Ana is a member of the evening class, not its staff: she holds a permission on no group.
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    expect((await ana("GET", "/api/2/groups")).body).toEqual([]);
  });
});

describe("2.0 group staff (REF …/api/2/objects/group-staff, …/api/2/endpoints/delete-group-staff)", () => {
  it("lists the group's staff in the 2.0 GroupStaff shape, the group as its ID, after a 2.0 grant", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    const empty = await sa("GET", "/api/2/group/g-class/staff");
    expect(empty.status).toBe(200);
    expect(empty.headers.get("Drill-Sandbox-Example")).toBeNull();
    expect(empty.body).toEqual({ group: "g-class", count: 0, total: 0, groupStaffUsers: [] });
    await sa("PUT", "/api/2/group/g-class/staff", { body: { user: "u-bob", permission: "VIEW" } });
    const listed = await sa("GET", "/api/2/group/g-class/staff");
    expect(listed.body).toMatchObject({
      group: "g-class",
      count: 1,
      total: 1,
      groupStaffUsers: [{ group: "g-class", user: { id: "u-bob", name: "Bob" }, permission: "VIEW" }],
    });
    // Bob, staff with VIEW, may read the staff; Ana, a member only, may not.
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    expect((await bob("GET", "/api/2/group/g-class/staff")).status).toBe(200);
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    await expectRefusals([
      [ana, "GET", "/api/2/group/g-class/staff", 403, "no_permission"],
      [sa, "GET", "/api/2/group/g-none/staff", 404, "not_found"],
    ]);
  });

  it("removes nothing and claims nothing: the path names no staff user, so user_missing (the delete-group-staff page's identifier)", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    await sa("PUT", "/api/2/group/g-class/staff", { body: { user: "u-bob", permission: "VIEW" } });
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    await expectRefusals([
      [sa, "DELETE", "/api/2/group/g-class/staff", 400, "user_missing"],
      [sa, "DELETE", "/api/2/group/g-none/staff", 404, "unknown_group"],
      // Bob holds VIEW, and removing staff needs MANAGE.
      [bob, "DELETE", "/api/2/group/g-class/staff", 403, "not_permitted"],
    ]);
    // Bob is still on the staff: the refused removal changed nothing.
    const listed = await sa("GET", "/api/2/group/g-class/staff");
    expect(listed.body).toMatchObject({ count: 1, groupStaffUsers: [{ user: { id: "u-bob" } }] });
  });
});

describe("2.0 group staff by the user and permission in the path (REF …/api/2/endpoints/put-group-staff)", () => {
  it("gives the user the path's permission, replacing the one held, and answers the 2.0 GroupStaff", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    const granted = await sa("PUT", "/api/2/group/g-class/staff/u-bob/MANAGE");
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      group: "g-class",
      count: 1,
      groupStaffUsers: [{ group: "g-class", user: { id: "u-bob", name: "Bob" }, permission: "MANAGE" }],
    });
    // The permission replaces the one held: Bob stays one staff user, now with VIEW.
    const lowered = await sa("PUT", "/api/2/group/g-class/staff/u-bob/VIEW");
    expect(lowered.body).toMatchObject({
      count: 1,
      groupStaffUsers: [{ user: { id: "u-bob" }, permission: "VIEW" }],
    });
    expect((await sa("GET", "/api/2/group/g-class/staff")).body).toEqual(lowered.body);
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    await expectRefusals([
      // Bob holds VIEW, and changing staff needs MANAGE.
      [bob, "PUT", "/api/2/group/g-class/staff/u-bob/MANAGE", 403, "not_permitted"],
      [sa, "PUT", "/api/2/group/g-none/staff/u-bob/VIEW", 404, "not_found"],
      [sa, "PUT", "/api/2/group/g-class/staff/u-nobody/VIEW", 404, "not_found"],
    ]);
    expect((await sa("GET", "/api/2/group/g-class/staff")).body).toMatchObject({
      count: 1,
      groupStaffUsers: [{ user: { id: "u-bob" }, permission: "VIEW" }],
    });
  });
});

describe("2.0 group invitations list (each entry the get-group-invitation page's GroupInvitation)", () => {
  it("lists the invitations of the groups the acting user is staff of, and those sent to the user", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    expect((await sa("GET", "/api/2/group-invitations")).body).toEqual([]);
    const invited = await sa("PUT", "/api/2/group/g-class/members/newcomer@academy.test");
    expect(invited.status).toBe(200);
    const listed = await sa("GET", "/api/2/group-invitations");
    expect(listed.status).toBe(200);
    expect(listed.headers.get("Drill-Sandbox-Example")).toBeNull();
    expect(listed.body).toEqual([
      {
        status: "PENDING",
        user: { type: "USER", emailAddress: "newcomer@academy.test" },
        group: { id: "g-class", name: "Class", description: "Evening class", members: 1, drills: 0 },
      },
    ]);
    // Ana neither holds a permission on the group nor was invited: she sees none.
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    expect((await ana("GET", "/api/2/group-invitations")).body).toEqual([]);
    // An invitation sent to an address Ana adds later is hers to see, with its group.
    await sa("PUT", "/api/2/group/g-day/members/ana.home@academy.test");
    await ana("PUT", "/api/2.1/user/u-ana/email-address/ana.home%40academy.test");
    const anas = await ana("GET", "/api/2/group-invitations");
    expect(anas.body).toMatchObject([
      { status: "PENDING", user: { emailAddress: "ana.home@academy.test" }, group: { id: "g-day" } },
    ]);
  });
});
