/**
 * The request pipeline, on Web `Request` and `Response` only, so that every door into the sandbox (the
 * `node:http` server, the in-process `fetch`, MSW) runs the very same code on the one `Request` it
 * hands over. A request takes these stages, in this order, and {@link handle} reads as that list:
 *
 * 1. read the target (path and query; `/__sandbox/` goes to the admin endpoints), and answer a CORS
 *    preflight from a trusted origin (`cors.ts`),
 * 2. route it to an operation of the description and its entry in the route table (404, 405),
 * 3. apply an injected fault, if one is armed for the operation,
 * 4. authenticate the bearer token (401),
 * 5. validate the parameters and then the body (400, 411, 413, 415),
 * 6. reply: a programmed response rule, else the route's handler, else the fallback (501 today);
 *
 * and then the reply is checked against the description (response validation mode), turned into a
 * `Response` (with the CORS headers, for a trusted origin) and logged. Every failure on the client's side becomes a 4xx with a body naming the
 * problem; only a bug in the sandbox itself can produce a 5xx other than 501 and injected faults. The
 * OAuth endpoints are routes like any other, with their own refusals (see `oauth/oauth-routes.ts`).
 */
import { type AdminContext, handleAdmin } from "../admin/admin-api.js";
import type { FaultInjector } from "../admin/faults.js";
import { ResponseValidationError } from "../errors.js";
import type { AccessTokens, TokenSession } from "../oauth/access-tokens.js";
import type { LoadedRule, ResponseBook } from "../responses/response-rules.js";
import { authenticate } from "./authenticate.js";
import type { CorsPolicy } from "./cors.js";
import { decodeForm } from "./form-fields.js";
import type { HttpMethod, Operation } from "./openapi.js";
import { HTTP_METHODS } from "./openapi.js";
import type { Refusals, Route } from "./operation-handler.js";
import { SERVICE_REFUSALS } from "./refusals.js";
import type { Reply } from "./replies.js";
import { errorReply } from "./replies.js";
import { operationBody } from "./request-body.js";
import type { PathRouter } from "./router.js";
import { methodOf, targetOf } from "./sent-request.js";
import type { SpecValidators, ValidatedParams } from "./validator.js";

/**
 * The path prefix of the sandbox's own admin endpoints (not part of the description).
 *
 * @example
 * ```ts
 * import { ADMIN_PREFIX, startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox();
 * // From another process (or language): clear the fault rules over HTTP.
 * await fetch(`${sandbox.url}${ADMIN_PREFIX}faults`, { method: "DELETE" });
 * ```
 */
export const ADMIN_PREFIX = "/__sandbox/";

/** Operations on one path template, by method. */
export interface PathEntry {
  readonly template: string;
  readonly operations: ReadonlyMap<HttpMethod, Operation>;
}

/** Everything the pipeline works with; built once per sandbox. */
export interface PipelineContext {
  readonly router: PathRouter<PathEntry>;
  readonly validators: SpecValidators;
  /** The route table: each simulated operation's entry, by operationId. */
  readonly routes: ReadonlyMap<string, Route>;
  readonly tokens: AccessTokens;
  readonly faults: FaultInjector;
  readonly responses: ResponseBook;
  readonly admin: AdminContext;
  readonly validateResponses: boolean;
  /** The origins whose pages may call the sandbox; none when absent. */
  readonly cors?: CorsPolicy;
  onViolation(error: ResponseValidationError): void;
  onRequest?(line: string): void;
}

/** The sandbox as a function: one request in, one response out. */
export type Pipeline = (request: Request) => Promise<Response>;

/** Where a request ended: the reply, and the operation and response rule it reached, if any. */
interface Outcome {
  readonly reply: Reply;
  readonly operation?: Operation;
  readonly rule?: number;
}

/** A request routed to an operation: its path parameters and its entry in the route table. */
interface Routed {
  readonly operation: Operation;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly route: Route | undefined;
  readonly refusals: Refusals;
}

/** The request's input, validated once and typed, as the handler receives it. */
interface Input {
  readonly params: ValidatedParams;
  readonly body: unknown;
  readonly actor: TokenSession | undefined;
  /** The decoded query string, which response rules match on. */
  readonly query: URLSearchParams;
}

/** Builds the pipeline of one sandbox. */
export function createPipeline(ctx: PipelineContext): Pipeline {
  return async (request) => {
    const started = performance.now();
    const origin = ctx.cors?.trusted(request);
    let outcome: Outcome;
    let operationId: string | undefined;
    try {
      outcome = checkReply(
        ctx,
        await handle(ctx, request, origin, (id) => {
          operationId = id;
        }),
      );
    } catch (error) {
      // A bug in the sandbox: say so plainly, without a stack trace in the body.
      console.error("drill-sandbox: internal error:", error);
      outcome = {
        reply: errorReply("internal_error", "the sandbox failed while handling this request; see its log"),
      };
    }
    const method = methodOf(request);
    const { reply, rule } = outcome;
    ctx.onRequest?.(
      `${method} ${loggedTarget(targetOf(request))} ${reply.status}${operationId ? ` ${operationId}` : ""}${rule === undefined ? "" : ` (answered by response rule ${rule})`} ${Math.round(performance.now() - started)}ms`,
    );
    const response = toResponse(reply, method === "HEAD");
    // Every answer to a trusted origin, errors and all, so its page can read why a call failed.
    if (origin !== undefined) ctx.cors?.allow(response.headers, origin);
    return response;
  };
}

async function handle(
  ctx: PipelineContext,
  request: Request,
  origin: string | undefined,
  named: (operationId: string) => void,
): Promise<Outcome> {
  const method = methodOf(request).toUpperCase();
  // 1. Read the target; a preflight from a trusted origin ends here.
  const target = splitTarget(targetOf(request));
  if ("reply" in target) return target;
  if (origin !== undefined) {
    const preflight = ctx.cors?.preflight(request, method, () => methodsAt(ctx, target.path));
    if (preflight) return { reply: { status: 204, headers: preflight } };
  }
  if (target.path.startsWith(ADMIN_PREFIX))
    return { reply: await handleAdmin(ctx.admin, request, target.path, method) };
  // 2. Route.
  const routed = route(ctx, method, target.path);
  if ("reply" in routed) return routed;
  const { operation } = routed;
  named(operation.operationId);
  // 3. Faults.
  const fault = await injectedFault(ctx.faults, routed);
  if (fault) return { reply: fault, operation };
  // 4 and 5. Authenticate, validate.
  const input = await validInput(ctx, request, routed, target.query);
  if ("reply" in input) return { reply: input.reply, operation };
  // 6. Reply.
  return answer(ctx, request, routed, input);
}

/**
 * The authentication and validation stages: the token, the query string, the parameters and then
 * the body, read once into the typed values the handler receives. A route that reads its own body
 * (the token endpoint) skips the body stage.
 */
async function validInput(
  ctx: PipelineContext,
  request: Request,
  routed: Routed,
  rawQuery: string,
): Promise<Input | { reply: Reply }> {
  const { operation, refusals } = routed;
  const decoded = decodeForm(rawQuery, "query string");
  if ("problem" in decoded) return { reply: refusals.query(decoded.problem) };
  let actor: TokenSession | undefined;
  if (operation.security.length > 0) {
    const auth = authenticate(ctx.tokens, operation, request.headers.get("authorization"));
    if ("reply" in auth) return auth;
    actor = auth.session;
  }
  const validator = ctx.validators.forOperation(operation);
  // Only header parameters read the headers; copying them for every request is wasted work otherwise.
  const headers = operation.parameters.some((p) => p.in === "header")
    ? Object.fromEntries(request.headers)
    : {};
  const params = validator.validateParams({ pathParams: routed.pathParams, query: decoded.fields, headers });
  if ("problems" in params) return { reply: refusals.params(operation, params.problems) };
  if (routed.route?.ownBody) return { params, body: undefined, actor, query: decoded.fields };
  const body = await operationBody(request, operation, validator);
  if ("reply" in body) return body;
  if ("problem" in body) return { reply: refusals.params(operation, [body.problem]) };
  return { params, body: body.value, actor, query: decoded.fields };
}

/**
 * The reply stage: a programmed response rule first, then the operation's route, then the fallback
 * for an operation the sandbox does not simulate.
 */
async function answer(
  ctx: PipelineContext,
  request: Request,
  routed: Routed,
  input: Input,
): Promise<Outcome> {
  const { operation, route } = routed;
  const rule = ctx.responses.match(operation.operationId, routed.pathParams, input.query);
  if (rule) return { reply: ruleReply(rule), operation, rule: rule.index };
  if (!route) return { reply: fallback(operation), operation };
  const { params, body, actor } = input;
  return { reply: await route.handle({ operation, params, body, actor }, request), operation };
}

/** What an operation the sandbox does not simulate answers: 501, naming what the interface leaves out. */
function fallback(operation: Operation): Reply {
  const unknown =
    operation.undocumented.length > 0 ? ` (not shown: ${operation.undocumented.join("; ")})` : "";
  return errorReply(
    "not_simulated",
    `${operation.operationId} is not simulated: the service interface does not give its shapes${unknown}`,
    { fields: { operationId: operation.operationId } },
  );
}

function splitTarget(target: string): { path: string; query: string } | { reply: Reply } {
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  if (!path.startsWith("/")) {
    return { reply: errorReply("invalid_request", "request target: must be a path starting with /") };
  }
  return { path, query: queryAt < 0 ? "" : target.slice(queryAt + 1) };
}

function route(ctx: PipelineContext, method: string, path: string): Routed | { reply: Reply } {
  const match = ctx.router.match(path);
  if (match.kind === "not_found") {
    return { reply: errorReply("not_found", `no operation is described for the path ${path}`) };
  }
  if (match.kind === "bad_encoding") {
    return {
      reply: errorReply(
        "invalid_request",
        `path: segment ${JSON.stringify(match.segment)} is not valid percent-encoding`,
      ),
    };
  }
  const entry = match.value;
  const operation =
    entry.operations.get(method as HttpMethod) ??
    (method === "HEAD" ? entry.operations.get("GET") : undefined);
  if (operation) {
    const route = ctx.routes.get(operation.operationId);
    return { operation, pathParams: match.params, route, refusals: route?.refusals ?? SERVICE_REFUSALS };
  }
  const allow = allowedMethods(entry);
  return {
    reply: errorReply(
      "method_not_allowed",
      `method ${method} is not described for ${entry.template}; allowed: ${allow.join(", ")}`,
      { headers: { allow: allow.join(", ") } },
    ),
  };
}

/** The methods a path takes: those the description has for it, and HEAD where it has GET. */
function allowedMethods(entry: PathEntry): HttpMethod[] {
  return HTTP_METHODS.filter((m) => entry.operations.has(m) || (m === "HEAD" && entry.operations.has("GET")));
}

/** What a preflight allows where the description has no path: the methods the sandbox serves. */
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods a CORS preflight allows at a path: the described ones, else every method served. */
function methodsAt(ctx: PipelineContext, path: string): readonly string[] {
  const match = ctx.router.match(path);
  // An admin or undescribed path: the answer (or its 404) is then the page's to read.
  return match.kind === "found" ? allowedMethods(match.value) : SERVED_METHODS;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function injectedFault(faults: FaultInjector, routed: Routed): Promise<Reply | undefined> {
  const { operation, refusals } = routed;
  const fault = faults.take(operation.operationId);
  if (!fault) return undefined;
  if (fault.delayMs > 0) await sleep(fault.delayMs);
  if (fault.status === undefined) return undefined;
  // Deliberate: not checked against the description, the test asked for exactly this.
  const headers = fault.retryAfter === undefined ? undefined : { "retry-after": fault.retryAfter };
  const message = `fault injected by the sandbox for ${operation.operationId} (status ${fault.status})`;
  return { status: fault.status, body: refusals.faultBody(message), ...(headers ? { headers } : {}) };
}

function ruleReply({ rule, mediaType }: LoadedRule): Reply {
  return {
    status: rule.status,
    ...(rule.body === undefined ? {} : { body: rule.body }),
    ...(rule.headers === undefined ? {} : { headers: rule.headers }),
    ...(mediaType === undefined ? {} : { contentType: mediaType }),
  };
}

/** Response validation mode: a reply that does not match the description becomes a loud 500. */
function checkReply(ctx: PipelineContext, outcome: Outcome): Outcome {
  const { reply, operation } = outcome;
  if (!ctx.validateResponses || !operation) return outcome;
  const mismatch = ctx.validators
    .forOperation(operation)
    .checkResponse(
      reply.status,
      reply.body === undefined ? undefined : (reply.contentType ?? "application/json"),
      reply.body,
    );
  if (mismatch === undefined) return outcome;
  const violation = new ResponseValidationError(operation.operationId, reply.status, mismatch);
  ctx.onViolation(violation);
  return { ...outcome, reply: errorReply("sandbox_response_invalid", violation.message) };
}

const encoder = new TextEncoder();

/** Statuses whose responses carry no content (a `Response` refuses a body for them). */
const NO_CONTENT = new Set([204, 205, 304]);

/**
 * A reply as a `Response`: JSON with its length, extra headers lower-cased (a rule's `Content-Type`
 * must not sit beside ours), no body for HEAD.
 */
function toResponse(reply: Reply, head: boolean): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers.set(name.toLowerCase(), value);
  let payload: Uint8Array | undefined;
  if (reply.body !== undefined && !NO_CONTENT.has(reply.status)) {
    payload = encoder.encode(JSON.stringify(reply.body));
    headers.set("content-type", `${reply.contentType ?? "application/json"}; charset=utf-8`);
    headers.set("content-length", String(payload.byteLength));
  } else if (!NO_CONTENT.has(reply.status)) {
    headers.set("content-length", "0");
  }
  return new Response(head ? null : (payload ?? null), { status: reply.status, headers });
}

/**
 * The request target as the request log shows it: the path and the names of the query parameters,
 * never their values (a client may put anything in a query, a secret included). Names stay as sent,
 * percent-encoding and all, so a decoded line break cannot split a log line.
 */
export function loggedTarget(rawUrl: string): string {
  const queryAt = rawUrl.indexOf("?");
  if (queryAt < 0) return rawUrl;
  const names = new Set<string>();
  for (const pair of rawUrl.slice(queryAt + 1).split("&")) {
    const name = pair.split("=", 1)[0] ?? "";
    if (name !== "") names.add(name);
  }
  const path = rawUrl.slice(0, queryAt);
  return names.size === 0 ? path : `${path}?${[...names].join("&")}`;
}
