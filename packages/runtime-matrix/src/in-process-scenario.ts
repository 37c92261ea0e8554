/**
 * The matrix's scenario against the in-process sandbox: `createSandbox` from the sandbox's Web entry
 * runs inside the runtime itself, with the host's data, and its `fetch` is handed to auth and client.
 * No server runs on the host and no request leaves the runtime. Web APIs only, like the scenario.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createSandbox, type SandboxData } from "@drill-practice/sandbox";
import { describeError, runScenario, type ScenarioInput, type ScenarioReport } from "./scenario.js";

/** What the host tells a runtime for the in-process case: the data, not an address or credentials. */
export interface InProcessInput {
  /** The sandbox's dataset, in its data file format. */
  readonly data: unknown;
  readonly tokenLifetimeSeconds: number;
  readonly searchQuery: string;
  readonly answerKey: Readonly<Record<string, string>>;
}

/** The scenario's report, with what the sandbox inside the runtime saw. */
export interface InProcessReport {
  readonly scenario: ScenarioReport;
  /** The in-process sandbox's `url`. */
  readonly url: string | undefined;
  /** Its request log (`onRequest` lines: no header, body or query value). */
  readonly requests: readonly string[];
  /** Responses that did not match the description (the sandbox runs with `validateResponses`). */
  readonly violations: readonly string[];
}

/** Runs the scenario against a sandbox created inside this runtime, and reports what that sandbox saw. */
export async function runInProcessScenario(runtime: string, input: InProcessInput): Promise<InProcessReport> {
  const requests: string[] = [];
  let sandbox: Awaited<ReturnType<typeof createSandbox>>;
  try {
    sandbox = await createSandbox({
      data: input.data as SandboxData,
      tokenLifetimeSeconds: input.tokenLifetimeSeconds,
      validateResponses: true,
      onRequest: (line) => requests.push(line),
    });
  } catch (error) {
    const scenario: ScenarioReport = { ok: false, runtime, step: "setup", error: describeError(error) };
    return { scenario, url: undefined, requests, violations: [] };
  }
  const { fetch } = sandbox;
  const { clientId, clientSecret } = sandbox.credentials;
  const keyFile = sandbox.credentials.keyFile();
  const scenarioInput: ScenarioInput = {
    baseUrl: sandbox.url,
    searchQuery: input.searchQuery,
    answerKey: input.answerKey,
    clientId,
    clientSecret,
    keyJson: JSON.stringify(keyFile ?? null),
  };
  const scenario = await runScenario(
    runtime,
    scenarioInput,
    () => serviceAccountAuth({ key: scenarioInput.keyJson, clientId, clientSecret, fetch }),
    { fetch },
  );
  await sandbox.close();
  return {
    scenario,
    url: sandbox.url,
    requests,
    violations: sandbox.responseViolations.map((violation) => violation.message),
  };
}
