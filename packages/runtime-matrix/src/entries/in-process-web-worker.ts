/**
 * A dedicated Web Worker in Chromium, in-process case: the browser bundle of the sandbox's Web entry
 * with auth and client; the sandbox answers inside the worker, nothing is sent to the network.
 */
import { type InProcessInput, runInProcessScenario } from "../in-process-scenario.js";
import { runtimeName } from "../runtime-name.js";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: { readonly data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.addEventListener("message", (event) => {
  void runInProcessScenario(runtimeName(), event.data as InProcessInput).then((report) =>
    scope.postMessage(report),
  );
});
