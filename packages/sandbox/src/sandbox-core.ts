/**
 * The sandbox without a door: loads the description's validators and the dataset, makes the
 * credentials and builds the pipeline and the controls (faults, response rules). Web APIs only; the
 * doors are `startSandbox` (`node:http`, in `sandbox.ts`) and `createSandbox` (an in-process `fetch`,
 * in `in-process.ts`).
 */
import type { ActiveFault, FaultRule } from "./admin/faults.js";
import { checkFaultRule, FaultInjector } from "./admin/faults.js";
import { validateDataFile } from "./data/data-file.js";
import type { DatasetSource } from "./data/dataset.js";
import { resolveDataset } from "./data/dataset.js";
import type { SandboxState } from "./domain/state.js";
import type { SandboxData } from "./domain/types.js";
import { DataFileError, type ResponseValidationError, SandboxOptionError } from "./errors.js";
import { bundledSpec } from "./http/bundled-spec.js";
import { bundledCompiler } from "./http/bundled-validators.js";
import { CorsPolicy, corsOriginProblem } from "./http/cors.js";
import { createHandlers, SIMULATED_OPERATIONS } from "./http/handlers.js";
import type { HttpMethod, OpenApiDocument, Operation } from "./http/openapi.js";
import { listOperations } from "./http/openapi.js";
import { routesOf } from "./http/operation-handler.js";
import type { PathEntry, Pipeline } from "./http/pipeline.js";
import { createPipeline } from "./http/pipeline.js";
import { PathRouter } from "./http/router.js";
import type { SpecValidators } from "./http/validator.js";
import { validatorsFor } from "./http/validator.js";
import { AccessTokens } from "./oauth/access-tokens.js";
import { createServiceAccounts, SandboxCredentials, type ServiceAccount } from "./oauth/credentials.js";
import { oauthRoutes, type TokenEndpointBase } from "./oauth/oauth-routes.js";

import { randomToken } from "./oauth/web-crypto.js";
import { publicUrlProblem } from "./public-url.js";
import { exampleAnswerHandlers } from "./responses/example-answers.js";
import type { ResponseRule, ResponseRulesFile } from "./responses/response-rules.js";
import { loadResponseRules, ResponseBook } from "./responses/response-rules.js";

/**
 * Default lifetime of issued access tokens, in seconds: the typical value the interface mentions.
 *
 * @example
 * ```ts
 * import { createSandbox, DEFAULT_TOKEN_LIFETIME_SECONDS } from "@drill-practice/sandbox";
 *
 * // Tokens that expire ten times sooner than usual, to exercise the client's refresh.
 * const sandbox = await createSandbox({ tokenLifetimeSeconds: Math.floor(DEFAULT_TOKEN_LIFETIME_SECONDS / 10) });
 * ```
 */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3599;

/**
 * Options every door takes (`createSandbox`'s options; `startSandbox` adds the network and files).
 *
 * @example
 * ```ts
 * import { createSandbox, type SandboxCoreOptions } from "@drill-practice/sandbox";
 *
 * const options: SandboxCoreOptions = { validateResponses: true, seed: 7, tokenLifetimeSeconds: 60 };
 * const sandbox = await createSandbox(options);
 * ```
 */
export interface SandboxCoreOptions extends Omit<DatasetSource, "dataFile"> {
  /** Client ID of the registered client application; random when absent. */
  readonly clientId?: string;
  /** Client secret of the registered client application; random when absent. */
  readonly clientSecret?: string;
  /**
   * The base URL clients reach the sandbox at when that is not its own address, such as a recording
   * proxy in front of it (`http://127.0.0.1:4040`): discovery advertises it, the token endpoint
   * accepts its token endpoint URI as the assertion's `aud`, and `client.env` points there. An
   * absolute `http:` or `https:` URL without credentials, query, fragment or trailing slash.
   */
  readonly publicUrl?: string;
  /**
   * Origins whose web pages may call the sandbox from a browser (CORS), such as a docs site or a front
   * end under development: each `scheme://host[:port]`, with no path (`http://127.0.0.1:8080`). A
   * preflight from one of them is answered 204 with the methods of the path, and every answer to it
   * carries `Access-Control-Allow-Origin` with that origin. Any other origin gets no CORS header, and
   * so does every origin by default.
   *
   * @example
   * ```ts
   * import { startSandbox } from "@drill-practice/sandbox";
   *
   * // A page on http://localhost:5173 may now fetch `${sandbox.url}/api/2.1/version` with its token.
   * const sandbox = await startSandbox({ corsOrigins: ["http://localhost:5173"] });
   * ```
   */
  readonly corsOrigins?: readonly string[];
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
  /**
   * Called with one line per request: method, path with the query's parameter names (never their
   * values), status, operationId, duration. No header, body or query value is logged.
   */
  readonly onRequest?: (line: string) => void;
  /**
   * An OpenAPI 3.1 document to use instead of the packaged one (for tests of the sandbox itself). Its
   * schemas are compiled at run time with `new Function`, which Workers do not allow.
   */
  readonly spec?: OpenApiDocument;
}

/**
 * What every sandbox handle offers to steer it, whichever door it came through.
 *
 * @example
 * ```ts
 * import { afterEach } from "vitest";
 * import { createSandbox, type SandboxControls } from "@drill-practice/sandbox";
 *
 * // Works with either door: startSandbox's Sandbox and createSandbox's InProcessSandbox.
 * function reset(sandbox: SandboxControls): void {
 *   sandbox.clearFaults();
 *   sandbox.clearResponses();
 * }
 * const sandbox = await createSandbox();
 * afterEach(() => reset(sandbox));
 * ```
 */
export interface SandboxControls {
  /** Base URL of the service (no trailing slash). */
  readonly url: string;
  /** The base URL discovery advertises: `publicUrl` when given, otherwise `url`. */
  readonly publicUrl: string;
  /** The token endpoint URI, as advertised by the discovery document. */
  readonly tokenEndpoint: string;
  readonly credentials: SandboxCredentials;
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
  /**
   * The current data in the data file's form (`data/FORMAT.md`): organizations, users, drills,
   * courses, catalogs, groups, objectives and practice counts, as requests have left them. Give it to
   * `restore` to come back to this point, or save it as JSON and start a sandbox from it.
   * Repertoires, open questions, tests, reviews, invitations and devices have no place in the format
   * and are not part of it.
   */
  snapshot(): SandboxData;
  /**
   * Replaces the data with `data` (a snapshot or any data file's content), checked as a data file is;
   * throws `DataFileError` listing every problem and keeps the current data when one is found. The
   * organizations and their service accounts must be those the sandbox started with (their keys, and
   * so the credentials, were made at the start). What the format has no place for starts empty.
   */
  restore(data: SandboxData): void;
  /**
   * Returns the data to how the sandbox started (its dataset, with nothing the requests changed),
   * in well under a millisecond at the built-in dataset: cheaper than a new sandbox between tests. Faults,
   * programmed responses and issued tokens stay.
   */
  reset(): void;
}

/**
 * An assembled sandbox: its pipeline, and the controls once its URL is known.
 */
export interface SandboxCore {
  readonly pipeline: Pipeline;
  /** Sets the URL the sandbox is reached at (known to the HTTP door only once it listens). */
  setBaseUrl(url: string): void;
  controls(): SandboxControls;
}

/**
 * What a door read from files before the core is assembled (the Node door's `dataFile` and
 * `responsesFile`).
 */
export interface ReadSources {
  readonly data?: SandboxData;
  readonly responses?: { readonly value: unknown; readonly source: string };
}

function checkOptions(options: SandboxCoreOptions): void {
  const { tokenLifetimeSeconds, clientId, clientSecret } = options;
  if (options.publicUrl !== undefined) {
    const problem = publicUrlProblem(options.publicUrl);
    if (problem) throw new SandboxOptionError(`publicUrl: ${problem}`);
  }
  checkCorsOrigins(options.corsOrigins);
  if (
    tokenLifetimeSeconds !== undefined &&
    !(Number.isInteger(tokenLifetimeSeconds) && tokenLifetimeSeconds >= 1 && tokenLifetimeSeconds <= 86_400)
  ) {
    throw new SandboxOptionError("tokenLifetimeSeconds: must be an integer from 1 to 86400");
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

function checkCorsOrigins(origins: unknown): void {
  if (origins === undefined) return;
  if (!Array.isArray(origins)) throw new SandboxOptionError("corsOrigins: must be an array of origins");
  origins.forEach((origin: unknown, index) => {
    const problem = corsOriginProblem(origin);
    if (problem) throw new SandboxOptionError(`corsOrigins[${index}]: ${problem}`);
  });
}

/** The part of an organization its credentials were made from: its ID, service account and key ID. */
function credentialKey(org: SandboxData["organizations"][number]): string {
  return JSON.stringify([org.id, org.serviceAccountId, org.serviceAccountKey?.keyId ?? null]);
}

/**
 * Checks data given to `restore` as a data file, and that its organizations are the ones the
 * sandbox's credentials were made for.
 */
function checkRestorable(value: unknown, started: SandboxData): SandboxData {
  const checked = validateDataFile(value);
  if (!checked.ok) throw new DataFileError(checked.problems, "given to restore");
  const before = started.organizations.map(credentialKey).sort().join();
  if (checked.data.organizations.map(credentialKey).sort().join() !== before) {
    const ids = started.organizations.map((org) => JSON.stringify(org.id)).join(", ");
    throw new DataFileError(
      [
        {
          path: "$.organizations",
          message: `must be the organizations the sandbox started with (${ids}), with the same service accounts and keys: the credentials were made for them at the start`,
        },
      ],
      "given to restore",
    );
  }
  return checked.data;
}

/** `snapshot`, `restore` and `reset` of a sandbox's state, for its handle and its admin endpoint. */
function stateControls(dataset: {
  readonly data: SandboxData;
  readonly state: SandboxState;
}): Pick<SandboxControls, "snapshot" | "restore" | "reset"> {
  return {
    snapshot: () => dataset.state.snapshot(),
    restore: (value: unknown) => dataset.state.restore(checkRestorable(value, dataset.data)),
    reset: () => dataset.state.reset(),
  };
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

interface Described {
  readonly operations: readonly Operation[];
  readonly operationIds: ReadonlySet<string>;
  readonly operationsById: ReadonlyMap<string, Operation>;
  readonly router: PathRouter<PathEntry>;
}

/** What a description says, worked out once per document: every sandbox of the process shares it. */
const described = new WeakMap<OpenApiDocument, Described>();

function describe(doc: OpenApiDocument): Described {
  let found = described.get(doc);
  if (!found) {
    const operations = listOperations(doc);
    found = {
      operations,
      operationIds: new Set(operations.map((o) => o.operationId)),
      operationsById: new Map(operations.map((o) => [o.operationId, o])),
      router: buildRouter(operations),
    };
    described.set(doc, found);
  }
  return found;
}

/** The packaged description with its precompiled validators, or a given one compiled now by Ajv. */
async function specValidators(spec: OpenApiDocument | undefined): Promise<{
  doc: OpenApiDocument;
  validators: SpecValidators;
}> {
  if (spec === undefined) {
    const doc = bundledSpec();
    return { doc, validators: validatorsFor(doc, bundledCompiler) };
  }
  // Loaded only here, so the core of a sandbox on the packaged description never carries Ajv's compiler.
  const { ajvCompiler } = await import("./http/ajv-compiler.js");
  return { doc: spec, validators: validatorsFor(spec, ajvCompiler(spec)) };
}

/** The programmed answers of a sandbox: its fault rules and its response rules, from options and files. */
function programmedAnswers(
  options: SandboxCoreOptions,
  read: ReadSources,
  described: { operationIds: ReadonlySet<string>; operationsById: ReadonlyMap<string, Operation> },
  validators: SpecValidators,
) {
  const faults = new FaultInjector();
  for (const rule of options.faults ?? []) faults.add(checkFaultRule(rule, described.operationIds));
  const responseBook = new ResponseBook();
  const setResponses = (input: unknown): number => {
    const loaded = loadResponseRules(input, described.operationsById, validators);
    responseBook.replace(loaded);
    return loaded.length;
  };
  if (options.responses !== undefined) setResponses(options.responses);
  if (read.responses !== undefined) {
    responseBook.replace(
      loadResponseRules(read.responses.value, described.operationsById, validators, read.responses.source),
    );
  }
  return { faults, responseBook, setResponses };
}

/** The dataset and its service accounts, whose RSA keys are generated while the state is built. */
async function datasetAndAccounts(options: SandboxCoreOptions, read: ReadSources) {
  // The keys are started as soon as the organizations are known: generating an RSA key takes a few
  // hundred milliseconds, off the main thread, while the state (the search index above all) is built.
  let keys: Promise<ServiceAccount[]> | undefined;
  const dataset = await resolveDataset(options, read.data, (data) => {
    keys = createServiceAccounts(data.organizations);
    // Awaited below; a failure of building the state first must not leave it unhandled.
    keys.catch(() => undefined);
  });
  const accounts = await (keys ?? createServiceAccounts(dataset.data.organizations));
  return { dataset, accounts };
}

/** The API operations' routes: the simulated ones over the state, the others' example answers. */
function operationRoutes(
  doc: OpenApiDocument,
  operations: readonly Operation[],
  validators: SpecValidators,
  state: SandboxState,
) {
  return [
    ...routesOf(createHandlers(state)),
    ...routesOf(
      exampleAnswerHandlers(doc, operations, validators, new Set(Object.keys(SIMULATED_OPERATIONS))),
    ),
  ];
}

/**
 * Assembles a sandbox from its options (checked here, once) and what its door read from files.
 */
export async function assembleSandbox(
  options: SandboxCoreOptions,
  read: ReadSources = {},
): Promise<SandboxCore> {
  checkOptions(options);
  const { doc, validators } = await specValidators(options.spec);
  const { operations, operationIds, operationsById, router } = describe(doc);
  // Compile every request validator now, so a broken schema fails the start, not a request.
  for (const op of operations) validators.forOperation(op);
  const { faults, responseBook, setResponses } = programmedAnswers(
    options,
    read,
    { operationIds, operationsById },
    validators,
  );
  const { dataset, accounts } = await datasetAndAccounts(options, read);
  const holdState = stateControls(dataset);
  const credentials = new SandboxCredentials(
    options.clientId ?? randomToken(16),
    options.clientSecret ?? randomToken(32),
    accounts,
  );
  const tokens = new AccessTokens(() => Date.now());
  const tokenEndpoint = (): TokenEndpointBase => ({
    credentials,
    tokens,
    lifetimeSeconds: options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
    accounts,
    nowSeconds: Date.now() / 1000,
    resolveUser: (subject, serviceAccountId) =>
      dataset.state.resolveTokenSubject(serviceAccountId, subject)?.id,
  });
  const violations: ResponseValidationError[] = [];

  let baseUrl = "";
  const pipeline = createPipeline({
    router,
    validators,
    routes: new Map([
      ...oauthRoutes({
        baseUrl: () => baseUrl,
        ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
        tokenEndpoint,
      }),
      ...operationRoutes(doc, operations, validators, dataset.state),
    ]),
    tokens,
    faults,
    responses: responseBook,
    admin: { faults, operationIds, setResponses, ...bookControls(responseBook), ...holdState },
    validateResponses: options.validateResponses === true,
    ...(options.corsOrigins?.length ? { cors: new CorsPolicy(options.corsOrigins) } : {}),
    onViolation: (error) => {
      violations.push(error);
      (options.onResponseViolation ?? reportViolation)(error);
    },
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });

  return {
    pipeline,
    setBaseUrl: (url) => {
      baseUrl = url;
    },
    controls: () =>
      sandboxControls(options, baseUrl, {
        credentials,
        violations,
        faults,
        responseBook,
        setResponses,
        operationIds,
        holdState,
      }),
  };
}

/** The admin API's and the handle's view of the response rules. */
function bookControls(book: ResponseBook) {
  return { listResponses: () => book.list(), clearResponses: () => book.replace([]) };
}

/** The default for a response that breaks the description: said on standard error, loudly. */
function reportViolation(error: ResponseValidationError): void {
  console.error(`drill-sandbox: RESPONSE VALIDATION FAILED: ${error.message}`);
}

/** What a door offers its user to steer a running sandbox. */
function sandboxControls(
  options: SandboxCoreOptions,
  baseUrl: string,
  parts: {
    credentials: SandboxCredentials;
    violations: ResponseValidationError[];
    faults: FaultInjector;
    responseBook: ResponseBook;
    setResponses: (input: unknown) => number;
    operationIds: ReadonlySet<string>;
    holdState: ReturnType<typeof stateControls>;
  },
): ReturnType<SandboxCore["controls"]> {
  const { faults, responseBook } = parts;
  return {
    url: baseUrl,
    publicUrl: options.publicUrl ?? baseUrl,
    tokenEndpoint: `${options.publicUrl ?? baseUrl}/daas/oauth/token`,
    credentials: parts.credentials,
    responseViolations: parts.violations,
    injectFault: (rule) => faults.add(checkFaultRule(rule, parts.operationIds)),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    setResponses: (rules) => {
      parts.setResponses(rules);
    },
    responses: () => responseBook.list(),
    clearResponses: () => responseBook.replace([]),
    ...parts.holdState,
  };
}
