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
 */
import { ResponseRulesError, SandboxOptionError } from "../errors.js";
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
}

const ADMIN_BODY_LIMIT = 64 * 1024;

/**
 * Handles one request below `/__sandbox/`.
 */
export async function handleAdmin(
  ctx: AdminContext,
  req: Request,
  path: string,
  method: string,
): Promise<Reply> {
  if (path === "/__sandbox/responses") return handleResponses(ctx, req, method);
  if (path !== "/__sandbox/faults") {
    return errorReply(
      "not_found",
      `no sandbox admin endpoint at ${path} (there are /__sandbox/faults and /__sandbox/responses)`,
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

async function handleResponses(ctx: AdminContext, req: Request, method: string): Promise<Reply> {
  const answered = listClearOrRefuse(method, "/__sandbox/responses", "PUT", {
    list: () => ({ responses: ctx.listResponses() }),
    clear: () => ctx.clearResponses(),
  });
  if (answered !== undefined) return answered;
  const parsed = await readJson(req);
  if ("reply" in parsed) return parsed.reply;
  try {
    return { status: 200, body: { count: ctx.setResponses(parsed.value) } };
  } catch (error) {
    if (error instanceof ResponseRulesError) {
      return errorReply("invalid_request", error.message, { fields: { problems: error.problems } });
    }
    throw error;
  }
}

/**
 * The opening both rule endpoints share: GET lists the rules, DELETE clears them, any method but
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

async function readJson(req: Request): Promise<{ value: unknown } | { reply: Reply }> {
  if (parseContentType(req.headers.get("content-type"))?.mediaType !== "application/json") {
    return { reply: errorReply("unsupported_media_type", "Content-Type: must be application/json") };
  }
  const read = await readBody(req, ADMIN_BODY_LIMIT);
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
