/**
 * `startSandbox`: the programmatic entry point. Loads the description and the dataset, makes the
 * credentials, starts the HTTP server and hands back a handle to steer and stop it.
 */
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { ActiveFault, FaultRule } from "./admin/faults.js";
import { checkFaultRule, FaultInjector } from "./admin/faults.js";
import type { DatasetSource } from "./data/dataset-loader.js";
import { loadDataset } from "./data/dataset-loader.js";
import { ListenError, type ResponseValidationError, SandboxOptionError } from "./errors.js";
import { createHandlers, SIMULATED_OPERATIONS } from "./http/handlers.js";
import type { HttpMethod, OpenApiDocument, Operation } from "./http/openapi.js";
import { listOperations, loadBundledSpec } from "./http/openapi.js";
import type { PathEntry } from "./http/pipeline.js";
import { createRequestListener } from "./http/pipeline.js";
import { PathRouter } from "./http/router.js";
import { validatorsFor } from "./http/validator.js";
import { AccessTokens } from "./oauth/access-tokens.js";
import { createServiceAccounts, randomToken, SandboxCredentials } from "./oauth/credentials.js";
import { writeCredentialsFiles } from "./oauth/credentials-files.js";
import { exampleAnswerHandlers } from "./responses/example-answers.js";
import type { ResponseRule, ResponseRulesFile } from "./responses/response-rules.js";
import { loadResponseRules, ResponseBook } from "./responses/response-rules.js";
import { readResponsesFile } from "./responses/responses-file.js";

/**
 * Default lifetime of issued access tokens, in seconds: the typical value the interface mentions.
 *
 * @example
 * const sandbox = await startSandbox({ tokenLifetimeSeconds: DEFAULT_TOKEN_LIFETIME_SECONDS });
 */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3599;

/**
 * Options of {@link startSandbox}.
 *
 * @example
 * const options: SandboxOptions = { port: 0, validateResponses: true, dataFile: "./my-data.json" };
 */
export interface SandboxOptions extends DatasetSource {
  /** TCP port; `0` (the default here; the CLI defaults to 4010) picks a free one. */
  readonly port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** Client ID of the registered client application; random when absent. */
  readonly clientId?: string;
  /** Client secret of the registered client application; random when absent. */
  readonly clientSecret?: string;
  /** Lifetime of issued access tokens in seconds (`expires_in`); default 3599. */
  readonly tokenLifetimeSeconds?: number;
  /**
   * Check every response against the description before sending it. A mismatch is recorded in
   * `responseViolations`, reported through `onResponseViolation` (default: logged to stderr) and
   * answered as 500 `sandbox_response_invalid`, so tests cannot miss it.
   */
  readonly validateResponses?: boolean;
  /** Called for each response that does not match the description (response validation mode). */
  readonly onResponseViolation?: (error: ResponseValidationError) => void;
  /** Fault rules active from the start. */
  readonly faults?: readonly FaultRule[];
  /**
   * Programmed responses active from the start: a list of rules or a `{ responses: [...] }` set (the
   * `--responses` file's content). Checked against the description; a bad set fails the start with
   * `ResponseRulesError`.
   */
  readonly responses?: readonly ResponseRule[] | ResponseRulesFile;
  /** The path of a responses file (`{ "responses": [...] }`), read at start; not with `responses`. */
  readonly responsesFile?: string;
  /** Write `service-account.json` and `client.env` into this directory (created when missing). */
  readonly credentialsDir?: string;
  /**
   * Called with one line per request: method, path with the query's parameter names (never their
   * values), status, operationId, duration. No header, body or query value is logged.
   */
  readonly onRequest?: (line: string) => void;
  /** An OpenAPI 3.1 document to use instead of the packaged one (for tests of the sandbox itself). */
  readonly spec?: OpenApiDocument;
}

/**
 * A running sandbox.
 *
 * @example
 * const sandbox = await startSandbox();
 * try {
 *   const res = await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
 * } finally {
 *   await sandbox.close();
 * }
 */
export interface Sandbox {
  /** Base URL of the service, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  readonly url: string;
  /** The token endpoint URI, as advertised by the discovery document. */
  readonly tokenEndpoint: string;
  readonly credentials: SandboxCredentials;
  /** The files written with `credentialsDir`, when given. */
  readonly credentialsFiles: { readonly keyFile: string | undefined; readonly envFile: string } | undefined;
  /** Responses that did not match the description (response validation mode); empty when all is well. */
  readonly responseViolations: readonly ResponseValidationError[];
  /** Adds a fault rule; returns its ID. */
  injectFault(rule: FaultRule): number;
  /** Active fault rules with their remaining uses. */
  faults(): ActiveFault[];
  /** Removes every fault rule. */
  clearFaults(): void;
  /**
   * Replaces the programmed responses with `rules` (a list or a `{ responses: [...] }` set), after
   * checking every rule; throws `ResponseRulesError` and keeps the previous set when one is bad.
   */
  setResponses(rules: readonly ResponseRule[] | ResponseRulesFile): void;
  /** The active programmed responses, in matching order. */
  responses(): ResponseRule[];
  /** Removes every programmed response. */
  clearResponses(): void;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
}

function checkOptions(options: SandboxOptions): void {
  const { port, tokenLifetimeSeconds, host, clientId, clientSecret } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new SandboxOptionError("port: must be an integer from 0 to 65535");
  }
  if (
    tokenLifetimeSeconds !== undefined &&
    !(Number.isInteger(tokenLifetimeSeconds) && tokenLifetimeSeconds >= 1 && tokenLifetimeSeconds <= 86_400)
  ) {
    throw new SandboxOptionError("tokenLifetimeSeconds: must be an integer from 1 to 86400");
  }
  if (host !== undefined && (typeof host !== "string" || host === "")) {
    throw new SandboxOptionError("host: must be a non-empty string");
  }
  for (const [name, value] of [
    ["clientId", clientId],
    ["clientSecret", clientSecret],
  ] as const) {
    if (value !== undefined && !(typeof value === "string" && /^[\x21-\x7e]+$/.test(value))) {
      throw new SandboxOptionError(`${name}: must be a non-empty string of printable ASCII without spaces`);
    }
  }
}

function buildRouter(operations: readonly Operation[]): PathRouter<PathEntry> {
  const byPath = new Map<string, Map<HttpMethod, Operation>>();
  for (const op of operations) {
    let methods = byPath.get(op.path);
    if (!methods) {
      methods = new Map();
      byPath.set(op.path, methods);
    }
    methods.set(op.method, op);
  }
  const router = new PathRouter<PathEntry>();
  for (const [template, methods] of byPath) router.add(template, { template, operations: methods });
  return router;
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts a sandbox.
 *
 * @example
 * import { startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ validateResponses: true });
 * console.log(sandbox.url, sandbox.credentials.clientId);
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  const doc = options.spec ?? (await loadBundledSpec());
  const operations = listOperations(doc);
  const operationIds = new Set(operations.map((o) => o.operationId));
  const validators = validatorsFor(doc);
  // Compile every request validator now, so a broken schema fails the start, not a request.
  for (const op of operations) validators.forOperation(op);

  const faults = new FaultInjector();
  for (const rule of options.faults ?? []) faults.add(checkFaultRule(rule, operationIds));

  const operationsById = new Map(operations.map((o) => [o.operationId, o]));
  const responseBook = new ResponseBook();
  const setResponses = (input: unknown): number => {
    const loaded = loadResponseRules(input, operationsById, validators);
    responseBook.replace(loaded);
    return loaded.length;
  };
  if (options.responses !== undefined && options.responsesFile !== undefined) {
    throw new SandboxOptionError("responses, responsesFile: give one of the two");
  }
  if (options.responses !== undefined) setResponses(options.responses);
  if (options.responsesFile !== undefined) {
    responseBook.replace(
      loadResponseRules(
        await readResponsesFile(options.responsesFile),
        operationsById,
        validators,
        options.responsesFile,
      ),
    );
  }

  const dataset = await loadDataset(options);
  const accounts = await createServiceAccounts(dataset.data.organizations);
  const credentials = new SandboxCredentials(
    options.clientId ?? randomToken(16),
    options.clientSecret ?? randomToken(32),
    accounts,
  );
  const tokens = new AccessTokens(() => Date.now());
  const lifetimeSeconds = options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  const violations: ResponseValidationError[] = [];
  const onViolation =
    options.onResponseViolation ??
    ((error: ResponseValidationError) =>
      console.error(`drill-sandbox: RESPONSE VALIDATION FAILED: ${error.message}`));

  const host = options.host ?? "127.0.0.1";
  let baseUrl = "";
  const sockets = new Set<Socket>();
  const server = createServer(
    // Reject header floods early; everything else is bounded by the pipeline.
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000 },
    createRequestListener({
      router: buildRouter(operations),
      validators,
      handlers: new Map([
        ...createHandlers(dataset.state),
        ...exampleAnswerHandlers(doc, operations, validators, new Set(Object.keys(SIMULATED_OPERATIONS))),
      ]),
      tokens,
      faults,
      responses: responseBook,
      admin: {
        faults,
        operationIds,
        setResponses,
        listResponses: () => responseBook.list(),
        clearResponses: () => responseBook.replace([]),
      },
      validateResponses: options.validateResponses === true,
      baseUrl: () => baseUrl,
      tokenEndpoint: () => ({
        credentials,
        tokens,
        lifetimeSeconds,
        accounts,
        nowSeconds: Date.now() / 1000,
        resolveUser: (subject, serviceAccountId) =>
          dataset.state.resolveTokenSubject(serviceAccountId, subject)?.id,
      }),
      onViolation: (error) => {
        violations.push(error);
        onViolation(error);
      },
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    }),
  );
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // Malformed HTTP never reaches the pipeline; answer it with a plain 400 instead of a reset.
  server.on("clientError", (_error, socket: Socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason = error.code === "EADDRINUSE" ? "address already in use" : error.message;
      reject(new ListenError(`cannot listen on ${host}:${options.port ?? 0}: ${reason}`));
    };
    server.once("error", onError);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${urlHost(host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host)}:${address.port}`;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closed;
  };

  let credentialsFiles: Sandbox["credentialsFiles"];
  if (options.credentialsDir !== undefined) {
    try {
      credentialsFiles = await writeCredentialsFiles(options.credentialsDir, { baseUrl, credentials });
    } catch (error) {
      await close();
      throw error;
    }
  }

  return {
    url: baseUrl,
    tokenEndpoint: `${baseUrl}/daas/oauth/token`,
    credentials,
    credentialsFiles,
    responseViolations: violations,
    injectFault: (rule) => faults.add(checkFaultRule(rule, operationIds)),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    setResponses: (rules) => {
      setResponses(rules);
    },
    responses: () => responseBook.list(),
    clearResponses: () => responseBook.replace([]),
    close,
  };
}
