// A consumer's ten typed API 2.1.1 calls through the client, type-checked by bench/typecheck-cost.ts
// (once as it is, once rewritten for openapi-fetch alone). 2.1.1 has no store: the group list takes
// its place, paged from a group ID as 2.1.1 pages it.
import { createDrillClient } from "@drill-practice/client/v2.1.1";

const client = createDrillClient({ baseUrl: "https://drill.example" });

export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  const groups = await client.GET("/api/2.1.1/groups", {
    params: { query: { query: "spanish", resultFrom: "g", resultSize: 20 } },
  });
  for (const group of groups.data?.groups ?? []) seen += (group.name ?? "").length;
  seen += groups.data?.pagination?.moreAvailable ? 1 : 0;
  const question = await client.GET("/api/2.1.1/question/{drill}", { params: { path: { drill: drillId } } });
  seen += question.response.ok ? 1 : 0;
  const answer = await client.PUT("/api/2.1.1/answer/{reference}", {
    params: { path: { reference: "r" } },
    body: { answer: ["a"] },
  });
  seen += answer.response.status;
  const repertoire = await client.GET("/api/2.1.1/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  const added = await client.PUT("/api/2.1.1/repertoire/{drillable}", {
    params: { path: { drillable: drillId } },
  });
  seen += added.response.ok ? 1 : 0;
  const group = await client.GET("/api/2.1.1/group/{group}", { params: { path: { group: "g" } } });
  seen += group.response.ok ? 1 : 0;
  const staff = await client.GET("/api/2.1.1/group/{group}/staff", { params: { path: { group: "g" } } });
  seen += staff.response.ok ? 1 : 0;
  const objectives = await client.GET("/api/2.1.1/objectives");
  seen += objectives.data?.objectives?.length ?? 0;
  const user = await client.GET("/api/2.1.1/user");
  seen += user.response.ok ? 1 : 0;
  const beacons = await client.GET("/api/2.1.1/beacons");
  return seen + (beacons.response.ok ? 1 : 0);
}
