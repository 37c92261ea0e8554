/**
 * The request pipeline: route by the description's path templates, apply faults, authenticate, validate
 * the request, run the operation, validate the response (in response validation mode) and send it.
 * Every failure on the client's side becomes a 4xx with a body naming the problem; only a bug in the
 * sandbox itself can produce a 5xx other than 501 and injected faults.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AdminContext, handleAdmin } from "../admin/admin-api.js";
import type { FaultInjector } from "../admin/faults.js";
import { errorBody } from "../error-body.js";
import { ResponseValidationError } from "../errors.js";
import type { AccessTokens, TokenSession } from "../oauth/access-tokens.js";
import type { TokenEndpointContext } from "../oauth/token-endpoint.js";
import { exchangeToken } from "../oauth/token-endpoint.js";
import type { LoadedRule, ResponseBook } from "../responses/response-rules.js";
import { authorizationProblem } from "./authorization-problem.js";
import { decodeForm, formFieldsObject } from "./form-fields.js";
import { hasBody, parseContentType, readBody } from "./http-io.js";
import type { HttpMethod, Operation } from "./openapi.js";
import { HTTP_METHODS } from "./openapi.js";
import type { OperationHandler } from "./operation-handler.js";
import type { Reply } from "./replies.js";
import { errorReply, oauthError } from "./replies.js";
import type { PathRouter } from "./router.js";
import type { OperationValidator, SpecValidators } from "./validator.js";

/**
 * The path prefix of the sandbox's own admin endpoints (not part of the description).
 *
 * @example
 * await fetch(`${sandbox.url}${ADMIN_PREFIX}faults`, { method: "DELETE" });
 */
export const ADMIN_PREFIX = "/__sandbox/";

/**
 * Largest request body the sandbox reads, in bytes (1 MiB); larger ones get 413.
 *
 * @example
 * const tooBig = JSON.stringify({ value: "x".repeat(MAX_BODY_BYTES) });
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Operations on one path template, by method.
 *
 * @example
 * router.add(template, { template, operations: new Map([["GET", op]]) });
 */
export interface PathEntry {
  readonly template: string;
  readonly operations: ReadonlyMap<HttpMethod, Operation>;
}

/**
 * Everything the pipeline works with; built once by `startSandbox`.
 *
 * @example
 * server.on("request", createRequestListener(context));
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
  /** The server's own base URL (used when the Host header is missing or unusable). */
  baseUrl(): string;
  /** The token endpoint's context, except the accepted audiences, which depend on the request. */
  tokenEndpoint(): TokenEndpointBase;
  onViolation(error: ResponseValidationError): void;
  onRequest?(line: string): void;
}

/**
 * What the token endpoint needs apart from the audiences (the URIs it is addressed by).
 *
 * @example
 * const base: TokenEndpointBase = { credentials, tokens, lifetimeSeconds: 3599, accounts, nowSeconds: 0, resolveUser };
 */
export interface TokenEndpointBase {
  readonly credentials: TokenEndpointContext["credentials"];
  readonly tokens: AccessTokens;
  readonly lifetimeSeconds: number;
  readonly accounts: TokenEndpointContext["assertion"]["accounts"];
  readonly nowSeconds: number;
  resolveUser(subject: string, serviceAccountId: string): string | undefined;
}

const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/;

/** The base URL as the client addressed the server, from the Host header when it is well formed. */
function requestBase(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return host !== undefined && HOST.test(host) ? `http://${host}` : fallback;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function notSimulated(operation: Operation): Reply {
  const unknown =
    operation.undocumented.length > 0 ? ` (not shown: ${operation.undocumented.join("; ")})` : "";
  return errorReply(
    "not_simulated",
    `${operation.operationId} is not simulated: the service interface does not give its shapes${unknown}`,
    { fields: { operationId: operation.operationId } },
  );
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = {};
  // Header names are case-insensitive: a rule's `Content-Type` must not sit beside ours.
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  let payload: string | undefined;
  if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers["content-type"] = `${reply.contentType ?? "application/json"}; charset=utf-8`;
    headers["content-length"] = String(Buffer.byteLength(payload));
  } else if (reply.status !== 204 && reply.status !== 304) {
    headers["content-length"] = "0";
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/**
 * The request target as the request log shows it: the path and the names of the query parameters,
 * never their values (a client may put anything in a query, a secret included). Names stay as sent,
 * percent-encoding and all, so a decoded line break cannot split a log line.
 *
 * @example
 * loggedTarget("/api/2.1/store?query=dog&searchField=NAME&searchField=TAGS"); // "/api/2.1/store?query&searchField"
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

/**
 * Builds the `request` listener of the HTTP server.
 *
 * @example
 * const server = createServer(createRequestListener(context));
 */
export function createRequestListener(
  ctx: PipelineContext,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    let operationId: string | undefined;
    const finish = (reply: Reply, operation?: Operation, rule?: number) => {
      if (res.headersSent || res.destroyed) return;
      let out = reply;
      if (ctx.validateResponses && operation) {
        const mismatch = ctx.validators
          .forOperation(operation)
          .checkResponse(
            out.status,
            out.body === undefined ? undefined : (out.contentType ?? "application/json"),
            out.body,
          );
        if (mismatch !== undefined) {
          const violation = new ResponseValidationError(operation.operationId, out.status, mismatch);
          ctx.onViolation(violation);
          out = errorReply("sandbox_response_invalid", violation.message);
        }
      }
      send(res, out);
      ctx.onRequest?.(
        `${req.method} ${loggedTarget(req.url ?? "/")} ${out.status}${operationId ? ` ${operationId}` : ""}${rule === undefined ? "" : ` (answered by response rule ${rule})`} ${Math.round(performance.now() - started)}ms`,
      );
    };
    handle(ctx, req, (id) => {
      operationId = id;
    })
      .then(({ reply, operation, rule }) => finish(reply, operation, rule))
      .catch((error: unknown) => {
        // A bug in the sandbox: say so plainly, without a stack trace in the body.
        console.error("drill-sandbox: internal error:", error);
        finish(errorReply("internal_error", "the sandbox failed while handling this request; see its log"));
      });
  };
}

async function handle(
  ctx: PipelineContext,
  req: IncomingMessage,
  named: (operationId: string) => void,
): Promise<{ reply: Reply; operation?: Operation; rule?: number }> {
  const rawUrl = req.url ?? "/";
  const queryAt = rawUrl.indexOf("?");
  const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
  if (!rawPath.startsWith("/")) {
    return { reply: errorReply("invalid_request", "request target: must be a path starting with /") };
  }
  if (rawPath.startsWith(ADMIN_PREFIX)) return { reply: await handleAdmin(ctx.admin, req, rawPath) };

  const match = ctx.router.match(rawPath);
  if (match.kind === "not_found") {
    return { reply: errorReply("not_found", `no operation is described for the path ${rawPath}`) };
  }
  if (match.kind === "bad_encoding") {
    return {
      reply: errorReply(
        "invalid_request",
        `path: segment ${JSON.stringify(match.segment)} is not valid percent-encoding`,
      ),
    };
  }
  const method = (req.method ?? "GET").toUpperCase();
  const entry = match.value;
  const operation =
    entry.operations.get(method as HttpMethod) ??
    (method === "HEAD" ? entry.operations.get("GET") : undefined);
  if (!operation) {
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
  named(operation.operationId);

  const fault = ctx.faults.take(operation.operationId);
  if (fault) {
    if (fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.status !== undefined) {
      // Deliberate: not checked against the description, the test asked for exactly this.
      const headers = fault.retryAfter === undefined ? undefined : { "retry-after": fault.retryAfter };
      const message = `fault injected by the sandbox for ${operation.operationId} (status ${fault.status})`;
      const body =
        operation.operationId === "exchangeToken"
          ? { error: "temporarily_unavailable", error_description: message }
          : errorBody("injected_fault", message);
      return { reply: { status: fault.status, body, ...(headers ? { headers } : {}) } };
    }
  }

  const decodedQuery = decodeForm(queryAt < 0 ? "" : rawUrl.slice(queryAt + 1), "query string");
  const validator = ctx.validators.forOperation(operation);
  if (operation.operationId === "exchangeToken") {
    // The token endpoint answers in OAuth's error format, but refuses what every operation refuses.
    if ("problem" in decodedQuery)
      return { reply: oauthError("invalid_request", decodedQuery.problem), operation };
    const params = validator.validateParams({
      pathParams: {},
      query: decodedQuery.fields,
      headers: req.headers,
    });
    if ("problems" in params) {
      const message = params.problems.map((p) => p.message).join("; ");
      return { reply: oauthError("invalid_request", message), operation };
    }
    // The OAuth operations are answered by the sandbox's own OAuth code, not by the validated
    // pipeline below: a rule for them answers in place of that code.
    const rule = ctx.responses.match(operation.operationId, match.params, decodedQuery.fields);
    if (rule) {
      if (!req.readableEnded) req.resume();
      return { reply: ruleReply(rule), operation, rule: rule.index };
    }
    return { reply: await tokenRequest(ctx, req), operation };
  }
  if ("problem" in decodedQuery) {
    return {
      reply: errorReply("invalid_request", decodedQuery.problem, { fields: { parameter: "query" } }),
      operation,
    };
  }
  const query = decodedQuery.fields;
  if (operation.operationId === "getAuthorizationServerMetadata") {
    const refused = refuseParamsAndBody(validator, operation, req, query);
    if (refused) return { reply: refused, operation };
    const rule = ctx.responses.match(operation.operationId, match.params, query);
    if (rule) return { reply: ruleReply(rule), operation, rule: rule.index };
    const base = requestBase(req, ctx.baseUrl());
    return {
      reply: { status: 200, body: { issuer: base, token_endpoint: `${base}/daas/oauth/token` } },
      operation,
    };
  }

  let actor: TokenSession | undefined;
  if (operation.security.length > 0) {
    const auth = authenticate(ctx, req);
    if ("reply" in auth) return { reply: auth.reply, operation };
    actor = auth.session;
  }

  const params = validator.validateParams({ pathParams: match.params, query, headers: req.headers });
  if ("problems" in params) {
    return {
      reply: errorReply("invalid_request", params.problems.map((p) => p.message).join("; "), {
        fields: { parameter: params.problems[0]?.parameter },
      }),
      operation,
    };
  }

  let body: unknown;
  if (hasBody(req)) {
    if (!operation.requestBody) {
      return {
        reply: errorReply("invalid_request", `request body: ${operation.operationId} takes none`),
        operation,
      };
    }
    const contentType = parseContentType(req.headers["content-type"]);
    const accepted = validator.bodyMediaTypes;
    if (!contentType || !accepted.includes(contentType.mediaType)) {
      return {
        reply: errorReply(
          "unsupported_media_type",
          `Content-Type: must be ${accepted.join(" or ")} for ${operation.operationId}`,
        ),
        operation,
      };
    }
    if (contentType.charset !== undefined && contentType.charset !== "utf-8") {
      return {
        reply: errorReply("unsupported_media_type", "Content-Type: charset must be utf-8"),
        operation,
      };
    }
    if (contentType.mediaType === "multipart/form-data" && contentType.boundary === undefined) {
      return {
        reply: errorReply("invalid_request", "Content-Type: multipart/form-data needs a boundary parameter"),
        operation,
      };
    }
    const read = await readBody(req, MAX_BODY_BYTES);
    if (read.kind === "aborted")
      return { reply: errorReply("invalid_request", "request body: aborted"), operation };
    if (read.kind === "too_large") {
      return {
        reply: errorReply("payload_too_large", `request body: larger than ${read.limit} bytes`, {
          headers: { connection: "close" },
        }),
        operation,
      };
    }
    const parsed = parseBody(contentType.mediaType, read.bytes);
    if ("problem" in parsed)
      return {
        reply: errorReply("invalid_request", parsed.problem, { fields: { parameter: "body" } }),
        operation,
      };
    const problem = validator.validateBody(contentType.mediaType, parsed.value);
    if (problem)
      return {
        reply: errorReply("invalid_request", problem.message, { fields: { parameter: "body" } }),
        operation,
      };
    body = parsed.value;
  } else {
    const missing = missingLength(req);
    if (missing) return { reply: missing, operation };
    if (operation.requestBody?.required) {
      return {
        reply: errorReply("invalid_request", `request body: required by ${operation.operationId}`),
        operation,
      };
    }
  }
  // Drain anything left so keep-alive connections stay usable.
  if (!req.readableEnded) req.resume();

  const rule = ctx.responses.match(operation.operationId, match.params, query);
  if (rule) return { reply: ruleReply(rule), operation, rule: rule.index };
  const handler = ctx.handlers.get(operation.operationId);
  const reply = handler ? handler({ operation, params, body, actor }) : notSimulated(operation);
  return { reply, operation };
}

/**
 * A PUT or POST without a body must still say so with `Content-Length: 0` (the service's reference asks
 * for it on every PUT); one that carries neither that nor chunked encoding is refused with 411.
 */
function missingLength(req: IncomingMessage): Reply | undefined {
  if (req.method !== "PUT" && req.method !== "POST") return undefined;
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined)
    return undefined;
  return errorReply(
    "length_required",
    `Content-Length: required on ${req.method}, also without a body (send Content-Length: 0)`,
  );
}

/** Discovery takes no parameters and no body; it refuses them like every other operation does. */
function refuseParamsAndBody(
  validator: OperationValidator,
  operation: Operation,
  req: IncomingMessage,
  query: URLSearchParams,
): Reply | undefined {
  const params = validator.validateParams({ pathParams: {}, query, headers: req.headers });
  if ("problems" in params) {
    return errorReply("invalid_request", params.problems.map((p) => p.message).join("; "), {
      fields: { parameter: params.problems[0]?.parameter },
    });
  }
  if (hasBody(req)) return errorReply("invalid_request", `request body: ${operation.operationId} takes none`);
  return undefined;
}

function ruleReply({ rule, mediaType }: LoadedRule): Reply {
  return {
    status: rule.status,
    ...(rule.body === undefined ? {} : { body: rule.body }),
    ...(rule.headers === undefined ? {} : { headers: rule.headers }),
    ...(mediaType === undefined ? {} : { contentType: mediaType }),
  };
}

function parseBody(mediaType: string, bytes: Buffer): { value: unknown } | { problem: string } {
  // Multipart parts may be binary (an uploaded file); their names are not shown, so nothing is parsed.
  if (mediaType === "multipart/form-data") return { value: undefined };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { problem: "request body: not valid UTF-8" };
  }
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return { problem: `request body: not valid JSON (${(error as Error).message})` };
    }
  }
  if (mediaType === "application/x-www-form-urlencoded") {
    const decoded = decodeForm(text, "request body");
    return "problem" in decoded ? decoded : { value: formFieldsObject(decoded.fields) };
  }
  return { value: text };
}

function authenticate(
  ctx: PipelineContext,
  req: IncomingMessage,
): { session: TokenSession } | { reply: Reply } {
  const header = req.headers.authorization;
  const challenge = (error?: string, description?: string) =>
    error === undefined
      ? 'Bearer realm="drill-sandbox"'
      : `Bearer realm="drill-sandbox", error="${error}", error_description="${description}"`;
  const unauthorized = (message: string, error?: string) =>
    ({
      reply: errorReply("unauthorized", message, {
        headers: { "www-authenticate": challenge(error, message) },
      }),
    }) as const;
  if (header === undefined) {
    return unauthorized(
      "Authorization: an access token is required (Authorization: Bearer <token>, or OAuth <token>)",
    );
  }
  // The service accepts the scheme words Bearer and OAuth, both case-sensitive (observed), so
  // `bearer` is refused here as it would be there.
  const m = /^(Bearer|OAuth) +([A-Za-z0-9._~+/-]+=*) *$/.exec(header);
  if (!m) return unauthorized(authorizationProblem(header), "invalid_request");
  const found = ctx.tokens.lookup(m[2] as string);
  if (found.kind === "expired")
    return unauthorized("access token: has expired; request a new one", "invalid_token");
  if (found.kind === "unknown")
    return unauthorized("access token: not issued by this sandbox", "invalid_token");
  return { session: found.session };
}

async function tokenRequest(ctx: PipelineContext, req: IncomingMessage): Promise<Reply> {
  const contentType = parseContentType(req.headers["content-type"]);
  if (contentType?.mediaType !== "application/x-www-form-urlencoded") {
    return oauthError("invalid_request", "Content-Type: must be application/x-www-form-urlencoded", 415);
  }
  const read = await readBody(req, MAX_BODY_BYTES);
  if (read.kind === "aborted") return oauthError("invalid_request", "request body: aborted");
  if (read.kind === "too_large")
    return oauthError("invalid_request", `request body: larger than ${read.limit} bytes`, 413);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
  } catch {
    return oauthError("invalid_request", "request body: not valid UTF-8");
  }
  const base = requestBase(req, ctx.baseUrl());
  const own = `${ctx.baseUrl()}/daas/oauth/token`;
  const advertised = `${base}/daas/oauth/token`;
  const endpoint = ctx.tokenEndpoint();
  return exchangeToken(new URLSearchParams(text), {
    credentials: endpoint.credentials,
    tokens: endpoint.tokens,
    lifetimeSeconds: endpoint.lifetimeSeconds,
    assertion: {
      accounts: endpoint.accounts,
      audiences: advertised === own ? [own] : [advertised, own],
      nowSeconds: endpoint.nowSeconds,
      resolveUser: (subject, serviceAccountId) => endpoint.resolveUser(subject, serviceAccountId),
    },
  });
}
