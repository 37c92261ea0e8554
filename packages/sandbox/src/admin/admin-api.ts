/**
 * The sandbox's own admin endpoints under `/__sandbox/`. They are not part of the service or its
 * description; they let a test (in any language) steer the sandbox over HTTP:
 *
 * - `GET /__sandbox/faults`: the active fault rules.
 * - `POST /__sandbox/faults`: add one rule (JSON object) or several (JSON array); answers 201 with their IDs.
 * - `DELETE /__sandbox/faults`: remove every rule; answers 204.
 * - `GET /__sandbox/responses`: the active response rules, `{ "responses": [ … ] }`.
 * - `PUT /__sandbox/responses`: replace them with a `{ "responses": [ … ] }` set; answers 200 with the
 *   count, or 400 listing every problem (then nothing was applied).
 * - `DELETE /__sandbox/responses`: remove every response rule; answers 204.
 * - `GET /__sandbox/state`: the current data, in the data file's form (a snapshot).
 * - `PUT /__sandbox/state`: replace the data with a snapshot or data file; answers 204, or 400 listing
 *   every problem (then nothing changed).
 * - `DELETE /__sandbox/state`: return the data to how the sandbox started; answers 204.
 */
import type { SandboxData } from "../domain/types.js";
import { DataFileError, ResponseRulesError, SandboxOptionError } from "../errors.js";
import { parseContentType, readBody } from "../http/http-io.js";
import type { Reply } from "../http/replies.js";
import { errorReply } from "../http/replies.js";
import type { FaultInjector } from "./faults.js";
import { checkFaultRule } from "./faults.js";

/**
 * What the admin endpoints act on.
 */
export interface AdminContext {
  readonly faults: FaultInjector;
  readonly operationIds: ReadonlySet<string>;
  /** Checks a response rule set and makes it the active one; throws `ResponseRulesError`. */
  setResponses(input: unknown): number;
  listResponses(): unknown[];
  clearResponses(): void;
  /** The current data in the data file's form. */
  snapshot(): SandboxData;
  /** Checks data as a data file and makes it the current data; throws `DataFileError`. */
  restore(data: unknown): void;
  /** Returns the data to how the sandbox started. */
  reset(): void;
}

const ADMIN_BODY_LIMIT = 64 * 1024;
/** A state is a whole data file: a 100,000-drill one is about 60 MB. */
const STATE_BODY_LIMIT = 256 * 1024 * 1024;

/**
 * Handles one request below `/__sandbox/`.
 */
export async function handleAdmin(
  ctx: AdminContext,
  req: Request,
  path: string,
  method: string,
): Promise<Reply> {
  if (path === "/__sandbox/responses") return handleReplacedSet(responsesEndpoint(ctx), req, method);
  if (path === "/__sandbox/state") return handleReplacedSet(stateEndpoint(ctx), req, method);
  if (path !== "/__sandbox/faults") {
    return errorReply(
      "not_found",
      `no sandbox admin endpoint at ${path} (there are /__sandbox/faults, /__sandbox/responses and /__sandbox/state)`,
    );
  }
  const answered = listClearOrRefuse(method, path, "POST", {
    list: () => ({ faults: ctx.faults.list() }),
    clear: () => ctx.faults.clear(),
  });
  if (answered !== undefined) return answered;
  const parsed = await readJson(req);
  if ("reply" in parsed) return parsed.reply;
  const list = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  try {
    const rules = list.map((rule) => checkFaultRule(rule, ctx.operationIds));
    const ids = rules.map((rule) => ctx.faults.add(rule));
    return { status: 201, body: { ids } };
  } catch (error) {
    if (error instanceof SandboxOptionError) return errorReply("invalid_request", error.message);
    throw error;
  }
}

/** An endpoint whose GET reads a whole set, PUT replaces it and DELETE clears it. */
interface ReplacedSet {
  readonly path: string;
  readonly bodyLimit: number;
  read(): unknown;
  clear(): void;
  /** Checks and applies a set; throws `ResponseRulesError` or `DataFileError` when it is refused. */
  replace(value: unknown): Reply;
}

async function handleReplacedSet(endpoint: ReplacedSet, req: Request, method: string): Promise<Reply> {
  const answered = listClearOrRefuse(method, endpoint.path, "PUT", {
    list: () => endpoint.read(),
    clear: () => endpoint.clear(),
  });
  if (answered !== undefined) return answered;
  const parsed = await readJson(req, endpoint.bodyLimit);
  if ("reply" in parsed) return parsed.reply;
  try {
    return endpoint.replace(parsed.value);
  } catch (error) {
    if (error instanceof ResponseRulesError || error instanceof DataFileError) {
      return errorReply("invalid_request", error.message, { fields: { problems: error.problems } });
    }
    throw error;
  }
}

function responsesEndpoint(ctx: AdminContext): ReplacedSet {
  return {
    path: "/__sandbox/responses",
    bodyLimit: ADMIN_BODY_LIMIT,
    read: () => ({ responses: ctx.listResponses() }),
    clear: () => ctx.clearResponses(),
    replace: (value) => ({ status: 200, body: { count: ctx.setResponses(value) } }),
  };
}

function stateEndpoint(ctx: AdminContext): ReplacedSet {
  return {
    path: "/__sandbox/state",
    bodyLimit: STATE_BODY_LIMIT,
    read: () => ctx.snapshot(),
    clear: () => ctx.reset(),
    replace: (value) => {
      ctx.restore(value);
      return { status: 204 };
    },
  };
}

/**
 * The opening the rule and state endpoints share: GET lists the rules (or the data), DELETE clears them
 * (resets the data), any method but
 * `write` gets 405 with `Allow`. Answers `undefined` for `write`, which the endpoint handles itself.
 */
function listClearOrRefuse(
  method: string,
  path: string,
  write: "POST" | "PUT",
  rules: { list(): unknown; clear(): void },
): Reply | undefined {
  if (method === "GET") return { status: 200, body: rules.list() };
  if (method === "DELETE") {
    rules.clear();
    return { status: 204 };
  }
  if (method === write) return undefined;
  return errorReply("method_not_allowed", `method ${method} is not allowed for ${path}`, {
    headers: { allow: `GET, ${write}, DELETE` },
  });
}

async function readJson(
  req: Request,
  limit = ADMIN_BODY_LIMIT,
): Promise<{ value: unknown } | { reply: Reply }> {
  if (parseContentType(req.headers.get("content-type"))?.mediaType !== "application/json") {
    return { reply: errorReply("unsupported_media_type", "Content-Type: must be application/json") };
  }
  const read = await readBody(req, limit);
  if (read.kind === "aborted") return { reply: errorReply("invalid_request", "request body: aborted") };
  if (read.kind === "too_large")
    return { reply: errorReply("payload_too_large", `request body: larger than ${read.limit} bytes`) };
  try {
    return { value: JSON.parse(new TextDecoder().decode(read.bytes)) };
  } catch (error) {
    return {
      reply: errorReply("invalid_request", `request body: not valid JSON (${(error as Error).message})`),
    };
  }
}
