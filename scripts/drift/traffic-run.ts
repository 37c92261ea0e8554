/**
 * Records traffic through `pnpm drift:record`'s script in front of an in-process sandbox, then
 * checks it with `redocly drift` and sorts every finding: expected (on a named, deliberately invalid
 * request that is meant to break the description in exactly that way) or unexpected (anything else).
 * Used by the drift tests.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Sandbox, type SandboxOptions, startSandbox } from "@drill-practice/sandbox";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { type StartedProcess, startProcess } from "@drill-practice/tooling/process";
import type { Har, HarEntry } from "./redact-har.ts";
import { type DriftCoverage, type DriftProblem, type DriftReport, driftReport, ROOT } from "./redocly.ts";

/**
 * A request that breaks the description on purpose. It is sent with the user agent
 * `drift-case/<name>`, which is how its recorded exchange is found again.
 */
export interface InvalidRequest {
  readonly name: string;
  /** The rules the drift check must report on it (and on no other request); may be empty. */
  readonly rules: readonly string[];
  readonly method: string;
  /** Path and query, appended to the proxy's base URL. */
  readonly path: string;
  /** Send the access token as `Authorization: Bearer …`. */
  readonly authenticated: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What a traffic source is given: where to send it, and credentials as `client.env` holds them. */
export interface TrafficContext {
  readonly proxyUrl: string;
  readonly sandbox: Sandbox;
  /** `client.env`'s variables (DRILL_BASE_URL is the proxy), for child processes. */
  readonly env: NodeJS.ProcessEnv;
  readonly credentialsDir: string;
}

/** One program or request group that makes traffic, named for the report. */
export interface TrafficSource {
  readonly name: string;
  run(context: TrafficContext): Promise<void>;
}

/** One finding of the check, with the request it was found on. */
export interface SortedFinding {
  readonly problem: DriftProblem;
  /** The named invalid request it was found on, if any. */
  readonly request: string | undefined;
  readonly text: string;
}

export interface TrafficRun {
  readonly har: Har;
  readonly harFile: string;
  readonly report: DriftReport;
  readonly coverage: DriftCoverage;
  readonly driftExitCode: number;
  /** Findings tied to the named invalid request they were meant for. */
  readonly expected: readonly SortedFinding[];
  /** Every other finding; a clean run has none. */
  readonly unexpected: readonly SortedFinding[];
  /** `<request>: <rule>` for each expected finding the check did not report. */
  readonly missing: readonly string[];
  /** Requests the sandbox served, by source. */
  readonly requestsBySource: ReadonlyMap<string, number>;
  /** What the recording command printed. */
  readonly recorderOutput: string;
}

const USER_AGENT_PREFIX = "drift-case/";

/** Starts `scripts/drift/record.ts` and resolves once its proxy listens. */
function startRecorder(
  target: string,
  port: number,
  out: string,
  env: NodeJS.ProcessEnv,
): Promise<StartedProcess> {
  const record = join(ROOT, "scripts/drift/record.ts");
  return startProcess({
    command: process.execPath,
    args: ["--import", "tsx", record, "--target", target, "--port", String(port), "--out", out],
    cwd: ROOT,
    env,
    readyWhen: /Proxy listening on/,
    startMs: 90_000,
    name: "the recording command",
    // SIGTERM: the command stops its proxy before it exits.
    stopSignal: "SIGTERM",
  });
}

/** Sends one named invalid request through the proxy. */
export async function sendInvalid(request: InvalidRequest, proxyUrl: string, token: string): Promise<void> {
  const headers: Record<string, string> = {
    "user-agent": `${USER_AGENT_PREFIX}${request.name}`,
    ...request.headers,
  };
  if (request.authenticated) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${proxyUrl}${request.path}`, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  await res.arrayBuffer();
}

function caseOf(entry: HarEntry | undefined): string | undefined {
  const agent = entry?.request.headers.find((h) => h.name.toLowerCase() === "user-agent")?.value;
  return agent?.startsWith(USER_AGENT_PREFIX) ? agent.slice(USER_AGENT_PREFIX.length) : undefined;
}

function describe(problem: DriftProblem, request: string | undefined): string {
  const where = `${problem.method ?? "?"} ${problem.path ?? "?"} (${problem.status ?? "?"})`;
  const times =
    problem.occurrences > 1 ? `, ${problem.occurrences} exchanges from #${problem.exchangeIndex}` : "";
  const from = request === undefined ? "" : ` [request "${request}"]`;
  return `${problem.severity} ${problem.ruleId} on ${where}${from}: ${problem.message}${times}`;
}

/**
 * Sorts the check's findings against the named invalid requests: a finding is expected when it was
 * found on exactly one exchange, that exchange is a named request's, and the request lists its rule.
 *
 * @example
 * ```ts
 * import { mkdtemp, readFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { INVALID_REQUESTS } from "./own-traffic.ts";
 * import type { Har } from "./redact-har.ts";
 * import { driftReport } from "./redocly.ts";
 * import { sortFindings } from "./traffic-run.ts";
 *
 * const har = JSON.parse(await readFile("traffic.har", "utf8")) as Har;
 * const { report } = await driftReport("traffic.har", await mkdtemp(join(tmpdir(), "drift-")));
 * const { unexpected, missing } = sortFindings(report, har, INVALID_REQUESTS);
 * console.log(`${unexpected.length} unexpected findings, ${missing.length} missing`);
 * ```
 */
export function sortFindings(
  report: DriftReport,
  har: Har,
  invalid: readonly InvalidRequest[],
): { expected: SortedFinding[]; unexpected: SortedFinding[]; missing: string[] } {
  const expected: SortedFinding[] = [];
  const unexpected: SortedFinding[] = [];
  for (const problem of report.problems) {
    const request = caseOf(har.log.entries[problem.exchangeIndex]);
    const named = invalid.find((candidate) => candidate.name === request);
    const finding = { problem, request, text: describe(problem, request) };
    if (named?.rules.includes(problem.ruleId) && problem.occurrences === 1) expected.push(finding);
    else unexpected.push(finding);
  }
  const missing = invalid.flatMap((request) =>
    request.rules
      .filter((rule) => !expected.some((f) => f.request === request.name && f.problem.ruleId === rule))
      .map((rule) => `${request.name}: ${rule}`),
  );
  for (const request of invalid) {
    const count = har.log.entries.filter((entry) => caseOf(entry) === request.name).length;
    if (count !== 1) missing.push(`${request.name}: recorded ${count} times, not once`);
  }
  return { expected, unexpected, missing };
}

/**
 * Starts a sandbox whose public URL is a recording proxy (`scripts/drift/record.ts`) in front of it,
 * runs each source through the proxy, stops the recording, and checks it.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { INVALID_REQUESTS } from "./own-traffic.ts";
 * import { recordTraffic, type TrafficSource } from "./traffic-run.ts";
 *
 * const version: TrafficSource = {
 *   name: "version",
 *   run: async ({ proxyUrl }) => void (await fetch(`${proxyUrl}/api/2.1/version`)),
 * };
 * const dir = await mkdtemp(join(tmpdir(), "drift-"));
 * const run = await recordTraffic(dir, [version], INVALID_REQUESTS);
 * if (run.unexpected.length > 0) throw new Error(run.unexpected.map((f) => f.text).join("\n"));
 * ```
 */
export async function recordTraffic(
  workDir: string,
  sources: readonly TrafficSource[],
  invalid: readonly InvalidRequest[],
  sandboxOptions: SandboxOptions = {},
): Promise<TrafficRun> {
  const credentialsDir = join(workDir, "credentials");
  const harFile = join(workDir, "traffic.har");
  await mkdir(join(workDir, "tmp"), { recursive: true });
  const port = await closedLoopbackPort();
  const proxyUrl = `http://127.0.0.1:${port}`;
  let source = "(none)";
  const requestsBySource = new Map<string, number>();
  const sandbox = await startSandbox({
    port: 0,
    credentialsDir,
    publicUrl: proxyUrl,
    onRequest: () => requestsBySource.set(source, (requestsBySource.get(source) ?? 0) + 1),
    ...sandboxOptions,
  });
  let recorder: StartedProcess | undefined;
  try {
    // The raw recording's private folder goes under workDir, where the tests can look at it.
    const recorderEnv = { ...process.env, TMPDIR: join(workDir, "tmp") };
    recorder = await startRecorder(sandbox.url, port, harFile, recorderEnv);
    const env = await clientEnv(join(credentialsDir, "client.env"));
    const context: TrafficContext = { proxyUrl, sandbox, env, credentialsDir };
    for (const each of sources) {
      source = each.name;
      await each.run(context);
    }
    source = "(none)";
  } finally {
    recorder?.child.kill("SIGINT");
    await recorder?.exited();
    await sandbox.close();
  }
  const recorderOutput = recorder.output();
  const recorderExit = await recorder.exited();
  if (recorderExit !== 0) {
    throw new Error(`the recording command exited with ${recorderExit}:\n${recorderOutput}`);
  }
  const har = JSON.parse(await readFile(harFile, "utf8")) as Har;
  const checked = await driftReport(harFile, workDir);
  return {
    har,
    harFile,
    report: checked.report,
    coverage: checked.coverage,
    driftExitCode: checked.exitCode,
    ...sortFindings(checked.report, har, invalid),
    requestsBySource,
    recorderOutput,
  };
}

/** The variables of a `client.env` file, on top of this process's environment minus DRILL_*. */
async function clientEnv(file: string): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("DRILL_")),
  );
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    const m = /^(DRILL_[A-Z_]+)=(.*)$/.exec(line);
    if (m?.[1] && m[2] !== undefined) env[m[1]] = m[2].replace(/^'(.*)'$/, "$1");
  }
  return env;
}
