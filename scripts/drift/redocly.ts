/**
 * What the drift commands share: the description they hold traffic against (the all-versions
 * bundle, since a recording may mix API 2.0 and 2.1), the match mode, and how `redocly` is run.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import { type AttachedProcess, runAttached } from "@drill-practice/tooling/terminal";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every operation of both versions, token exchange and discovery (written by `pnpm generate`). */
export const SPEC_BUNDLE = join(ROOT, "spec", "dist", "openapi.json");

/**
 * Requests are matched by the path under the servers' base path, whatever their host: the
 * description's only server is the `{base_url}` variable, and a recording's URLs name the proxy's
 * target (a sandbox on some port, or the real service).
 */
export const MATCH_MODE = "basepath";

/** `@redocly/cli`'s entry, resolved from the spec package that depends on it. */
export function redoclyEntry(): string {
  const require = createRequire(join(ROOT, "spec", "package.json"));
  return join(dirname(require.resolve("@redocly/cli/package.json")), "bin", "cli.js");
}

/** Why the commands cannot run yet, or `undefined`. */
export function missingBundle(): string | undefined {
  return existsSync(SPEC_BUNDLE)
    ? undefined
    : `${SPEC_BUNDLE} is missing: run \`pnpm generate\` (or \`pnpm build\`) first`;
}

/** The directory the user ran pnpm from (pnpm runs root scripts in the root, and says where in INIT_CWD). */
export function invokedFrom(): string {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm; the drift commands run outside turbo.
  return process.env.INIT_CWD ?? process.cwd();
}

/** A path the user typed, relative to the directory they ran pnpm from. */
export function userPath(path: string): string {
  return resolve(invokedFrom(), path);
}

/** Redocly's environment: this process's, with telemetry and update notices off. */
function redoclyEnv(): NodeJS.ProcessEnv {
  return { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
}

/**
 * Starts `redocly <args>` on the terminal; its standard error is piped when `stderr` says so (to
 * read its errors while its report goes to the terminal).
 */
export function runRedocly(args: readonly string[], stderr: "inherit" | "pipe" = "inherit"): AttachedProcess {
  return runAttached({
    command: process.execPath,
    args: [redoclyEntry(), ...args],
    cwd: ROOT,
    env: redoclyEnv(),
    stdin: "ignore",
    stderr,
  });
}

/** Redocly's exit code once it has ended (a signal, or a failure to start, counts as 1). */
export async function exitOf(redocly: AttachedProcess): Promise<number> {
  return (await redocly.ended).exitCode ?? 1;
}

/**
 * The arguments of `redocly drift` on our bundle: base-path matching and coverage, always.
 */
export function driftArgs(
  har: string,
  options: { format: string; output?: string; coverageOutput?: string },
): string[] {
  return [
    "drift",
    har,
    "--api",
    SPEC_BUNDLE,
    "--match-mode",
    MATCH_MODE,
    "--coverage",
    "--format",
    options.format,
    ...(options.output === undefined ? [] : ["--output", options.output]),
    ...(options.coverageOutput === undefined ? [] : ["--coverage-output", options.coverageOutput]),
  ];
}

/** One problem of `redocly drift --format json`: a rule broken by one or more exchanges. */
export interface DriftProblem {
  readonly ruleId: string;
  readonly severity: "error" | "warning" | "info";
  readonly message: string;
  /** How many exchanges showed it; `exchangeIndex` is the first of them (0-based HAR entry). */
  readonly occurrences: number;
  readonly exchangeIndex: number;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly operationId?: string;
  readonly details?: unknown;
}

/** The parts of the drift report the project reads. */
export interface DriftReport {
  readonly run: {
    readonly totalExchanges: number;
    readonly documentedExchanges: number;
    readonly undocumentedExchanges: number;
    readonly findingsBySeverity: { readonly error: number; readonly warning: number; readonly info: number };
  };
  readonly problems: readonly DriftProblem[];
}

/** Covered and total counts of `redocly drift --coverage-output`. */
export interface DriftCoverage {
  readonly totals: Readonly<
    Record<"operations" | "parameters" | "properties" | "responses", { covered: number; total: number }>
  >;
  readonly operations: readonly {
    readonly method: string;
    readonly path: string;
    readonly operationId?: string;
    readonly covered: readonly { readonly kind: string; readonly status?: string }[];
    readonly missing: readonly { readonly kind: string; readonly status?: string }[];
  }[];
}

/** Bounds a drift check of a test recording, so that a stuck run fails instead of hanging. */
const DRIFT_TIMEOUT_MS = 600_000;

/**
 * Runs `redocly drift` on a recording with the project's settings and reads its JSON report and
 * coverage back (written into `workDir`). `exitCode` is redocly's: 1 when an error was found.
 */
export async function driftReport(
  har: string,
  workDir: string,
): Promise<{ report: DriftReport; coverage: DriftCoverage; exitCode: number; output: string }> {
  const reportFile = join(workDir, "drift-report.json");
  const coverageFile = join(workDir, "drift-coverage.json");
  const run = await runProcess({
    command: process.execPath,
    args: [
      redoclyEntry(),
      ...driftArgs(har, { format: "json", output: reportFile, coverageOutput: coverageFile }),
    ],
    cwd: ROOT,
    env: redoclyEnv(),
    timeoutMs: DRIFT_TIMEOUT_MS,
  });
  const output = run.stdout + run.stderr;
  const exitCode = run.exitCode ?? 1;
  const read = async <T>(file: string): Promise<T> => {
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) throw new Error(`redocly drift wrote no ${file} (exit ${exitCode}):\n${output}`);
    return JSON.parse(text) as T;
  };
  return {
    report: await read<DriftReport>(reportFile),
    coverage: await read<DriftCoverage>(coverageFile),
    exitCode,
    output,
  };
}
