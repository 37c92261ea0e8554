/**
 * One way to run a child process from the repository's tooling: a deadline that ends the whole
 * process group, output captured (and bounded), and only the environment it is given.
 *
 * @example
 * ```ts
 * import { runProcess } from "@drill-practice/tooling/process";
 *
 * const { exitCode, stderr, timedOut } = await runProcess({
 *   command: "git",
 *   args: ["status", "--short"],
 *   cwd: process.cwd(),
 *   env: {},
 *   timeoutMs: 10_000,
 * });
 * if (exitCode !== 0) throw new Error(timedOut ? "git status timed out" : stderr);
 * ```
 *
 * Why this is hand-written rather than tinyexec (1.3.1, tried for issue #48, not kept): a
 * `runProcess` on tinyexec passed this module's tests only with every promise above re-added
 * around it, and came out as long as this one, plus a dependency. What it left to the caller:
 * - Its `timeout` sends SIGTERM to the direct child alone. A grandchild holding the output pipes
 *   survived it, and the result did not come until that grandchild was killed by hand; the
 *   group-wide SIGKILL and its timer stay here (with `timedOut`, where tinyexec rejects instead).
 * - It spreads the host's whole environment under the one given (a host-only variable reached the
 *   child), and puts the `node_modules/.bin` of the folder and of each one above it on `PATH`;
 *   keeping the host out meant masking each of its variables with `undefined`.
 * - It keeps all output in memory before anything can cut it: for a process writing 200 MB, the
 *   caller grew by about 245 MiB against 10 MiB here.
 * - Its string `stdin` has no error listener: a process that exits without reading 4 MB of input
 *   crashed the caller with EPIPE.
 * The interrupt on a text and the ready line of {@link launchProcess} need this module's own
 * listeners on the child's output either way, and callers use `child` as a process with its three
 * pipes, which tinyexec types as possibly absent.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/**
 * What a process left behind.
 *
 * @example
 * ```ts
 * import { type ProcessResult, runProcess } from "@drill-practice/tooling/process";
 *
 * function summary(result: ProcessResult): string {
 *   if (result.timedOut) return `killed after ${result.seconds.toFixed(1)} s`;
 *   return result.exitCode === 0 ? result.stdout.trim() : `exit ${result.exitCode}: ${result.stderr.trim()}`;
 * }
 * const spec = { command: "node", args: ["--version"], cwd: ".", env: {}, timeoutMs: 10_000 };
 * console.log(summary(await runProcess(spec)));
 * ```
 */
export interface ProcessResult {
  readonly exitCode: number | null;
  /** The signal that ended it, when one did (its exit code is then `null`). */
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The deadline ended it (its whole process group was killed). */
  readonly timedOut: boolean;
  readonly seconds: number;
}

/**
 * What to run, where, with which environment and for how long at most.
 *
 * @example
 * ```ts
 * import { type ProcessSpec, runProcess } from "@drill-practice/tooling/process";
 *
 * // Only what is given reaches the child: here the one variable it needs, and its standard input.
 * const spec: ProcessSpec = {
 *   command: process.execPath,
 *   args: ["-e", "process.stdin.pipe(process.stdout)"],
 *   cwd: process.cwd(),
 *   env: { NODE_OPTIONS: "--no-warnings" },
 *   timeoutMs: 10_000,
 *   input: "echoed",
 * };
 * (await runProcess(spec)).stdout; // "echoed"
 * ```
 */
export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Added to `PATH` and `HOME` only: no token, key or CI variable of the host leaks in unless given. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** Written to the process's standard input, which is then closed; none when left out. */
  readonly input?: string;
  /**
   * Once its standard output shows this text, SIGINT goes to its whole process group, as a
   * terminal's Ctrl-C does (to check how a long-running command stops).
   */
  readonly interruptWhen?: string;
}

/** Output beyond this is dropped: a runaway process must not fill the caller's memory. */
const MAX_OUTPUT_CHARS = 200_000;

/**
 * Runs a process to its end or its deadline and never rejects: a process that cannot start comes
 * back with exit code `null` and the reason in `stderr`.
 *
 * @example
 * ```ts
 * import { runProcess } from "@drill-practice/tooling/process";
 *
 * const result = await runProcess({
 *   command: process.execPath,
 *   args: ["-e", "console.log('hello')"],
 *   cwd: process.cwd(),
 *   env: {},
 *   timeoutMs: 30_000,
 * });
 * result.stdout; // "hello\n"
 * ```
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? spec.cwd, ...spec.env },
      stdio: [spec.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      // Its own process group, so that the deadline also ends what it started (Miniflare's workerd).
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk;
      if (spec.interruptWhen !== undefined && !interrupted && stdout.includes(spec.interruptWhen)) {
        interrupted = true;
        signalGroup(child.pid, "SIGINT");
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk;
    });
    if (spec.input !== undefined && child.stdin) {
      // A process that exits without reading its input must not fail the run with EPIPE.
      child.stdin.on("error", () => {});
      child.stdin.end(spec.input);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child.pid, "SIGKILL");
    }, spec.timeoutMs);
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      resolve({ exitCode, signal, stdout, stderr, timedOut, seconds });
    };
    child.on("error", (error) => {
      stderr += `cannot start ${spec.command}: ${error.message}`;
      finish(null, null);
    });
    child.on("close", (code, signal) => {
      // A process that exited may have left a helper behind; the group goes with it.
      signalGroup(child.pid, "SIGKILL");
      finish(code, signal);
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * A long-running process (a server) that said it is ready.
 *
 * @example
 * ```ts
 * import { type StartedProcess, startProcess } from "@drill-practice/tooling/process";
 *
 * const stop = async (server: StartedProcess) => {
 *   server.child.kill("SIGTERM");
 *   return server.exited(); // its exit code, or null when a signal ended it
 * };
 * const server = await startProcess({
 *   command: process.execPath,
 *   args: ["-e", "console.log('ready'); setInterval(() => {}, 1000)"],
 *   cwd: process.cwd(),
 *   env: process.env,
 *   readyWhen: /ready/,
 *   startMs: 30_000,
 *   name: "idle server",
 * });
 * await stop(server);
 * ```
 */
export interface StartedProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The match of `readyWhen` in its output (the URL it listens on, say). */
  readonly ready: RegExpExecArray;
  /** Everything it wrote so far, standard output and error interleaved. */
  output(): string;
  /** Its exit code once it has exited and its output is complete (at once when it already has). */
  exited(): Promise<number | null>;
}

/**
 * What to start, and what it prints (on standard output or error) once it is ready.
 *
 * @example
 * ```ts
 * import type { StartSpec } from "@drill-practice/tooling/process";
 *
 * // The sandbox's command line on a free port; ready once it prints the URL it listens on.
 * const sandbox: StartSpec = {
 *   command: process.execPath,
 *   args: ["packages/sandbox/dist/cli.js", "--port", "0"],
 *   cwd: process.cwd(),
 *   env: process.env,
 *   readyWhen: /listening on (http:\S+)/,
 *   startMs: 60_000,
 *   name: "drill-sandbox",
 * };
 * ```
 */
export interface StartSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the process, as given. */
  readonly env: NodeJS.ProcessEnv;
  readonly readyWhen: RegExp;
  /** How long it may take to become ready; its name in the error when it does not. */
  readonly startMs: number;
  readonly name: string;
  /**
   * How one that is not ready in time is ended: SIGKILL (the default), or the signal it stops
   * cleanly on when it must tidy up first (a recorder that stops its own helper).
   */
  readonly stopSignal?: NodeJS.Signals;
}

/**
 * Why a process did not become ready (it exited first, or took too long), with all it wrote.
 *
 * @example
 * ```ts
 * import { ProcessStartError, startProcess } from "@drill-practice/tooling/process";
 *
 * try {
 *   await startProcess({
 *     command: process.execPath,
 *     args: ["-e", "console.error('port taken'); process.exit(1)"],
 *     cwd: process.cwd(),
 *     env: process.env,
 *     readyWhen: /listening/,
 *     startMs: 30_000,
 *     name: "example server",
 *   });
 * } catch (error) {
 *   if (error instanceof ProcessStartError) console.error(error.output.trim()); // "port taken"
 * }
 * ```
 */
export class ProcessStartError extends Error {
  /** Standard output and error, interleaved as they came. */
  readonly output: string;

  constructor(message: string, output: string) {
    super(`${message}:\n${output}`);
    this.name = "ProcessStartError";
    this.output = output;
  }
}

/**
 * A process just launched: its child at once, and its start still to come.
 *
 * @example
 * ```ts
 * import { type LaunchedProcess, launchProcess } from "@drill-practice/tooling/process";
 *
 * const worker: LaunchedProcess = launchProcess({
 *   command: process.execPath,
 *   args: ["-e", "console.log('ready'); process.stdin.once('data', () => process.exit(0))"],
 *   cwd: process.cwd(),
 *   env: {},
 *   readyWhen: /^ready$/m,
 *   startMs: 30_000,
 *   name: "worker",
 * });
 * await worker.started;
 * worker.child.stdin.write("go\n");
 * await worker.exited(); // 0
 * worker.stdout(); // "ready\n"
 * ```
 */
export interface LaunchedProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /**
   * The match of `readyWhen`, once it shows; rejects with a {@link ProcessStartError} when the
   * process exits first or is not ready in time (then it is ended).
   */
  readonly started: Promise<RegExpExecArray>;
  /** Everything it wrote so far, standard output and error interleaved. */
  output(): string;
  /** Its standard output alone, so far. */
  stdout(): string;
  /** Its exit code once it has exited and its output is complete (at once when it already has). */
  exited(): Promise<number | null>;
}

/**
 * Launches a process and returns at once, for callers that hold the child before it is ready (to
 * start several together, or to kill one mid-start); {@link startProcess} waits for it instead.
 *
 * @example
 * ```ts
 * import { launchProcess } from "@drill-practice/tooling/process";
 *
 * const spec = {
 *   command: process.execPath,
 *   args: ["-e", "console.log('ready'); setInterval(() => {}, 1000)"],
 *   cwd: process.cwd(),
 *   env: process.env,
 *   readyWhen: /ready/,
 *   startMs: 30_000,
 * };
 * const pair = [launchProcess({ ...spec, name: "first" }), launchProcess({ ...spec, name: "second" })];
 * await Promise.all(pair.map((each) => each.started));
 * for (const each of pair) each.child.kill("SIGTERM");
 * ```
 */
export function launchProcess(spec: StartSpec): LaunchedProcess {
  const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env });
  let output = "";
  let stdout = "";
  // "close", not "exit": by then its output pipes are drained too.
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const started = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      // One that never got ready is no one's to stop: it goes here.
      child.kill(spec.stopSignal ?? "SIGKILL");
      reject(new ProcessStartError(`${spec.name} did not start in time`, output));
    }, spec.startMs);
    let ready: RegExpExecArray | null = null;
    const look = () => {
      ready ??= spec.readyWhen.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready);
      }
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
      look();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      look();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new ProcessStartError(`${spec.name} exited with ${code}`, output));
    });
  });
  // Its failure is the caller's to see when it awaits `started`, not an unhandled rejection.
  started.catch(() => {});
  return { child, started, output: () => output, stdout: () => stdout, exited: () => closed };
}

/**
 * Starts a process and resolves once its output matches `readyWhen`; rejects with a
 * {@link ProcessStartError} when it exits first or is not ready in time (then it is ended). Once it
 * is ready, the caller stops it (`child.kill`).
 *
 * @example
 * ```ts
 * import { type StartedProcess, type StartSpec, startProcess } from "@drill-practice/tooling/process";
 *
 * const spec: StartSpec = {
 *   command: process.execPath,
 *   args: ["-e", "console.log('listening on http://127.0.0.1:1'); setInterval(() => {}, 1000)"],
 *   cwd: process.cwd(),
 *   env: process.env,
 *   readyWhen: /listening on (\S+)/,
 *   startMs: 30_000,
 *   name: "example server",
 * };
 * const server: StartedProcess = await startProcess(spec);
 * server.ready[1]; // "http://127.0.0.1:1"
 * server.child.kill("SIGTERM");
 * await server.exited();
 * ```
 */
export async function startProcess(spec: StartSpec): Promise<StartedProcess> {
  const launched = launchProcess(spec);
  const ready = await launched.started;
  return { child: launched.child, ready, output: launched.output, exited: launched.exited };
}

/**
 * A child's exit code once it has exited (at once when it already has; `null` when a signal
 * ended it).
 *
 * @example
 * ```ts
 * import { spawn } from "node:child_process";
 * import { exitOf } from "@drill-practice/tooling/process";
 *
 * await exitOf(spawn(process.execPath, ["-e", "process.exit(2)"])); // 2
 * ```
 */
export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.on("exit", (code) => resolve(code));
  });
}
