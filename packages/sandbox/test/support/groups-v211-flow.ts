/**
 * Issue 46's groups flow through `@drill-practice/client/v2.1.1`, written once and run through every
 * door (HTTP, in process, MSW): the service account reads with 2.1.1 a group it created with 2.1, adds
 * a member by third-party ID, gives a staff permission named in the path, reads members' results on the
 * group's drill (the GET group member results page), reads the results of a group test, and pages the
 * groups list by `resultFrom`. Runs on SMALL_DATA (the service account `sa-1`
 * manages `org-1`; Zoe is named by the third-party ID `ext-9`).
 */
import { expect } from "vitest";
import { SMALL_DATA, type TestSandbox } from "./helpers.js";
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

  await memberResultsFlow(sandbox, group);

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

/** The right answer to a term asked of SMALL_DATA's drills (looked up in the dataset, not the sandbox). */
function rightAnswer(ask: string): string {
  const item = SMALL_DATA.drills.flatMap((d) => d.items).find((i) => i.ask === ask);
  if (item === undefined) throw new Error(`no item asks ${ask}`);
  return item.tell;
}

/**
 * Member results as staff read them (the 2.1.1 GET group member results page): the group's drill with
 * each member's proficiency; Zoe has not practised it, Ana's goes up once she answers it right, and
 * none is shown once she has left.
 */
async function memberResultsFlow(sandbox: TestSandbox, group: string): Promise<void> {
  const { v211 } = await versionClients(sandbox);
  await v211.PUT("/api/2.1.1/group/{group}/drills/{drill}", {
    params: { path: { group, drill: "es-colours" } },
  });
  await v211.PUT("/api/2.1.1/group/{group}/members/{user}", { params: { path: { group, user: "u-ana" } } });
  const resultsOf = async (user: string) =>
    (
      await v211.GET("/api/2.1.1/group/{group}/member-results/{user}", {
        params: { path: { group, user } },
      })
    ).data;
  expect(await resultsOf("u-zoe")).toMatchObject({
    group: { id: group },
    member: { id: "u-zoe" },
    pagination: { total: 1, moreAvailable: false },
    groupDrillableMemberResults: [{ drillable: { id: "es-colours" }, proficiency: 0 }],
  });
  const proficiencyOfAna = async () =>
    (await resultsOf("u-ana"))?.groupDrillableMemberResults?.[0]?.proficiency as number;
  const before = await proficiencyOfAna();

  const ana = (await versionClients(sandbox, "u-ana")).v211;
  for (let i = 0; i < 2; i++) {
    const asked = await ana.GET("/api/2.1.1/question/{drill}", { params: { path: { drill: "es-colours" } } });
    const question = asked.data?.question;
    if (question === undefined) throw new Error("no question in the answer");
    const term = (question.ask as { term: { value: string } }).term.value;
    const answered = await ana.PUT("/api/2.1.1/answer/{reference}", {
      params: { path: { reference: question.reference } },
      body: { answer: [rightAnswer(term)] },
    });
    expect(answered.data?.evaluation).toMatchObject({ result: "CORRECT" });
  }
  expect(await proficiencyOfAna()).toBeGreaterThan(before);

  // Once Ana leaves, the group has no results of hers to show.
  await v211.DELETE("/api/2.1.1/group/{group}/members/{user}", {
    params: { path: { group, user: "u-ana" } },
  });
  const gone = await v211.GET("/api/2.1.1/group/{group}/member-results/{user}", {
    params: { path: { group, user: "u-ana" } },
  });
  expect(gone.response.status).toBe(404);
}
