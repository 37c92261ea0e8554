/**
 * What the build hands the Try it panel about each operation, and the messages between the panel
 * and the sandbox worker. Types only: shared by the build (Node) and the page's scripts.
 */

/** How faithfully the in-page sandbox answers an operation (the sandbox README's three kinds). */
export type Faithfulness = "simulated" | "example" | "not simulated";

/** One field of the form: a path or query parameter, or a form field of the body. */
export interface TryItField {
  name: string;
  in: "path" | "query" | "form";
  required: boolean;
  /** The values the schema closes the field to (`enum`), shown as choices. */
  choices?: string[];
  /** The field may be sent more than once (an array). */
  repeated: boolean;
  /** Prefilled values: those of the page's own samples. */
  values: string[];
  /** Where a value comes from when the samples cannot name one (a question's `reference`). */
  hint?: string;
}

/** One operation of a reference, as the panel needs it. */
export interface TryItOperation {
  operationId: string;
  method: string;
  /** The path template, `/api/2.1/course/{course}`. */
  path: string;
  fields: TryItField[];
  /**
   * The request body: form fields are in `fields`; a JSON body is edited as text; the others cannot
   * be filled in because the interface does not show them.
   */
  body: "none" | "form" | "token" | { json: string } | { notShown: string };
  authenticated: boolean;
  faithfulness: Faithfulness;
  /** Documented answer statuses (`200`, `2XX`, `default`, …). */
  statuses: string[];
  /** Whether the documented success answers show a schema to check against, or leave it open. */
  successShape: "schema" | "not shown";
  /** Error identifiers the operation's documented error responses list. */
  errorIds: string[];
}

/** The request the panel sends: what the form says, already put together. */
export interface TryItRequest {
  method: string;
  /** Path with the query, as sent. */
  target: string;
  /** `application/x-www-form-urlencoded` fields or a JSON text, if any. */
  body?: { form: [string, string][] } | { json: string };
  authenticated: boolean;
  /** The token exchange: the worker fills fields left empty from the sandbox's credentials. */
  tokenExchange: boolean;
}

/** What the worker answers. */
export interface TryItAnswer {
  status: number;
  headers: [string, string][];
  body: string;
  /** The sandbox found this answer not matching the description (response validation). */
  violation?: string;
  /** The steps of the token exchange, when this request made one. */
  exchange?: ExchangeSteps;
}

/** The token exchange the worker ran, as the panel shows it (the secret and token masked). */
export interface ExchangeSteps {
  assertion: { header: Record<string, unknown>; claims: Record<string, unknown> };
  exchange: { endpoint: string; status: number };
  token: { type: string; expiresIn: number; preview: string };
}

/**
 * One step of the worker's work, timed: the panel puts it on the page's performance timeline (User
 * Timing, `try-it ` and the name), where DevTools and the docs bench read it.
 */
export interface WorkerSpan {
  name: string;
  /** When it started, in ms since the epoch (the worker and the page have different time origins). */
  start: number;
  duration: number;
}

/** Page → worker. */
export type ToWorker =
  | { type: "start"; journal: TryItRequest[] }
  | { type: "send"; id: number; request: TryItRequest }
  | { type: "reset" };

/** Worker → page. */
export type FromWorker =
  | { type: "ready"; replayed: number; exchange?: ExchangeSteps; spans: WorkerSpan[] }
  | { type: "start-failed"; message: string }
  | { type: "answer"; id: number; answer: TryItAnswer; spans: WorkerSpan[] }
  | { type: "failed"; id: number; message: string };
