/**
 * Node, Bun or Deno process: the Node-only subpath `@drill-practice/auth/node`, the key read from
 * its file.
 */
import { serviceAccountAuth } from "@drill-practice/auth/node";
import { runtimeName } from "../runtime-name.js";
import { runScenario } from "../scenario.js";
import { printReport, readInput } from "./report-line.js";

const input = readInput();
const { keyFile } = input;
if (keyFile === undefined) throw new Error("this entry needs keyFile in its input");
printReport(
  await runScenario(runtimeName(), input, () =>
    serviceAccountAuth({ keyFile, clientId: input.clientId, clientSecret: input.clientSecret }),
  ),
);
