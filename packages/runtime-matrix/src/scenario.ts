/**
 * The integration every runtime of the matrix runs, written against the Web platform only
 * (no Node built-in, no `process`), so the same code runs in Node, Bun, Deno, workerd and a
 * browser worker: discovery and token exchange, a store search, a practice question, an answer.
 *
 * It reports what it saw, never a secret: the host compares the report with the sandbox's
 * dataset and the sandbox's request log.
 */
import type { ServiceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, unwrap } from "@drill-practice/client";

/** What the host tells a runtime: where the sandbox is and what to search for. */
export interface ScenarioInput {
  readonly baseUrl: string;
  /** Words of a drill's name; the host knows which drills must match. */
  readonly searchQuery: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The service account's key file, as its JSON text. */
  readonly keyJson: string;
  /**
   * The right `tell` for each `ask` of the host's data, so the runtime can send the right answer
   * (and a wrong one beside it) and the host can check how the sandbox evaluated both.
   */
  readonly answerKey: Readonly<Record<string, string>>;
}

/** How the sandbox evaluated one value of the answer, as the reply's `termEvaluations` give it. */
export interface TermReport {
  readonly value: string;
  readonly result: string;
}

/** What a runtime reports back. `step` names the first step that failed. */
export type ScenarioReport =
  | {
      readonly ok: true;
      readonly runtime: string;
      readonly token: { readonly tokenType: string; readonly lifetimeSeconds: number };
      readonly store: { readonly total: number; readonly ids: readonly string[] };
      readonly question: {
        readonly drillId: string;
        readonly ask: string;
        readonly choices: readonly string[];
      };
      readonly answer: {
        /** The values sent as the repeated form field `answer`: the right one, then a wrong one. */
        readonly values: readonly string[];
        readonly result: string;
        readonly terms: readonly TermReport[];
        readonly overallProficiency: number | undefined;
      };
    }
  | { readonly ok: false; readonly runtime: string; readonly step: Step; readonly error: string };

type Step = "setup" | "token" | "store" | "question" | "answer";

/** The runtime's own platform `fetch`, passed explicitly by the cases that test that path. */
export interface ScenarioOptions {
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * Runs the integration with an auth object made by the runtime's entry (each entry picks the
 * package entry point and key form it exercises).
 */
export async function runScenario(
  runtime: string,
  input: ScenarioInput,
  makeAuth: () => ServiceAccountAuth,
  options: ScenarioOptions = {},
): Promise<ScenarioReport> {
  let step: Step = "setup";
  try {
    const auth = makeAuth();
    const client = createDrillClient({
      baseUrl: input.baseUrl,
      auth,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });

    step = "token";
    // Discovery and the token exchange; the token itself never leaves this function.
    const token = await auth.getToken();
    const lifetimeSeconds = Math.round((token.expiresAt - token.receivedAt) / 1000);

    step = "store";
    const page = await unwrap(
      client.GET("/api/2/store", {
        params: { query: { query: input.searchQuery, searchField: ["NAME"], resultSize: "10" } },
      }),
    );
    const ids = page.drills.map((drill) => drill.id);
    const drill = page.drills.find((candidate) => candidate.type === "DRILL");
    if (drill === undefined) throw new Error(`the search for "${input.searchQuery}" found no drill`);

    step = "question";
    const { question } = await unwrap(
      client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: drill.id } } }),
    );
    const choices = (question?.tell?.terms ?? []).map((term) => String(term.value));
    const ask = String(question?.ask?.term?.value);
    if (question?.reference === undefined) throw new Error("the question has no reference");
    const right = input.answerKey[ask];
    if (right === undefined) throw new Error(`the host's data has no answer to "${ask}"`);
    const wrong = choices.find((choice) => choice !== right);
    if (wrong === undefined) throw new Error(`the question "${ask}" offers no wrong choice`);
    const values = [right, wrong];

    step = "answer";
    // Two values, so the repeated form field (answer=…&answer=…) goes over this runtime's fetch.
    const reply = await unwrap(
      client.PUT("/api/2/answer/{reference}", {
        params: { path: { reference: question.reference } },
        body: { answer: values },
      }),
    );
    const terms = (reply.evaluation?.termEvaluations ?? []).map((term) => ({
      value: String(term.value),
      result: String(term.result),
    }));

    return {
      ok: true,
      runtime,
      token: { tokenType: token.tokenType, lifetimeSeconds },
      store: { total: page.total, ids },
      question: { drillId: drill.id, ask, choices },
      answer: {
        values,
        result: String(reply.evaluation?.result),
        terms,
        overallProficiency: reply.proficiency?.overall,
      },
    };
  } catch (error) {
    return { ok: false, runtime, step, error: describeError(error) };
  }
}

/** Name, code and message of an error, without its stack: enough to tell why a runtime failed. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === "string" ? ` [${code}]` : ""}: ${error.message}`;
  }
  return String(error);
}
