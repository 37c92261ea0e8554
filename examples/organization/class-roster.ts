/**
 * "User code" for the organization examples: what a school's integration might do with its service
 * account. It opens a class (a group with a drill and members), lists the class with the 2.0 API,
 * lets a teacher see it (a staff permission) and closes it again. Every function takes the client as
 * a parameter, so the test hands it one wired to the sandbox, in process or over HTTP.
 */
import type { DrillClient } from "@drill-practice/client";
import { unwrap } from "@drill-practice/client";

export interface ClassPlan {
  readonly name: string;
  readonly description: string;
  /** The drill every member practises. */
  readonly drillId: string;
  /** User IDs or email addresses of users the organization manages. */
  readonly members: readonly string[];
}

/** Creates the group, adds the drill and the members, and answers the group's ID. */
export async function openClass(client: DrillClient, plan: ClassPlan): Promise<string> {
  const group = await unwrap(
    client.POST("/api/2.1/groups", { body: { name: plan.name, description: plan.description } }),
  );
  // The answer's fields are typed optional (the pages show them, the interface does not promise them).
  const groupId = group.id;
  if (!groupId) throw new Error("the service created a group without an ID");
  await unwrap(
    client.PUT("/api/2.1/group/{group}/drills/{drill}", {
      params: { path: { group: groupId, drill: plan.drillId } },
    }),
  );
  for (const member of plan.members) {
    await unwrap(
      client.PUT("/api/2.1/group/{group}/members/{user}", {
        params: { path: { group: groupId, user: member } },
      }),
    );
  }
  return groupId;
}

/** The class as the 2.0 API shows it: its name and its members' names, in the order the service lists them. */
export async function roster(
  client: DrillClient,
  groupId: string,
): Promise<{ name: string; members: string[] }> {
  const group = await unwrap(
    client.GET("/api/2/group/{group_id}/members", { params: { path: { group_id: groupId } } }),
  );
  // In 2.0, `members` is the list on this page and a count on the group pages.
  const members = Array.isArray(group.members) ? group.members : [];
  return { name: group.name ?? "", members: members.map((member) => member.name ?? member.id ?? "") };
}

/** Gives a teacher read access to the class; answers the staff the group has afterwards. */
export async function addViewer(client: DrillClient, groupId: string, teacher: string): Promise<string[]> {
  const staff = await unwrap(
    client.PUT("/api/2.1/group/{group}/staff/{user}/permission", {
      params: { path: { group: groupId, user: teacher } },
      body: { permission: "VIEW" },
    }),
  );
  return (staff.groupStaffUsers ?? []).map((entry) => `${entry.user?.id}:${entry.permission}`);
}

/** Takes the teacher's access away and deletes the group. */
export async function closeClass(client: DrillClient, groupId: string, teacher: string): Promise<void> {
  await unwrap(
    client.DELETE("/api/2.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group: groupId, user: teacher, permission: "VIEW" } },
    }),
  );
  await unwrap(client.DELETE("/api/2.1/groups/{group}", { params: { path: { group: groupId } } }));
}
