/**
 * "User code" for the in-process examples: a small function a team might write on top of the client,
 * which finds drills in the store and reports how an answer to the first one's question went. It takes
 * the client as a parameter, so tests hand it one wired to the in-process sandbox.
 */
import type { DrillClient } from "@drill-practice/client";
import { unwrap } from "@drill-practice/client";

export interface StoreReport {
  readonly total: number;
  readonly firstDrill: string | undefined;
  readonly evaluation: string | undefined;
}

/** Searches the store for `query` and answers the first drill's question with its first choice. */
export async function storeReport(client: DrillClient, query: string): Promise<StoreReport> {
  const results = await unwrap(
    client.GET("/api/2/store", {
      params: { query: { query, searchField: ["NAME", "TAGS"], resultSize: "5" } },
    }),
  );
  const first = results.drills.find((d) => d.type === "DRILL");
  if (!first) return { total: results.total, firstDrill: undefined, evaluation: undefined };
  const { question } = await unwrap(
    client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: first.id } } }),
  );
  const choice = question?.tell?.terms?.[0]?.value ?? "";
  const reply = await unwrap(
    client.PUT("/api/2/answer/{reference}", {
      params: { path: { reference: question?.reference ?? "" } },
      body: { answer: [choice] },
    }),
  );
  return { total: results.total, firstDrill: first.id, evaluation: reply.evaluation?.result };
}
