/**
 * The in-page sandbox: a dedicated Web Worker, started by the panel on the first Send. This entry is
 * small on purpose: it starts fetching the sandbox's description and data (`sandbox-data.ts`) at
 * once, and the sandbox itself (`sandbox-session.ts`, the bulk of the code) is loaded alongside.
 */
import type { FromWorker, ToWorker, WorkerSpan } from "../protocol.ts";
import { sandboxTexts } from "./sandbox-data.ts";

interface WorkerScope {
  addEventListener(type: "message", listener: (event: { readonly data: ToWorker }) => void): void;
  postMessage(message: FromWorker): void;
}
const scope = globalThis as unknown as WorkerScope;

// Counted from the worker's own time origin (its creation): code fetched, compiled and run, data fetched.
const loaded = Promise.all([
  import("./sandbox-session.ts"),
  sandboxTexts.description,
  sandboxTexts.data,
]).then(([session]) => ({ session, at: performance.now() }));
let loadCounted = false;

function failure(message: ToWorker, error: Error): FromWorker {
  const text = `the sandbox could not be loaded: ${error.message}`;
  return message.type === "send"
    ? { type: "failed", id: message.id, message: text }
    : { type: "start-failed", message: text };
}

// One message at a time, in order: a Send waits for the start (and its replay) before it runs.
let queue: Promise<unknown> = Promise.resolve();

scope.addEventListener("message", (event) => {
  const message = event.data;
  queue = queue.then(async () => {
    let session: Awaited<typeof loaded>["session"];
    const spans: WorkerSpan[] = [];
    try {
      const done = await loaded;
      session = done.session;
      if (!loadCounted) {
        loadCounted = true;
        spans.push({
          name: "load the sandbox's code and data",
          start: performance.timeOrigin,
          duration: done.at,
        });
      }
    } catch (error) {
      scope.postMessage(failure(message, error as Error));
      return;
    }
    scope.postMessage(await session.handle(message, spans));
  });
});
