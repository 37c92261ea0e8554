/**
 * Runs one case of the matrix: the right binary with the right entry, bounded in time, and
 * hands back the runtime's report with what it printed, for a clear failure message.
 */
import { join } from "node:path";
import { INPUT_VARIABLE } from "./entries/report-line.js";
import { runInChromium } from "./run-chromium.js";
import { runProcess } from "./run-process.js";
import { binaryPath, installedVersion, nodeForMiniflare, packageDir, type RuntimeCase } from "./runtimes.js";
import type { ScenarioInput, ScenarioReport } from "./scenario.js";
import type { BundleResult, Scratch } from "./scratch.js";

export interface CaseOutcome {
  readonly report: ScenarioReport | undefined;
  /** The runtime's version as the runtime (or its driver) reported it. */
  readonly version: string | undefined;
  /** What the runtime printed, for the failure message. */
  readonly diagnostics: string;
  readonly seconds: number;
}

/** The scenario's input, plus the key file's path for the entries that read it. */
export type CaseInput = ScenarioInput & { readonly keyFile: string };

/**
 * @example
 * ```ts
 * const outcome = await runCase(runtime, scratch, input, 30_000);
 * ```
 */
export async function runCase(
  runtime: RuntimeCase,
  scratch: Scratch,
  input: CaseInput,
  timeoutMs: number,
): Promise<CaseOutcome> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  switch (runtime.kind) {
    case "process": {
      if (runtime.entry !== "process-key-json" && runtime.entry !== "process-key-file") {
        throw new Error(`${runtime.id}: a process runs a process entry, not ${runtime.entry}`);
      }
      const entry = scratch.processEntry(runtime.entry);
      const outcome = await runProcess({
        command: binaryPath(runtime),
        args: argumentsFor(runtime, entry, scratch.dir),
        cwd: scratch.dir,
        env: {
          [INPUT_VARIABLE]: JSON.stringify(input),
          // Runtimes' own caches and notices stay inside the scratch folder and offline.
          DENO_DIR: join(scratch.dir, ".deno"),
          DENO_NO_UPDATE_CHECK: "1",
          DO_NOT_TRACK: "1",
          NO_COLOR: "1",
        },
        timeoutMs,
      });
      return {
        report: outcome.report,
        version: outcome.report?.runtime,
        diagnostics: describeProcess(outcome),
        seconds: seconds(),
      };
    }
    case "workerd": {
      const failed = bundleFailure(scratch.workerdBundle, runtime);
      if (failed) return { report: failed, version: undefined, diagnostics: "", seconds: seconds() };
      const file = (scratch.workerdBundle as { file: string }).file;
      const outcome = await runProcess({
        command: binaryPath(nodeForMiniflare()),
        args: [scratch.miniflareHost],
        cwd: scratch.dir,
        env: {
          MATRIX_MINIFLARE: packageDir("miniflare"),
          MATRIX_WORKER: file,
          [INPUT_VARIABLE]: JSON.stringify(input),
          DO_NOT_TRACK: "1",
          NO_COLOR: "1",
        },
        timeoutMs,
      });
      return {
        report: outcome.report,
        version: installedVersion("workerd"),
        diagnostics: describeProcess(outcome),
        seconds: seconds(),
      };
    }
    case "chromium": {
      const failed = bundleFailure(scratch.browserBundle, runtime);
      if (failed) return { report: failed, version: undefined, diagnostics: "", seconds: seconds() };
      const file = (scratch.browserBundle as { file: string }).file;
      const outcome = await runInChromium(binaryPath(runtime), file, input, timeoutMs);
      return {
        report: outcome.report,
        version: outcome.version,
        diagnostics: outcome.log.join("\n"),
        seconds: seconds(),
      };
    }
  }
}

function argumentsFor(runtime: RuntimeCase, entry: string, scratchDir: string): string[] {
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
function bundleFailure(result: BundleResult, runtime: RuntimeCase): ScenarioReport | undefined {
  if (result.ok) return undefined;
  return {
    ok: false,
    runtime: runtime.name,
    step: "setup",
    error: `esbuild cannot bundle the packed packages for ${runtime.name}: ${result.error}`,
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
