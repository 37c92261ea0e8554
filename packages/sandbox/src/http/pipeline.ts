/**
 * The request pipeline, on Web `Request` and `Response` only, so that every door into the sandbox (the
 * `node:http` server, the in-process `fetch`, MSW) runs the very same code. A request takes these
 * stages, in this order, and {@link handle} reads as that list:
 *
 * 1. read the target (path and query; `/__sandbox/` goes to the admin endpoints),
 * 2. route it to an operation of the description (404, 405),
 * 3. apply an injected fault, if one is armed for the operation,
 * 4. the OAuth endpoints (token exchange, discovery) answer here, in their own formats,
 * 5. authenticate the bearer token (401),
 * 6. validate the parameters and then the body (400, 411, 413, 415),
 * 7. reply: a programmed response rule, else the simulation, else the fallback (501 today);
 *
 * and then the reply is checked against the description (response validation mode), turned into a
 * `Response` and logged. Every failure on the client's side becomes a 4xx with a body naming the
 * problem; only a bug in the sandbox itself can produce a 5xx other than 501 and injected faults.
 */
import { type AdminContext, handleAdmin } from "../admin/admin-api.js";
import type { FaultInjector } from "../admin/faults.js";
import { errorBody } from "../error-body.js";
import { ResponseValidationError } from "../errors.js";
import type { AccessTokens, TokenSession } from "../oauth/access-tokens.js";
import type { TokenEndpointContext } from "../oauth/token-endpoint.js";
import { exchangeToken } from "../oauth/token-endpoint.js";
import type { LoadedRule, ResponseBook } from "../responses/response-rules.js";
import { authenticate } from "./authenticate.js";
import { decodeForm } from "./form-fields.js";
import { hasBody, parseContentType, readBody } from "./http-io.js";
import type { HttpMethod, Operation } from "./openapi.js";
import { HTTP_METHODS } from "./openapi.js";
import type { OperationHandler } from "./operation-handler.js";
import { listedPageErrorId, pageErrorReply } from "./page-errors.js";
import type { Reply } from "./replies.js";
import { errorReply, oauthError } from "./replies.js";
import type { Framing } from "./request-body.js";
import { MAX_BODY_BYTES, operationBody, utf8Text } from "./request-body.js";
import type { PathRouter } from "./router.js";
import type { RequestInput, RequestProblem, SpecValidators, ValidatedParams } from "./validator.js";

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

/**
 * Operations on one path template, by method.
 *
 * @example
 * ```ts
 * import { bundledSpec } from "./bundled-spec.js";
 * import { listOperations } from "./openapi.js";
 * import type { PathEntry } from "./pipeline.js";
 * import { PathRouter } from "./router.js";
 *
 * const router = new PathRouter<PathEntry>();
 * const op = listOperations(bundledSpec()).find((operation) => operation.operationId === "getVersion_v2_1");
 * if (op === undefined) throw new Error("getVersion_v2_1 is not in the description");
 * const template = op.path; // "/api/2.1/version"
 * router.add(template, { template, operations: new Map([["GET", op]]) });
 * ```
 */
export interface PathEntry {
  readonly template: string;
  readonly operations: ReadonlyMap<HttpMethod, Operation>;
}

/**
 * Everything the pipeline works with; built once per sandbox.
 *
 * @example
 * ```ts
 * import { createPipeline, type PipelineContext } from "./pipeline.js";
 *
 * declare const context: PipelineContext; // assembled once per sandbox (see sandbox-core.ts)
 * const pipeline = createPipeline(context);
 * ```
 */
export interface PipelineContext {
  readonly router: PathRouter<PathEntry>;
  readonly validators: SpecValidators;
  readonly handlers: ReadonlyMap<string, OperationHandler>;
  readonly tokens: AccessTokens;
  readonly faults: FaultInjector;
  readonly responses: ResponseBook;
  readonly admin: AdminContext;
  readonly validateResponses: boolean;
  /** The sandbox's own base URL (the token endpoint's audience is built from it). */
  baseUrl(): string;
  /**
   * The base URL clients reach the sandbox at (a proxy in front of it): discovery advertises it instead
   * of the one the request addressed, and the token endpoint accepts it as the audience first.
   */
  readonly publicUrl?: string;
  /** The token endpoint's context, except the accepted audiences, which depend on the request. */
  tokenEndpoint(): TokenEndpointBase;
  onViolation(error: ResponseValidationError): void;
  onRequest?(line: string): void;
}

/**
 * What the token endpoint needs apart from the audiences (the URIs it is addressed by).
 *
 * @example
 * ```ts
 * import { AccessTokens } from "../oauth/access-tokens.js";
 * import { createServiceAccounts, SandboxCredentials } from "../oauth/credentials.js";
 * import type { TokenEndpointBase } from "./pipeline.js";
 *
 * const accounts = await createServiceAccounts([{ id: "org-1", serviceAccountId: "sa-1" }]);
 * const credentials = new SandboxCredentials("client-1", "s3cr3t", accounts);
 * const tokens = new AccessTokens(() => Date.now());
 * const nowSeconds = Math.floor(Date.now() / 1000);
 * // Here only the service account itself can be named as the subject.
 * const resolveUser = (subject: string, serviceAccountId: string) =>
 *   subject === serviceAccountId ? subject : undefined;
 * const lifetimeSeconds = 3599;
 * const base: TokenEndpointBase = {
 *   credentials,
 *   tokens,
 *   lifetimeSeconds,
 *   accounts,
 *   nowSeconds,
 *   resolveUser,
 * };
 * ```
 */
export interface TokenEndpointBase {
  readonly credentials: TokenEndpointContext["credentials"];
  readonly tokens: AccessTokens;
  readonly lifetimeSeconds: number;
  readonly accounts: TokenEndpointContext["assertion"]["accounts"];
  readonly nowSeconds: number;
  resolveUser(subject: string, serviceAccountId: string): string | undefined;
}

/**
 * What a door knows about a request that a `Request` does not carry.
 *
 * @example
 * ```ts
 * import type { Wire } from "./pipeline.js";
 *
 * const wire: Wire = {
 *   target: "/api/2.1/store?query=dog",
 *   base: "http://127.0.0.1:4010",
 *   framing: { declared: true },
 * };
 * ```
 */
export interface Wire {
  /** The request target as sent: path and query (URL parsing would normalise it). */
  readonly target: string;
  /** The base URL the client addressed, for the documents that name the sandbox's own URLs. */
  readonly base: string;
  /** The method as sent, when a `Request` cannot carry it (`TRACE`). */
  readonly method?: string;
  readonly framing: Framing;
}

/**
 * The sandbox as a function: one request in, one response out.
 *
 * @example
 * ```ts
 * import { assembleSandbox } from "../sandbox-core.js";
 * import type { Pipeline, Wire } from "./pipeline.js";
 *
 * const url = "http://127.0.0.1:4010";
 * const core = await assembleSandbox({});
 * core.setBaseUrl(url);
 * const pipeline: Pipeline = core.pipeline;
 * const wire: Wire = { target: "/api/2.1/version", base: url, framing: { declared: false } };
 * const response = await pipeline(new Request(`${url}/api/2.1/version`), wire);
 * ```
 */
export type Pipeline = (request: Request, wire: Wire) => Promise<Response>;

/** Where a request ended: the reply, and the operation and response rule it reached, if any. */
interface Outcome {
  readonly reply: Reply;
  readonly operation?: Operation;
  readonly rule?: number;
}

/** One request as it goes through the stages. */
interface Call {
  readonly ctx: PipelineContext;
  readonly request: Request;
  readonly wire: Wire;
  readonly method: string;
  readonly operation: Operation;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
}

/**
 * Builds the pipeline of one sandbox.
 *
 * @example
 * ```ts
 * import { createPipeline, type PipelineContext } from "./pipeline.js";
 *
 * declare const context: PipelineContext; // assembled once per sandbox (see sandbox-core.ts)
 * const url = "http://127.0.0.1:4010";
 * const pipeline = createPipeline(context);
 * const request = new Request(`${url}/api/2.1/version`);
 * const framing = { declared: false };
 * const response = await pipeline(request, { target: "/api/2.1/version", base: url, framing });
 * ```
 */
export function createPipeline(ctx: PipelineContext): Pipeline {
  return async (request, wire) => {
    const started = performance.now();
    let outcome: Outcome;
    let operationId: string | undefined;
    try {
      outcome = await handle(ctx, request, wire, (id) => {
        operationId = id;
      });
      outcome = checkReply(ctx, outcome);
    } catch (error) {
      // A bug in the sandbox: say so plainly, without a stack trace in the body.
      console.error("drill-sandbox: internal error:", error);
      outcome = {
        reply: errorReply("internal_error", "the sandbox failed while handling this request; see its log"),
      };
    }
    const method = wire.method ?? request.method;
    const { reply, rule } = outcome;
    ctx.onRequest?.(
      `${method} ${loggedTarget(wire.target)} ${reply.status}${operationId ? ` ${operationId}` : ""}${rule === undefined ? "" : ` (answered by response rule ${rule})`} ${Math.round(performance.now() - started)}ms`,
    );
    return toResponse(reply, method === "HEAD");
  };
}

async function handle(
  ctx: PipelineContext,
  request: Request,
  wire: Wire,
  named: (operationId: string) => void,
): Promise<Outcome> {
  const method = (wire.method ?? request.method).toUpperCase();
  // 1. Read the target.
  const target = splitTarget(wire.target);
  if ("reply" in target) return target;
  if (target.path.startsWith(ADMIN_PREFIX))
    return { reply: await handleAdmin(ctx.admin, request, target.path, method) };
  // 2. Route.
  const routed = route(ctx, method, target.path);
  if ("reply" in routed) return routed;
  const { operation } = routed;
  named(operation.operationId);
  // 3. Faults.
  const fault = await injectedFault(ctx.faults, operation);
  if (fault) return { reply: fault, operation };
  // 4. The OAuth endpoints, in their own formats.
  const decoded = decodeForm(target.query, "query string");
  if (operation.operationId === "exchangeToken") return tokenExchange(ctx, request, wire, routed, decoded);
  if ("problem" in decoded) {
    return {
      reply: errorReply("invalid_request", decoded.problem, { fields: { parameter: "query" } }),
      operation,
    };
  }
  const call: Call = {
    ctx,
    request,
    wire,
    method,
    operation,
    pathParams: routed.params,
    query: decoded.fields,
  };
  if (operation.operationId === "getAuthorizationServerMetadata") return discovery(call);
  // 5. Authenticate.
  let actor: TokenSession | undefined;
  if (operation.security.length > 0) {
    const auth = authenticate(ctx.tokens, request.headers.get("authorization"));
    if ("reply" in auth) return { reply: auth.reply, operation };
    actor = auth.session;
  }
  // 6. Validate the parameters, then the body.
  const validator = ctx.validators.forOperation(operation);
  const params = validator.validateParams(requestInput(request, operation, call.pathParams, call.query));
  if ("problems" in params) return { reply: requestProblem(operation, params.problems), operation };
  const body = await operationBody(request, wire.framing, operation, validator);
  if ("reply" in body) return { reply: body.reply, operation };
  if ("problem" in body) return { reply: requestProblem(operation, [body.problem]), operation };
  // 7. Reply.
  return answer(call, params, body.value, actor);
}

/**
 * The reply stage: a programmed response rule first, then the operation's simulation, then the
 * fallback for an operation the sandbox does not simulate.
 */
function answer(
  call: Call,
  params: ValidatedParams,
  body: unknown,
  actor: TokenSession | undefined,
): Outcome {
  const { ctx, operation } = call;
  const rule = ctx.responses.match(operation.operationId, call.pathParams, call.query);
  if (rule) return { reply: ruleReply(rule), operation, rule: rule.index };
  const handler = ctx.handlers.get(operation.operationId);
  if (handler) return { reply: handler({ operation, params, body, actor }), operation };
  return { reply: fallback(operation), operation };
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

function route(
  ctx: PipelineContext,
  method: string,
  path: string,
): { operation: Operation; params: Readonly<Record<string, string>> } | { reply: Reply } {
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
  if (operation) return { operation, params: match.params };
  const allow = HTTP_METHODS.filter(
    (m) => entry.operations.has(m) || (m === "HEAD" && entry.operations.has("GET")),
  );
  return {
    reply: errorReply(
      "method_not_allowed",
      `method ${method} is not described for ${entry.template}; allowed: ${allow.join(", ")}`,
      { headers: { allow: allow.join(", ") } },
    ),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function injectedFault(faults: FaultInjector, operation: Operation): Promise<Reply | undefined> {
  const fault = faults.take(operation.operationId);
  if (!fault) return undefined;
  if (fault.delayMs > 0) await sleep(fault.delayMs);
  if (fault.status === undefined) return undefined;
  // Deliberate: not checked against the description, the test asked for exactly this.
  const headers = fault.retryAfter === undefined ? undefined : { "retry-after": fault.retryAfter };
  const message = `fault injected by the sandbox for ${operation.operationId} (status ${fault.status})`;
  const body =
    operation.operationId === "exchangeToken"
      ? { error: "temporarily_unavailable", error_description: message }
      : errorBody("injected_fault", message);
  return { status: fault.status, body, ...(headers ? { headers } : {}) };
}

function requestInput(
  request: Request,
  operation: Operation,
  pathParams: Readonly<Record<string, string>>,
  query: URLSearchParams,
): RequestInput {
  // Only header parameters read the headers; copying them for every request is wasted work otherwise.
  const headers = operation.parameters.some((p) => p.in === "header")
    ? Object.fromEntries(request.headers)
    : {};
  return { pathParams, query, headers };
}

/**
 * A request that breaks the description: the page's own identifier when its page names one for the
 * first rule broken (`description_missing`, `invalid_catalog_restriction_mode`), else `invalid_request`.
 */
function requestProblem(operation: Operation, problems: readonly RequestProblem[]): Reply {
  const message = problems.map((p) => p.message).join("; ");
  const first = problems[0];
  if (first?.cause) {
    const { rule, field } = first.cause;
    const cause =
      rule === "missing" ? { kind: "missing" as const, field } : { kind: "invalid" as const, field };
    if (listedPageErrorId(operation, cause) !== undefined)
      return pageErrorReply(operation, cause, message, field);
  }
  return errorReply("invalid_request", message, { fields: { parameter: first?.parameter } });
}

/** The token endpoint answers in OAuth's error format, but refuses what every operation refuses. */
async function tokenExchange(
  ctx: PipelineContext,
  request: Request,
  wire: Wire,
  routed: { operation: Operation; params: Readonly<Record<string, string>> },
  decoded: ReturnType<typeof decodeForm>,
): Promise<Outcome> {
  const { operation } = routed;
  if ("problem" in decoded) return { reply: oauthError("invalid_request", decoded.problem), operation };
  const params = ctx.validators
    .forOperation(operation)
    .validateParams(requestInput(request, operation, {}, decoded.fields));
  if ("problems" in params) {
    return {
      reply: oauthError("invalid_request", params.problems.map((p) => p.message).join("; ")),
      operation,
    };
  }
  // The OAuth operations are answered by the sandbox's own OAuth code, not by the validated stages:
  // a rule for them answers in place of that code.
  const rule = ctx.responses.match(operation.operationId, routed.params, decoded.fields);
  if (rule) return { reply: ruleReply(rule), operation, rule: rule.index };
  return { reply: await tokenRequest(ctx, request, wire), operation };
}

async function tokenRequest(ctx: PipelineContext, request: Request, wire: Wire): Promise<Reply> {
  const contentType = parseContentType(request.headers.get("content-type"));
  if (contentType?.mediaType !== "application/x-www-form-urlencoded") {
    return oauthError("invalid_request", "Content-Type: must be application/x-www-form-urlencoded", 415);
  }
  const read = await readBody(request, MAX_BODY_BYTES);
  if (read.kind === "aborted") return oauthError("invalid_request", "request body: aborted");
  if (read.kind === "too_large")
    return oauthError("invalid_request", `request body: larger than ${read.limit} bytes`, 413);
  const text = utf8Text(read.bytes);
  if (text === undefined) return oauthError("invalid_request", "request body: not valid UTF-8");
  // The advertised URI first: it is the one a failure message names.
  const bases = [ctx.publicUrl, wire.base, ctx.baseUrl()];
  const audiences = [...new Set(bases.filter((b) => b !== undefined).map((b) => `${b}/daas/oauth/token`))];
  const endpoint = ctx.tokenEndpoint();
  return exchangeToken(new URLSearchParams(text), {
    credentials: endpoint.credentials,
    tokens: endpoint.tokens,
    lifetimeSeconds: endpoint.lifetimeSeconds,
    assertion: {
      accounts: endpoint.accounts,
      audiences,
      nowSeconds: endpoint.nowSeconds,
      resolveUser: (subject, serviceAccountId) => endpoint.resolveUser(subject, serviceAccountId),
    },
  });
}

/** Discovery takes no parameters and no body; it refuses them like every other operation does. */
function discovery(call: Call): Outcome {
  const { ctx, operation, request } = call;
  const params = ctx.validators
    .forOperation(operation)
    .validateParams(requestInput(request, operation, {}, call.query));
  if ("problems" in params) return { reply: requestProblem(operation, params.problems), operation };
  if (hasBody(request)) {
    return {
      reply: errorReply("invalid_request", `request body: ${operation.operationId} takes none`),
      operation,
    };
  }
  const rule = ctx.responses.match(operation.operationId, call.pathParams, call.query);
  if (rule) return { reply: ruleReply(rule), operation, rule: rule.index };
  const base = ctx.publicUrl ?? call.wire.base;
  return {
    reply: { status: 200, body: { issuer: base, token_endpoint: `${base}/daas/oauth/token` } },
    operation,
  };
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
 *
 * @example
 * ```ts
 * import { loggedTarget } from "./pipeline.js";
 *
 * loggedTarget("/api/2.1/store?query=dog&searchField=NAME&searchField=TAGS");
 * // "/api/2.1/store?query&searchField"
 * ```
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
