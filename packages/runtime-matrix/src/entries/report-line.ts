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
 */
export function readInput(): ScenarioInput & { readonly keyFile?: string } {
  return JSON.parse(inputText()) as ScenarioInput & { readonly keyFile?: string };
}

/**
 * The in-process case's input, from the same variable.
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

/** Prints the report as the one marked line the host looks for among the runtime's output. */
export function printReport(report: ScenarioReport | InProcessReport): void {
  console.log(`${REPORT_MARKER}${JSON.stringify(report)}`);
}
