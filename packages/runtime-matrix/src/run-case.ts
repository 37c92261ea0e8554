/**
 * Runs one case of the matrix: the right binary with the right entry, bounded in time, and
 * hands back the runtime's report with what it printed, for a clear failure message.
 */
import { join } from "node:path";
import { runProcess } from "@drill-practice/tooling/process";
import { INPUT_VARIABLE, REPORT_MARKER } from "./entries/report-line.js";
import type { InProcessInput, InProcessReport } from "./in-process-scenario.js";
import { runInChromium } from "./run-chromium.js";
import { binaryPath, installedVersion, nodeForMiniflare, packageDir, type RuntimeCase } from "./runtimes.js";
import type { ScenarioInput, ScenarioReport } from "./scenario.js";
import type { BundleResult, Scratch } from "./scratch.js";

export interface CaseOutcome<Report = ScenarioReport> {
  readonly report: Report | undefined;
  /** The runtime's version as the runtime (or its driver) reported it. */
  readonly version: string | undefined;
  /** What the runtime printed, for the failure message. */
  readonly diagnostics: string;
  readonly seconds: number;
}

/** The scenario's input, plus the key file's path for the entries that read it. */
export type CaseInput = ScenarioInput & { readonly keyFile: string };

/** The origin of the Chromium page in the in-process case: reserved, so nothing can answer it. */
const IN_PROCESS_PAGE_ORIGIN = "https://runtime-matrix.invalid";

/**
 * The HTTP case: the runtime reaches the host's sandbox at `input.baseUrl`.
 */
export async function runCase(
  runtime: RuntimeCase,
  scratch: Scratch,
  input: CaseInput,
  timeoutMs: number,
): Promise<CaseOutcome> {
  if (
    runtime.kind === "process" &&
    runtime.entry !== "process-key-json" &&
    runtime.entry !== "process-key-file"
  ) {
    throw new Error(`${runtime.id}: a process runs a process entry, not ${runtime.entry}`);
  }
  const outcome = await runEntry(runtime, input, timeoutMs, {
    processEntry:
      runtime.entry === "process-key-json" || runtime.entry === "process-key-file"
        ? scratch.processEntry(runtime.entry)
        : undefined,
    workerd: scratch.workerdBundle,
    browser: scratch.browserBundle,
    pageOrigin: input.baseUrl,
    scratchDir: scratch.dir,
    miniflareHost: scratch.miniflareHost,
  });
  const report = outcome.report as ScenarioReport | undefined;
  return { ...outcome, report, version: outcome.version ?? report?.runtime };
}

/**
 * The in-process case: the runtime makes its own sandbox with `createSandbox` (the sandbox's Web
 * entry, bundled) and runs the scenario against it; nothing listens on the host.
 */
export async function runInProcessCase(
  runtime: RuntimeCase,
  scratch: Scratch,
  input: InProcessInput,
  timeoutMs: number,
): Promise<CaseOutcome<InProcessReport>> {
  const processBundle = scratch.inProcess.process;
  if (runtime.kind === "process" && !processBundle.ok) {
    return { ...bundleFailureOutcome(processBundle, runtime), seconds: 0 };
  }
  const outcome = await runEntry(runtime, input, timeoutMs, {
    processEntry: processBundle.ok ? processBundle.file : undefined,
    workerd: scratch.inProcess.workerd,
    browser: scratch.inProcess.browser,
    pageOrigin: IN_PROCESS_PAGE_ORIGIN,
    scratchDir: scratch.dir,
    miniflareHost: scratch.miniflareHost,
    inProcess: true,
  });
  const report = outcome.report as InProcessReport | undefined;
  return { ...outcome, report, version: outcome.version ?? report?.scenario.runtime };
}

interface EntryFiles {
  readonly processEntry: string | undefined;
  readonly workerd: BundleResult;
  readonly browser: BundleResult;
  readonly pageOrigin: string;
  readonly scratchDir: string;
  readonly miniflareHost: string;
  /** The in-process case: a Deno process gets no network permission at all. */
  readonly inProcess?: boolean;
}

/** Runs the right binary with the right entry within the deadline; the report is what it handed back. */
async function runEntry(
  runtime: RuntimeCase,
  input: unknown,
  timeoutMs: number,
  files: EntryFiles,
): Promise<CaseOutcome<unknown>> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  switch (runtime.kind) {
    case "process": {
      if (files.processEntry === undefined) throw new Error(`${runtime.id}: no process entry`);
      const outcome = await runProcess({
        command: binaryPath(runtime),
        args: argumentsFor(runtime, files.processEntry, files.scratchDir, files.inProcess === true),
        cwd: files.scratchDir,
        env: {
          [INPUT_VARIABLE]: JSON.stringify(input),
          // Runtimes' own caches and notices stay inside the scratch folder and offline.
          DENO_DIR: join(files.scratchDir, ".deno"),
          DENO_NO_UPDATE_CHECK: "1",
          DO_NOT_TRACK: "1",
          NO_COLOR: "1",
        },
        timeoutMs,
      });
      return {
        report: parseReport(outcome.stdout),
        version: undefined,
        diagnostics: describeProcess(outcome),
        seconds: seconds(),
      };
    }
    case "workerd": {
      if (!files.workerd.ok) return { ...bundleFailureOutcome(files.workerd, runtime), seconds: seconds() };
      const outcome = await runProcess({
        command: binaryPath(nodeForMiniflare()),
        args: [files.miniflareHost],
        cwd: files.scratchDir,
        env: {
          MATRIX_MINIFLARE: packageDir("miniflare"),
          MATRIX_WORKER: files.workerd.file,
          [INPUT_VARIABLE]: JSON.stringify(input),
          DO_NOT_TRACK: "1",
          NO_COLOR: "1",
        },
        timeoutMs,
      });
      return {
        report: parseReport(outcome.stdout),
        version: installedVersion("workerd"),
        diagnostics: describeProcess(outcome),
        seconds: seconds(),
      };
    }
    case "chromium": {
      if (!files.browser.ok) return { ...bundleFailureOutcome(files.browser, runtime), seconds: seconds() };
      const outcome = await runInChromium(
        binaryPath(runtime),
        files.browser.file,
        input,
        files.pageOrigin,
        timeoutMs,
      );
      return {
        report: outcome.report,
        version: outcome.version,
        diagnostics: outcome.log.join("\n"),
        seconds: seconds(),
      };
    }
  }
}

function argumentsFor(runtime: RuntimeCase, entry: string, scratchDir: string, inProcess: boolean): string[] {
  if (runtime.id === "deno" && inProcess) {
    // One bundled file that needs no package and no network: no --allow-net at all.
    return ["run", "--no-prompt", `--allow-env=${INPUT_VARIABLE}`, `--allow-read=${scratchDir}`, entry];
  }
  if (runtime.id === "deno") {
    // Deno finds the packages through the scratch folder's package.json and node_modules.
    return [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      `--allow-env=${INPUT_VARIABLE}`,
      `--allow-read=${scratchDir}`,
      entry,
    ];
  }
  if (runtime.id === "bun") return ["--no-install", entry];
  return [entry];
}

/** A bundling failure reported as the case's failure: a Worker or browser build would stop there too. */
function bundleFailureOutcome(
  result: Extract<BundleResult, { ok: false }>,
  runtime: RuntimeCase,
): Omit<CaseOutcome<never>, "seconds"> {
  return {
    report: undefined,
    version: undefined,
    diagnostics: `esbuild cannot bundle the packed packages for ${runtime.name}: ${result.error}`,
  };
}

function describeProcess(outcome: {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}): string {
  const status = outcome.timedOut ? "killed at its deadline" : `exit code ${outcome.exitCode}`;
  const tail = (text: string) => (text.length > 4000 ? `…${text.slice(-4000)}` : text);
  return `${status}\nstdout: ${tail(outcome.stdout.trim())}\nstderr: ${tail(outcome.stderr.trim())}`;
}

/** The report a runtime printed after the marker, if any. */
function parseReport(stdout: string): unknown {
  const line = stdout.split("\n").find((candidate) => candidate.startsWith(REPORT_MARKER));
  return line === undefined ? undefined : JSON.parse(line.slice(REPORT_MARKER.length));
}
