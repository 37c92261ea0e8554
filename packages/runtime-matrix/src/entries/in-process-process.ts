/**
 * Node, Bun or Deno process, in-process case: bundled whole (the sandbox's Web entry, auth's main
 * entry, the client), so the runtime loads no package and needs no network.
 */
import { runInProcessScenario } from "../in-process-scenario.js";
import { runtimeName } from "../runtime-name.js";
import { printReport, readInProcessInput } from "./report-line.js";

printReport(await runInProcessScenario(runtimeName(), readInProcessInput()));
