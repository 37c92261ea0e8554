/**
 * Flow 1 of issue 36, written once and run through every door (HTTP, in process, MSW): create a group
 * with 2.1, list it, rename it, add a drill and two members, list the members with 2.0, give one of
 * them a staff permission and take it away again.
 */
import { expect } from "vitest";
import { client, type TestSandbox, tokenFor } from "./helpers.js";

/** Runs the flow as the service account of SMALL_DATA (`sa-1`, which manages `org-1`). */
export async function groupsFlow(sandbox: TestSandbox): Promise<void> {
  const api = client(sandbox, await tokenFor(sandbox));

  const created = await api("POST", "/api/2.1/groups", { body: { name: "Bar group", description: "d" } });
  expect(created.status).toBe(200);
  const group = created.body as { id: string; name: string; description: string; counts: unknown };
  expect(group).toMatchObject({
    name: "Bar group",
    description: "d",
    counts: { members: 0, drillables: 0, tests: 0 },
    organization: { id: "org-1" },
  });
  expect(group.id).not.toBe("example");

  const listed = await api("GET", "/api/2.1/groups?query=bar");
  expect(listed.body).toMatchObject({ total: 1, groups: [{ id: group.id, name: "Bar group" }] });

  const renamed = await api("PUT", `/api/2.1/group/${group.id}`, {
    body: { name: "Foo group", description: "renamed" },
  });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toMatchObject({ id: group.id, name: "Foo group", description: "renamed" });
  expect((await api("GET", `/api/2.1/group/${group.id}`)).body).toMatchObject({ name: "Foo group" });

  expect((await api("PUT", `/api/2.1/group/${group.id}/drills/es-animals`)).status).toBe(200);
  // A member by ID, another by email address: both address the same kind of record.
  expect((await api("PUT", `/api/2.1/group/${group.id}/members/u-ana`)).status).toBe(200);
  expect((await api("PUT", `/api/2.1/group/${group.id}/members/bob@academy.test`)).status).toBe(200);

  const members20 = await api("GET", `/api/2/group/${group.id}/members?resultStart=1&resultSize=5`);
  expect(members20.status).toBe(200);
  expect(members20.body).toMatchObject({
    id: group.id,
    name: "Foo group",
    members: [{ id: "u-bob", name: "Bob" }],
  });
  expect((members20.body as { members: unknown[] }).members).toHaveLength(1);
  // The 2.0 group shape over the same state: counts as numbers.
  const read = await api("GET", `/api/2.1/group/${group.id}`);
  expect(read.body).toMatchObject({ counts: { members: 2, drillables: 1 } });

  const granted = await api("PUT", `/api/2.1/group/${group.id}/staff/u-ana/permission`, {
    body: { permission: "VIEW" },
  });
  expect(granted.status).toBe(200);
  expect(granted.body).toMatchObject({
    group: { id: group.id },
    count: 1,
    groupStaffUsers: [{ user: { id: "u-ana" }, permission: "VIEW" }],
  });
  // Ana, now staff with VIEW, reads the group but may not change it.
  const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
  expect((await ana("GET", `/api/2.1/group/${group.id}`)).status).toBe(200);
  const refused = await ana("PUT", `/api/2.1/group/${group.id}/members/u-zoe`);
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ ID: "no_permission" });

  const revoked = await api("DELETE", `/api/2.1/group/${group.id}/staff/u-ana/VIEW`);
  expect(revoked.status).toBe(200);
  expect(revoked.body).toMatchObject({ count: 0, groupStaffUsers: [] });
  const after = await ana("GET", `/api/2.1/group/${group.id}`);
  expect(after.status).toBe(403);
  expect(after.body).toMatchObject({ ID: "no_permission" });
}
