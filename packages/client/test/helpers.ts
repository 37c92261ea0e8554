/** Test helpers: a recording fetch that answers from a script of handlers. */

export type Handler = (request: Request) => Response | Promise<Response>;

export interface RecordingFetch {
  /** The fetch to inject. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Every request received, in order. */
  readonly requests: Request[];
  /** The body text of every request received, in order. */
  readonly bodies: string[];
}

/**
 * A fetch that records each request and answers with the next handler of
 * `script` (the last one repeats).
 */
export function recordingFetch(...script: Handler[]): RecordingFetch {
  const requests: Request[] = [];
  const bodies: string[] = [];
  return {
    requests,
    bodies,
    fetch: async (request) => {
      requests.push(request);
      bodies.push(await request.clone().text());
      const handler = script[Math.min(requests.length - 1, script.length - 1)];
      if (!handler) throw new Error("recordingFetch: empty script");
      return handler(request);
    },
  };
}

/** A JSON response. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** A fetch that never answers but rejects with the signal's reason on abort. */
export function hangingFetch(): (request: Request) => Promise<Response> {
  return (request) =>
    new Promise<Response>((_resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });
}

export const BASE_URL = "https://drill.example";

export const DRILLABLE = {
  id: "drill-es-verbs",
  name: "Spanish verbs",
  subject: "Spanish",
  type: "DRILL",
  description: "Common regular verbs.",
};

export const QUESTION = {
  question: {
    reference: "ref-1",
    sequenceNr: 1,
    ask: { name: "Spanish", term: { value: "comer" } },
    tell: {
      name: "English",
      composition: "SINGLE",
      type: "MULTIPLE_CHOICE",
      terms: [{ value: "to eat" }, { value: "to drink" }],
    },
  },
  notifications: [],
};
