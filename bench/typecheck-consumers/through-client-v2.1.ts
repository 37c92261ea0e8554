// A consumer's ten typed API 2.1 calls through the client, type-checked by bench/typecheck-cost.ts
// (once as it is, once rewritten for openapi-fetch alone).
import { createDrillClient } from "@drill-practice/client/v2.1";

const client = createDrillClient({ baseUrl: "https://drill.example" });

export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  const store = await client.GET("/api/2.1/store", {
    params: { query: { query: "spanish AND verbs", searchField: ["NAME", "TAGS"], resultSize: 20 } },
  });
  seen += store.response.ok ? 1 : 0;
  const question = await client.GET("/api/2.1/question/{drill}", { params: { path: { drill: drillId } } });
  seen += question.response.ok ? 1 : 0;
  const answer = await client.PUT("/api/2.1/answer/{reference}", {
    params: { path: { reference: "r" } },
    body: { answer: ["a"] },
  });
  seen += answer.response.status;
  const repertoire = await client.GET("/api/2.1/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  const added = await client.PUT("/api/2.1/repertoire/{drillable}", {
    params: { path: { drillable: drillId } },
  });
  seen += added.response.ok ? 1 : 0;
  const groups = await client.GET("/api/2.1/groups", { params: { query: { resultSize: 10 } } });
  for (const group of groups.data?.groups ?? [])
    seen += (group.name ?? "").length + (group.counts?.members ?? 0);
  const members = await client.GET("/api/2.1/group/{group}/members", {
    params: { path: { group: "g" }, query: { resultSize: 10 } },
  });
  seen += members.data?.members?.length ?? 0;
  const session = await client.GET("/api/2.1/session");
  seen += session.response.ok ? 1 : 0;
  const user = await client.GET("/api/2.1/user");
  seen += user.response.ok ? 1 : 0;
  const version = await client.GET("/api/2.1/version");
  return seen + (version.response.ok ? 1 : 0);
}
