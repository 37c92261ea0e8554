import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createDefaultDataset, DEFAULT_IDS } from "../../src/data/dataset.js";
import { createState } from "../../src/domain/state.js";
import type { QuestionResponse } from "../../src/domain/types.js";
import { DomainError } from "../../src/errors.js";

const CLIENTS = 50;
const ROUNDS = 20;
const DRILL = "geo-capitals-europe";

describe("50 concurrent clients", () => {
  it("lose no answer and count none twice", async () => {
    const data = createDefaultDataset();
    const state = createState(data);
    const items = data.drills.find((d) => d.id === DRILL)?.items ?? [];
    const expectedFor = (q: QuestionResponse) => items.find((i) => i.ask === q.question.ask.term.value)?.tell;
    const users: string[] = [
      DEFAULT_IDS.users.ana,
      DEFAULT_IDS.users.bram,
      DEFAULT_IDS.users.chloe,
      DEFAULT_IDS.users.dieter,
      DEFAULT_IDS.users.emma,
    ];
    const sent = new Map(users.map((u) => [u, { answers: 0, correct: 0, sequence: [] as number[] }]));

    // Ten clients per user share one rendition and one question session; each yields to the event
    // loop a varying number of times between calls so that their steps interleave.
    const client = async (n: number) => {
      const user = users[n % users.length] as string;
      const tally = sent.get(user) as { answers: number; correct: number; sequence: number[] };
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = (n + round) % 3; k >= 0; k--) await nextTurn();
        const q = state.nextQuestion(user, [DRILL]);
        tally.sequence.push(q.question.sequenceNr);
        for (let k = (n * 7 + round) % 4; k >= 0; k--) await nextTurn();
        const right = expectedFor(q);
        const wantCorrect = (n + round) % 3 !== 0;
        const value = wantCorrect ? right : q.question.tell.terms.find((t) => t.value !== right)?.value;
        const result = state.answer(user, q.question.reference, { value });
        tally.answers++;
        if (result.correct) tally.correct++;
        expect(result.correct).toBe(wantCorrect);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    for (const user of users) {
      const tally = sent.get(user) as { answers: number; correct: number; sequence: number[] };
      const perUser = (CLIENTS / users.length) * ROUNDS;
      expect(tally.answers).toBe(perUser);
      const rendition = state.getRendition(user, DRILL);
      expect(rendition.answerCount).toBe(tally.answers);
      expect(rendition.correctCount).toBe(tally.correct);
      expect(tally.sequence.slice().sort((a, b) => a - b)).toEqual(
        Array.from({ length: perUser }, (_, i) => i + 1),
      );
    }
  });

  it("accept exactly one of two racing answers to the same question", async () => {
    const state = createState(createDefaultDataset());
    const user = DEFAULT_IDS.users.ana;
    const questions = Array.from({ length: CLIENTS }, () => state.nextQuestion(user, [DRILL]));
    const attempt = async (q: QuestionResponse, delay: number) => {
      for (let k = 0; k < delay; k++) await nextTurn();
      try {
        state.answer(user, q.question.reference, { value: q.question.tell.terms[0]?.value });
        return "accepted";
      } catch (error) {
        if (error instanceof DomainError) return error.id;
        throw error;
      }
    };
    const outcomes = await Promise.all(
      questions.flatMap((q, i) => [attempt(q, i % 3), attempt(q, (i + 1) % 3)]).map((p) => p),
    );
    for (let i = 0; i < questions.length; i++) {
      expect([outcomes[2 * i], outcomes[2 * i + 1]].sort()).toEqual(["accepted", "answer_already_given"]);
    }
    expect(state.getRendition(user, DRILL).answerCount).toBe(CLIENTS);
  });
});
