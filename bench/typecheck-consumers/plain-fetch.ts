// The same ten API 2.0 calls with plain `fetch` and a few hand-written interfaces, type-checked by
// bench/typecheck-cost.ts as the floor of any typed client.
const baseUrl = "https://drill.example";

interface Drillable {
  id: string;
  name: string;
  subject: string;
  type: string;
  description: string;
  practice?: { proficiency?: { receptive: number; productive: number; overall: number } };
}
interface Drillables {
  total: number;
  drills: Drillable[];
}
interface QuestionResponse {
  question?: { reference?: string; tell?: { terms?: { value: string }[] } };
  notifications: unknown[];
}

async function getJson<T>(path: string, init?: RequestInit): Promise<{ data?: T; response: Response }> {
  const response = await fetch(baseUrl + path, init);
  return response.ok ? { data: (await response.json()) as T, response } : { response };
}

export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  const id = encodeURIComponent(drillId);
  const search = new URLSearchParams({ query: "spanish AND verbs", resultSize: "20" });
  for (const field of ["NAME", "TAGS"]) search.append("searchField", field);
  const store = await getJson<Drillables>(`/api/2/store?${search}`);
  for (const drill of store.data?.drills ?? [])
    seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  const related = await getJson<Drillables>(`/api/2/store/related/${id}`);
  seen += related.response.ok ? 1 : 0;
  const question = await getJson<QuestionResponse>(`/api/2/question/${id}`);
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  const drills = new URLSearchParams();
  for (const drill of [drillId, "drill-2"]) drills.append("drill", drill);
  const combined = await getJson<QuestionResponse>(`/api/2/question?${drills}`);
  const reference = combined.data?.question?.reference ?? "";
  const answer = await getJson<unknown>(`/api/2/answer/${encodeURIComponent(reference)}`, {
    method: "PUT",
    body: new URLSearchParams({ answer: choices[0] ?? "" }),
  });
  seen += answer.response.status;
  const preferences = await getJson<unknown>(`/api/2/practice-preferences/${id}`);
  seen += preferences.response.ok ? 1 : 0;
  const repertoire = await getJson<unknown>("/api/2/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  const added = await getJson<unknown>("/api/2/repertoire", { method: "PUT" });
  seen += added.response.ok ? 1 : 0;
  const removed = await getJson<unknown>("/api/2/repertoire", { method: "DELETE" });
  seen += removed.response.ok ? 1 : 0;
  const version = await getJson<{ version?: string }>("/api/2/version");
  seen += version.response.ok ? 1 : 0;
  return seen + choices.length;
}
