/**
 * The page's side of the in-page sandbox: the worker started on the first Send, the messages to it
 * and back (`protocol.ts`), and its timed steps put on the page's performance timeline.
 */
import type {
  ExchangeSteps,
  FromWorker,
  ToWorker,
  TryItAnswer,
  TryItRequest,
  WorkerSpan,
} from "../protocol.ts";
import { forget, journal, remember } from "./journal.ts";

/** An answer of the sandbox; the first also says how many earlier changes it replayed, and the exchange. */
export type SandboxAnswer = TryItAnswer & { replayed?: number; steps?: ExchangeSteps };

interface SandboxLink {
  worker: Worker;
  ready: Promise<{ replayed: number; exchange?: ExchangeSteps }>;
  pending: Map<number, (message: FromWorker) => void>;
}

let sandbox: SandboxLink | undefined;
let nextId = 1;

/** Puts the worker's timed steps on this page's performance timeline, where DevTools shows them. */
function recordSpans(spans: readonly WorkerSpan[]): void {
  for (const span of spans) {
    performance.measure(`try-it ${span.name}`, {
      start: span.start - performance.timeOrigin,
      duration: span.duration,
    });
  }
}

function startSandbox(workerUrl: string, message: ToWorker): SandboxLink {
  const worker = new Worker(workerUrl, { type: "module", name: "drill-sandbox" });
  const pending = new Map<number, (message: FromWorker) => void>();
  let resolveReady: (value: { replayed: number; exchange?: ExchangeSteps }) => void = () => {};
  let rejectReady: (error: Error) => void = () => {};
  const ready = new Promise<{ replayed: number; exchange?: ExchangeSteps }>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
    const data = event.data;
    if (data.type === "start-failed") {
      rejectReady(new Error(`the sandbox could not start: ${data.message}`));
      return;
    }
    if (data.type === "ready") {
      recordSpans(data.spans);
      resolveReady(
        data.exchange ? { replayed: data.replayed, exchange: data.exchange } : { replayed: data.replayed },
      );
      return;
    }
    if (data.type === "answer") recordSpans(data.spans);
    pending.get(data.id)?.(data);
    pending.delete(data.id);
  });
  worker.addEventListener("error", (event) =>
    rejectReady(new Error(`the sandbox could not start: ${event.message}`)),
  );
  worker.postMessage(message);
  return { worker, ready, pending };
}

/**
 * Sends a request to the page session's sandbox, starting its worker (from `workerUrl`) on the first
 * call with the journal to replay; a request that changed the state goes into the journal.
 */
export async function sendToSandbox(workerUrl: string, request: TryItRequest): Promise<SandboxAnswer> {
  const first = sandbox === undefined;
  sandbox ??= startSandbox(workerUrl, { type: "start", journal: journal() });
  const link = sandbox;
  const started = await link.ready.catch((error: Error) => {
    // A failed start is not kept: the next Send tries a fresh worker.
    link.worker.terminate();
    if (sandbox === link) sandbox = undefined;
    throw error;
  });
  const id = nextId++;
  const reply = await new Promise<FromWorker>((resolve) => {
    link.pending.set(id, resolve);
    link.worker.postMessage({ type: "send", id, request } satisfies ToWorker);
  });
  if (reply.type === "failed") throw new Error(reply.message);
  if (reply.type !== "answer") throw new Error("the sandbox answered out of turn");
  const answer: SandboxAnswer = { ...reply.answer };
  if (first) {
    answer.replayed = started.replayed;
    if (started.exchange) answer.steps = started.exchange;
  }
  if (request.method !== "GET" && !request.tokenExchange && reply.answer.status < 400) remember(request);
  return answer;
}

/** Whether this page session's sandbox has been started (the next Send is not the first). */
export function sandboxStarted(): boolean {
  return sandbox !== undefined;
}

/** Reset: the journal emptied and the worker stopped; the next Send starts from the starting data. */
export function resetSandbox(): void {
  forget();
  sandbox?.worker.terminate();
  sandbox = undefined;
}
