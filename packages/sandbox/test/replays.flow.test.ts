/**
 * Replays of what real clients of the service send, written from the observed facts in
 * shared/service-conventions.md (not from their code), against the sandbox:
 *
 * - a small practice client (BOT): `Authorization: Bearer`, reads `question.ask.term.value`,
 *   `question.tell.composition` and `question.reference`, answers with the form field `answer`
 *   (repeated for several values) and reads `evaluation.result`, `evaluation.termEvaluations[].value`
 *   and `proficiency.overall`;
 * - the vendor's SDK and a learning-platform plugin (SDK, LMS): the same with `Authorization: OAuth`,
 *   form-encoded writes, any status other than 200 an error whose `description` is shown.
 *
 * Plain fetch and URLSearchParams on purpose: this is the wire as those clients produce it.
 */
import { describe, expect, it } from "vitest";
import { SMALL_DATA, start, type TestSandbox, tokenFor } from "./support/helpers.js";

interface Question {
  reference: string;
  ask: { term: { value: string } };
  tell: { composition: string; terms: { value: string }[] };
}
interface AnswerReply {
  evaluation: { result: string; termEvaluations: { value: string; result: string }[] };
  proficiency: { overall: number };
}

/** The right answer, from the test's own copy of the data (not from the sandbox). */
function expectedTell(ask: string): string {
  for (const drill of SMALL_DATA.drills) {
    const item = drill.items.find((i) => i.ask === ask);
    if (item) return item.tell;
  }
  throw new Error(`no item asks ${ask}`);
}

/** One practice client: a scheme word, a token, and the calls those clients make. */
function practiceClient(sandbox: TestSandbox, scheme: "Bearer" | "OAuth", token: string) {
  const authorization = `${scheme} ${token}`;
  return {
    async question(drill: string): Promise<Question> {
      const res = await sandbox.fetch(`${sandbox.url}/api/2/question/${encodeURIComponent(drill)}`, {
        headers: { Authorization: authorization },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { question: Question }).question;
    },
    async answer(reference: string, values: readonly string[]): Promise<{ status: number; body: unknown }> {
      const form = new URLSearchParams();
      for (const value of values) form.append("answer", value);
      const res = await sandbox.fetch(`${sandbox.url}/api/2/answer/${encodeURIComponent(reference)}`, {
        method: "PUT",
        headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      });
      return { status: res.status, body: await res.json() };
    },
  };
}

async function practiseLoop(scheme: "Bearer" | "OAuth") {
  const sandbox = await start();
  const bot = practiceClient(sandbox, scheme, await tokenFor(sandbox, "u-ana"));
  const overall: number[] = [];
  let rights = 0;
  for (let round = 0; round < 8; round++) {
    const question = await bot.question("es-animals");
    expect(question.tell.composition).toBe("SINGLE");
    const right = expectedTell(question.ask.term.value);
    const wrong = question.tell.terms.map((t) => t.value).find((value) => value !== right) ?? "zebra";
    // Every third answer wrong, the rest right; the third round sends two values (a repeated field).
    const values = round === 2 ? [wrong, right] : round % 3 === 0 ? [wrong] : [right];
    const { status, body } = await bot.answer(question.reference, values);
    expect(status).toBe(200);
    const reply = body as AnswerReply;
    const allRight = values.every((v) => v === right);
    expect(reply.evaluation.result).toBe(allRight ? "CORRECT" : "INCORRECT");
    // One evaluation per given value, then one per expected term not given.
    const given = reply.evaluation.termEvaluations.slice(0, values.length);
    expect(given.map((t) => t.value)).toEqual(values);
    expect(given.map((t) => t.result)).toEqual(values.map((v) => (v === right ? "CORRECT" : "INCORRECT")));
    const missed = reply.evaluation.termEvaluations.slice(values.length);
    expect(missed).toEqual(values.includes(right) ? [] : [{ value: right, result: "MISSED" }]);
    expect(Number.isInteger(reply.proficiency.overall)).toBe(true);
    expect(reply.proficiency.overall).toBeGreaterThanOrEqual(0);
    expect(reply.proficiency.overall).toBeLessThanOrEqual(100);
    overall.push(reply.proficiency.overall);
    if (allRight) rights++;
  }
  // The proficiency went up with the right answers (the first answer was wrong, it starts at 0).
  expect(overall[0]).toBe(0);
  expect(Math.max(...overall)).toBeGreaterThan(0);
  const status = await sandbox.fetch(`${sandbox.url}/api/2.1/rendition/es-animals`, {
    headers: { Authorization: `${scheme} ${await tokenFor(sandbox, "u-ana")}` },
  });
  expect(await status.json()).toMatchObject({ answerCount: 8, correctCount: rights });
}

describe("replays of real clients", () => {
  it("practises with Bearer: form answers, single and repeated, read as those clients read them", async () => {
    await practiseLoop("Bearer");
  });

  it("practises the same with the OAuth scheme word the vendor's SDK sends", async () => {
    await practiseLoop("OAuth");
  });

  it("gets 501, not 415, for a form-encoded write to an operation the sandbox does not simulate", async () => {
    const sandbox = await start();
    const token = await tokenFor(sandbox);
    for (const scheme of ["Bearer", "OAuth"]) {
      const res = await sandbox.fetch(`${sandbox.url}/api/2.1/user/u-ana/catalog/cat-1`, {
        method: "PUT",
        headers: {
          Authorization: `${scheme} ${token}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ note: "Year 9 Spanish", tag: "verbs" }).toString(),
      });
      expect(res.status).toBe(501);
      // Those clients treat any status but 200 as an error and show its description.
      const error = (await res.json()) as { ID: string; id: string; description: string };
      expect(error.id).toBe("not_simulated");
      expect(error.ID).toBe(error.id);
      expect(error.description).toContain("grantCatalogAccess_v2_1");
    }
  });

  it("sends a PUT without parameters as Content-Length: 0, which is accepted", async () => {
    const sandbox = await start();
    const token = await tokenFor(sandbox, "u-ana");
    const res = await sandbox.fetch(`${sandbox.url}/api/2.1/repertoire/es-animals`, {
      method: "PUT",
      headers: { Authorization: `OAuth ${token}` },
    });
    expect(res.status).toBe(200);
  });

  it("shows the description of an error, whichever identifier field a client reads", async () => {
    const sandbox = await start();
    const token = await tokenFor(sandbox, "u-ana");
    const res = await sandbox.fetch(`${sandbox.url}/api/2/answer/made-up`, {
      method: "PUT",
      headers: { Authorization: `OAuth ${token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "answer=dog",
    });
    expect(res.status).not.toBe(200);
    const error = (await res.json()) as { ID: string; id: string; description: string };
    expect([error.ID, error.id]).toEqual(["reference_not_found", "reference_not_found"]);
    expect(error.description).toBe("reference: no question with this reference was given to the user");
  });
});
