/**
 * Issue 46's groups flow through `@drill-practice/client/v2.1.1`, written once and run through every
 * door (HTTP, in process, MSW): the service account reads with 2.1.1 a group it created with 2.1, adds
 * a member by third-party ID, gives a staff permission named in the path, reads the results of a group
 * test, and pages the groups list by `resultFrom`. Runs on SMALL_DATA (the service account `sa-1`
 * manages `org-1`; Zoe is named by the third-party ID `ext-9`).
 */
import { expect } from "vitest";
import type { TestSandbox } from "./helpers.js";
import { versionClients } from "./version-clients.js";

/** Runs the flow; the groups it makes are told apart from others by a description of their own. */
export async function groupsFlowV211(sandbox: TestSandbox): Promise<void> {
  const { v211, v21 } = await versionClients(sandbox);
  const tag = `flow-${Math.random().toString(36).slice(2, 10)}`;
  const made = await v21.POST("/api/2.1/groups", { body: { name: "Evening verbs", description: tag } });
  const group = made.data?.id ?? "";
  const read = await v211.GET("/api/2.1.1/group/{group}", { params: { path: { group } } });
  expect(read.data).toMatchObject({ id: group, name: "Evening verbs", organization: { id: "org-1" } });

  const added = await v211.PUT("/api/2.1.1/group/{group}/members/{third_party}/{third_party_id}", {
    params: { path: { group, third_party: "hr", third_party_id: "ext-9" } },
  });
  expect(added.response.status).toBe(200);
  const members = await v21.GET("/api/2.1/group/{group}/members", { params: { path: { group } } });
  expect(members.data?.members?.map((m) => m.member?.id)).toEqual(["u-zoe"]);

  const staff = await v211.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
    params: { path: { group, user: "u-bob", permission: "VIEW" } },
  });
  expect(staff.response.status).toBe(200);
  expect(staff.data?.groupStaffUsers).toContainEqual(
    expect.objectContaining({ user: expect.objectContaining({ id: "u-bob" }), permission: "VIEW" }),
  );

  const defined = await v21.POST("/api/2.1/group/{group}/tests", {
    params: { path: { group } },
    body: { drills: ["es-colours"], name: "Colours check" },
  });
  const test = (defined.data as { id?: string } | undefined)?.id ?? "";
  const results = await v211.GET("/api/2.1.1/group/{group}/test-results/{test}", {
    params: { path: { group, test } },
  });
  expect(results.data).toMatchObject({
    group: { id: group },
    total: 0,
    test: { id: test, name: "Colours check" },
  });

  for (const name of ["Evening nouns", "Evening numbers"])
    await v211.POST("/api/2.1.1/groups", { body: { name, description: tag } });
  const first = await v211.GET("/api/2.1.1/groups", { params: { query: { query: tag, resultSize: 2 } } });
  expect(first.data?.groups).toHaveLength(2);
  expect(first.data?.pagination).toMatchObject({ total: 3, moreAvailable: true });
  const next = await v211.GET("/api/2.1.1/groups", {
    params: { query: { query: tag, resultSize: 2, resultFrom: first.data?.pagination?.lastOnPage ?? "" } },
  });
  expect(next.data?.groups).toHaveLength(1);
  expect(next.data?.pagination?.moreAvailable).toBe(false);
}
