// A consumer's ten typed API 2.0 calls through the client, type-checked by bench/typecheck-cost.ts
// (once as it is, once through the all-versions entry, once rewritten for openapi-fetch alone).
import { createDrillClient } from "@drill-practice/client/v2.0";

const client = createDrillClient({ baseUrl: "https://drill.example" });

export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  const store = await client.GET("/api/2/store", {
    params: { query: { query: "spanish AND verbs", searchField: ["NAME", "TAGS"], resultSize: "20" } },
  });
  for (const drill of store.data?.drills ?? [])
    seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  const related = await client.GET("/api/2/store/related/{drill_id}", {
    params: { path: { drill_id: drillId } },
  });
  seen += related.response.ok ? 1 : 0;
  const question = await client.GET("/api/2/question/{drill_id}", {
    params: { path: { drill_id: drillId } },
  });
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  const combined = await client.GET("/api/2/question", {
    params: { query: { drill: [drillId, "drill-2"] } },
  });
  const reference = combined.data?.question?.reference ?? "";
  const answer = await client.PUT("/api/2/answer/{reference}", {
    params: { path: { reference } },
    body: { answer: [choices[0] ?? ""] },
  });
  seen += answer.response.status;
  const preferences = await client.GET("/api/2/practice-preferences/{drill_id}", {
    params: { path: { drill_id: drillId } },
  });
  seen += preferences.response.ok ? 1 : 0;
  const repertoire = await client.GET("/api/2/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  const added = await client.PUT("/api/2/repertoire");
  seen += added.response.ok ? 1 : 0;
  const removed = await client.DELETE("/api/2/repertoire");
  seen += removed.response.ok ? 1 : 0;
  const version = await client.GET("/api/2/version");
  seen += version.response.ok ? 1 : 0;
  return seen + choices.length;
}
