/**
 * Practice and the repertoire through `@drill-practice/client/v2.1.1`, over the practice book 2.0 and
 * 2.1 share: a question asked in 2.1.1 is answered in 2.0, and the other way round.
 */
import { describe, expect, it } from "vitest";
import { client, SMALL_DATA, start, tokenFor } from "../support/helpers.js";
import { v211Client } from "../support/version-clients.js";

/** The right answer for an asked term, looked up in the test dataset (not in the sandbox). */
function rightAnswer(ask: string): string {
  const item = SMALL_DATA.drills.flatMap((d) => d.items).find((i) => i.ask === ask);
  if (item === undefined) throw new Error(`no item asks ${ask}`);
  return item.tell;
}

describe("practice in 2.1.1", () => {
  it("asks in 2.1.1 and grades the answer, across versions both ways", async () => {
    const sandbox = await start();
    const ana = await v211Client(sandbox, "u-ana");
    const raw20 = client(sandbox, await tokenFor(sandbox, "u-ana"));

    const asked = await ana.GET("/api/2.1.1/question/{drill}", { params: { path: { drill: "es-animals" } } });
    expect(asked.response.status).toBe(200);
    const question = asked.data?.question;
    if (question === undefined) throw new Error("no question in the answer");
    // The 2.1.1 Question object leaves `ask` open; the sandbox fills in the term asked.
    const asking = question.ask as { term: { value: string } };
    const right = rightAnswer(asking.term.value);
    // Answered through 2.0: the reference 2.1.1 gave is the same question.
    const graded20 = await raw20("PUT", `/api/2/answer/${encodeURIComponent(question.reference)}`, {
      body: { answer: right },
    });
    expect(graded20.body).toMatchObject({ evaluation: { result: "CORRECT" } });

    const asked20 = await raw20("GET", "/api/2/question/es-animals");
    const next = (asked20.body as { question: { reference: string; ask: { term: { value: string } } } })
      .question;
    const graded = await ana.PUT("/api/2.1.1/answer/{reference}", {
      params: { path: { reference: next.reference } },
      body: { answer: ["certainly not this"] },
    });
    expect(graded.response.status).toBe(200);
    expect(graded.data?.evaluation).toMatchObject({ result: "INCORRECT" });
    expect(graded.data?.proficiency).toMatchObject({ overall: expect.any(Number) });
  });

  it("adds to the repertoire in 2.1.1 and lists it in 2.1.1 and 2.1, paged", async () => {
    const sandbox = await start();
    const ana = await v211Client(sandbox, "u-ana");
    for (const drillable of ["es-animals", "de-business"]) {
      const added = await ana.PUT("/api/2.1.1/repertoire/{drillable}", { params: { path: { drillable } } });
      expect(added.response.status).toBe(200);
      expect(added.data).toMatchObject({ description: expect.any(String) });
    }
    const listed = await ana.GET("/api/2.1.1/repertoire", { params: { query: { resultSize: "1" } } });
    expect(listed.response.status).toBe(200);
    const page = listed.data as { total: number; drills: { id: string }[] };
    expect(page.drills).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    const raw21 = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const all = (await raw21("GET", "/api/2.1/repertoire")).body as { drills: { id: string }[] };
    expect(all.drills.map((d) => d.id)).toEqual(expect.arrayContaining(["es-animals", "de-business"]));
  });
});
