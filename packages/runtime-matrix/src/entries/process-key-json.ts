/**
 * Node, Bun or Deno process: the auth package's main entry, the key given as its JSON text.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { runtimeName } from "../runtime-name.js";
import { runScenario } from "../scenario.js";
import { printReport, readInput } from "./report-line.js";

const input = readInput();
printReport(
  await runScenario(runtimeName(), input, () =>
    serviceAccountAuth({ key: input.keyJson, clientId: input.clientId, clientSecret: input.clientSecret }),
  ),
);
