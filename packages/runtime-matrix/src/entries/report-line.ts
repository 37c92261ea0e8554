/**
 * How a runtime process hands its report to the host: one line with a marker, so that warnings a
 * runtime prints on its own cannot be mistaken for it.
 */
import type { InProcessInput, InProcessReport } from "../in-process-scenario.js";
import type { ScenarioInput, ScenarioReport } from "../scenario.js";

/** Prefix of the report line on standard output. */
export const REPORT_MARKER = "RUNTIME-MATRIX-REPORT ";

/** Name of the environment variable that carries the scenario's input (JSON). */
export const INPUT_VARIABLE = "DRILL_MATRIX_INPUT";

/**
 * The scenario's input, from the environment (Node, Bun and Deno all expose `process.env`).
 *
 * @example
 * ```ts
 * import { readInput } from "./report-line.js";
 *
 * // In a runtime the matrix started: it passes the case's input in the DRILL_MATRIX_INPUT variable.
 * const input = readInput(); // { baseUrl, searchQuery, clientId, clientSecret, keyJson, answerKey, keyFile? }
 * ```
 */
export function readInput(): ScenarioInput & { readonly keyFile?: string } {
  return JSON.parse(inputText()) as ScenarioInput & { readonly keyFile?: string };
}

/**
 * The in-process case's input, from the same variable.
 *
 * @example
 * ```ts
 * import { readInProcessInput } from "./report-line.js";
 *
 * const input = readInProcessInput(); // { data, tokenLifetimeSeconds, searchQuery, answerKey }
 * ```
 */
export function readInProcessInput(): InProcessInput {
  return JSON.parse(inputText()) as InProcessInput;
}

function inputText(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const text = env?.[INPUT_VARIABLE];
  if (text === undefined) throw new Error(`${INPUT_VARIABLE} is not set`);
  return text;
}

/**
 * @example
 * ```ts
 * import { serviceAccountAuth } from "@drill-practice/auth";
 * import { runtimeName } from "../runtime-name.js";
 * import { runScenario } from "../scenario.js";
 * import { printReport, readInput } from "./report-line.js";
 *
 * const input = readInput();
 * const { keyJson, clientId, clientSecret } = input;
 * const makeAuth = () => serviceAccountAuth({ key: keyJson, clientId, clientSecret });
 * printReport(await runScenario(runtimeName(), input, makeAuth));
 * ```
 */
export function printReport(report: ScenarioReport | InProcessReport): void {
  console.log(`${REPORT_MARKER}${JSON.stringify(report)}`);
}
