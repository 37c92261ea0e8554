/**
 * A dedicated Web Worker in Chromium: the bundle of the packed packages for the browser platform,
 * the key given as JSON text. A worker has no `document`, so auth runs as it would in a
 * browser-hosted server-side context; in a page it refuses on purpose (the key would be public).
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { runtimeName } from "../runtime-name.js";
import { runScenario, type ScenarioInput } from "../scenario.js";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: { readonly data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.addEventListener("message", (event) => {
  const input = event.data as ScenarioInput;
  void runScenario(runtimeName(), input, () =>
    serviceAccountAuth({ key: input.keyJson, clientId: input.clientId, clientSecret: input.clientSecret }),
  ).then((report) => scope.postMessage(report));
});
