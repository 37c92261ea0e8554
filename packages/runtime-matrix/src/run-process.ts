/**
 * Runs one runtime process with a deadline and reads its report line.
 */
import { spawn } from "node:child_process";
import { REPORT_MARKER } from "./entries/report-line.js";
import type { ScenarioReport } from "./scenario.js";

/** What a runtime process left behind. */
export interface ProcessOutcome {
  /** The report line's content, or undefined when the process printed none. */
  readonly report: ScenarioReport | undefined;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly seconds: number;
}

export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** Output beyond this is dropped: a runaway runtime must not fill the test's memory. */
const MAX_OUTPUT_CHARS = 200_000;

/**
 * @example
 * ```ts
 * import { runProcess } from "./run-process.js";
 *
 * const outcome = await runProcess({
 *   command: process.execPath,
 *   args: ["-e", "console.log('hello')"],
 *   cwd: process.cwd(),
 *   env: {},
 *   timeoutMs: 30_000,
 * });
 * outcome.stdout; // "hello\n"
 * outcome.report; // undefined: the process printed no report line
 * ```
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    // Only what a runtime needs: no token, key or CI variable of the host leaks into it.
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? spec.cwd, ...spec.env },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that the deadline also ends what it started (Miniflare's workerd).
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, spec.timeoutMs);
    const finish = (exitCode: number | null) => {
      clearTimeout(timer);
      resolve({
        report: parseReport(stdout),
        exitCode,
        stdout,
        stderr,
        timedOut,
        seconds: (performance.now() - started) / 1000,
      });
    };
    child.on("error", (error) => {
      stderr += `cannot start ${spec.command}: ${error.message}`;
      finish(null);
    });
    child.on("close", (code) => {
      // A runtime that exited may have left a helper behind; the group goes with it.
      killGroup(child.pid);
      finish(code);
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

/** The report printed after the marker, if any. */
export function parseReport(stdout: string): ScenarioReport | undefined {
  const line = stdout.split("\n").find((candidate) => candidate.startsWith(REPORT_MARKER));
  return line === undefined ? undefined : (JSON.parse(line.slice(REPORT_MARKER.length)) as ScenarioReport);
}
