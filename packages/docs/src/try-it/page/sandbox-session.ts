/**
 * The sandbox of the page session, inside the worker (`sandbox-worker.ts`): `createSandbox` (the
 * sandbox's Web entry) and the token exchange of `@drill-practice/auth`, as the runtime matrix runs
 * them in Chromium. Auth refuses to run where a `document` exists, because a key in a page is public;
 * a worker has no `document`, and the only key here is the throw-away one this sandbox generated, so
 * running the real exchange here is honest: the steps the reader sees are the ones auth performed.
 */
import {
  createTokenProvider,
  parseServiceAccountKey,
  signAssertion,
  type TokenProvider,
} from "@drill-practice/auth";
import { createSandbox, type InProcessSandbox } from "@drill-practice/sandbox";
import { decodeJwt, decodeProtectedHeader } from "jose";
import type {
  ExchangeSteps,
  FromWorker,
  ToWorker,
  TryItAnswer,
  TryItRequest,
  WorkerSpan,
} from "../protocol.ts";
import { encodeRequest } from "../request.ts";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Runs `work`, adding how long it took to `spans`. */
async function timed<T>(spans: WorkerSpan[], name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    spans.push({ name, start: performance.timeOrigin + start, duration: performance.now() - start });
  }
}

/** Shows the first characters of a secret and how long it is, never the whole. */
function masked(secret: string): string {
  return `${secret.slice(0, 6)}… (${secret.length} characters)`;
}

/** The sandbox of this page session, its token provider and the last exchange it ran. */
interface Session {
  sandbox: InProcessSandbox;
  provider: TokenProvider;
  violations: string[];
  lastExchange?: ExchangeSteps;
}

/** Records what auth sends to the token endpoint and what comes back, for the steps shown. */
function observingFetch(session: () => Session | undefined, sandboxFetch: InProcessSandbox["fetch"]) {
  return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const response = await sandboxFetch(request.clone());
    const current = session();
    if (current && request.method === "POST" && request.url === current.sandbox.tokenEndpoint) {
      const form = new URLSearchParams(await request.text());
      const assertion = form.get("assertion") ?? "";
      const body = (await response.clone().json()) as {
        token_type?: string;
        expires_in?: number;
        access_token?: string;
      };
      current.lastExchange = {
        // jose is in the worker already (auth signs with it); it decodes without verifying, which is
        // all the steps need: the sandbox verified the signature when it answered.
        assertion: { header: decodeProtectedHeader(assertion), claims: decodeJwt(assertion) },
        exchange: { endpoint: request.url, status: response.status },
        token: {
          type: body.token_type ?? "",
          expiresIn: body.expires_in ?? 0,
          preview: masked(body.access_token ?? ""),
        },
      };
    }
    return response;
  };
}

let current: Session | undefined;

async function newSession(spans: WorkerSpan[]): Promise<Session> {
  const violations: string[] = [];
  const sandbox = await timed(spans, "create the sandbox", () =>
    createSandbox({
      validateResponses: true,
      onResponseViolation: (error) => violations.push(error.message),
    }),
  );
  const key = await timed(spans, "read its key", () =>
    parseServiceAccountKey(JSON.stringify(sandbox.credentials.keyFile())),
  );
  const provider = createTokenProvider({
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    key,
    tokenEndpoint: sandbox.tokenEndpoint,
    fetch: observingFetch(() => current, sandbox.fetch),
  });
  return { sandbox, provider, violations };
}

/** The exchange's form, with every field left empty filled from this sandbox's credentials. */
async function exchangeForm(session: Session, given: [string, string][]): Promise<URLSearchParams> {
  const form = new URLSearchParams(given);
  const { credentials, tokenEndpoint } = session.sandbox;
  if (!form.has("grant_type")) form.set("grant_type", JWT_BEARER);
  if (!form.has("client_id")) form.set("client_id", credentials.clientId);
  if (!form.has("client_secret")) form.set("client_secret", credentials.clientSecret);
  if (!form.has("assertion")) {
    const key = await parseServiceAccountKey(JSON.stringify(credentials.keyFile()));
    const assertion = await signAssertion({
      key,
      subject: key.serviceAccountId,
      audience: tokenEndpoint,
      now: Date.now(),
      lifetimeSeconds: 300,
    });
    form.set("assertion", assertion);
  }
  return form;
}

async function send(session: Session, sent: TryItRequest): Promise<TryItAnswer> {
  const before = session.lastExchange;
  const token = sent.authenticated ? (await session.provider.getToken()).value : undefined;
  const exchange = sent.tokenExchange
    ? await exchangeForm(session, sent.body && "form" in sent.body ? sent.body.form : [])
    : undefined;
  const { headers, body } = encodeRequest(sent, token, exchange);
  const seen = session.violations.length;
  const response = await session.sandbox.fetch(`${session.sandbox.url}${sent.target}`, {
    method: sent.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const answer: TryItAnswer = {
    status: response.status,
    headers: [...response.headers],
    body: await response.text(),
  };
  const violation = session.violations[seen];
  if (violation !== undefined) answer.violation = violation;
  if (session.lastExchange !== before && session.lastExchange) answer.exchange = session.lastExchange;
  return answer;
}

/**
 * Answers one message of the page; `spans` holds what the worker timed before it (loading this
 * module) and gets this message's steps.
 *
 * @example
 * ```ts
 * import { handle } from "./sandbox-session.ts";
 *
 * const reply = await handle({ type: "start", journal: [] }, []);
 * reply.type; // "ready"
 * ```
 */
export async function handle(message: ToWorker, spans: WorkerSpan[]): Promise<FromWorker> {
  if (message.type === "start" || message.type === "reset") {
    try {
      await current?.sandbox.close();
      current = await newSession(spans);
      const session = current;
      const journal = message.type === "start" ? message.journal : [];
      // Replayed in order: what the reader changed before a reload. Their answers are not shown again.
      await timed(spans, "replay the session's earlier changes", async () => {
        for (const request of journal) await send(session, request);
      });
      // The exchange runs once up front, so the first answer can show its steps whatever it was.
      await timed(spans, "token exchange", () => session.provider.getToken());
      const ready: FromWorker = { type: "ready", replayed: journal.length, spans };
      if (current.lastExchange) ready.exchange = current.lastExchange;
      return ready;
    } catch (error) {
      current = undefined;
      return { type: "start-failed", message: (error as Error).message };
    }
  }
  try {
    if (current === undefined) throw new Error("the sandbox has not started");
    const session = current;
    const answer = await timed(spans, "answer the request", () => send(session, message.request));
    return { type: "answer", id: message.id, answer, spans };
  } catch (error) {
    return { type: "failed", id: message.id, message: (error as Error).message };
  }
}
