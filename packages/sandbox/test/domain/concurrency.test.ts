import { describe, expect, it } from "vitest";
import { client, SMALL_DATA, start, tokenFor } from "../support/helpers.js";

interface QuestionBody {
  question: {
    reference: string;
    sequenceNr: number;
    ask: { term: { value: string } };
    tell: { terms: { value: string }[] };
  };
}

const TELL = new Map(SMALL_DATA.drills.flatMap((d) => d.items.map((i) => [i.ask, i.tell] as const)));

describe("concurrency", () => {
  it("50 concurrent clients practising lose and double-count no answer", { timeout: 180_000 }, async () => {
    const sandbox = await start();
    const CLIENTS = 50;
    const ROUNDS = 8;
    // Every client has its own token for the same user, so they all update the same rendition.
    const tokens = await Promise.all(Array.from({ length: CLIENTS }, () => tokenFor(sandbox, "u-ana")));
    const sequenceNrs: number[] = [];
    let correct = 0;

    await Promise.all(
      tokens.map(async (token, clientNr) => {
        const api = client(sandbox, token);
        for (let round = 0; round < ROUNDS; round++) {
          const q = await api("GET", "/api/2.1/question/es-animals");
          expect(q.status).toBe(200);
          const { question } = q.body as QuestionBody;
          sequenceNrs.push(question.sequenceNr);
          const expected = TELL.get(question.ask.term.value);
          const answerRight = (clientNr + round) % 3 !== 0;
          const value = answerRight ? expected : question.tell.terms.find((t) => t.value !== expected)?.value;
          const a = await api("PUT", `/api/2.1/answer/${encodeURIComponent(question.reference)}`, {
            body: { answer: value ?? "" },
          });
          expect(a.status).toBe(200);
          if ((a.body as { evaluation: { result: string } }).evaluation.result === "CORRECT") correct++;
        }
      }),
    );

    const total = CLIENTS * ROUNDS;
    // Sequence numbers were handed out once each.
    expect(new Set(sequenceNrs).size).toBe(total);
    const rendition = await client(sandbox, tokens[0])("GET", "/api/2.1/rendition/es-animals");
    expect(rendition.body).toMatchObject({ answerCount: total, correctCount: correct });
    expect(correct).toBeGreaterThan(0);
    expect(correct).toBeLessThan(total);
  });

  it("accepts exactly one of 50 concurrent answers to the same question", async () => {
    const sandbox = await start();
    const token = await tokenFor(sandbox, "u-ana");
    const api = client(sandbox, token);
    const { question } = (await api("GET", "/api/2/question/es-colours")).body as QuestionBody;
    const value = TELL.get(question.ask.term.value);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api("PUT", `/api/2/answer/${encodeURIComponent(question.reference)}`, {
          body: { answer: value ?? "" },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    expect((await api("GET", "/api/2.1/rendition/es-colours")).body).toMatchObject({
      answerCount: 1,
      correctCount: 1,
    });
  });
});
