/**
 * A child that shares this process's terminal: its output goes straight to the user, and it stays
 * in this process's group, so a terminal's Ctrl-C reaches it as well. For commands that run other
 * commands in the foreground (`pnpm test`'s guards, `redocly` behind the drift commands).
 *
 * @example
 * ```ts
 * import { runAttached, shellExitCode } from "@drill-practice/tooling/terminal";
 *
 * const { ended } = runAttached({ command: "git", args: ["status"], cwd: process.cwd(), env: process.env });
 * process.exitCode = shellExitCode(await ended);
 * ```
 */
import { type ChildProcess, spawn } from "node:child_process";
import { constants } from "node:os";

/**
 * What to run in the foreground.
 *
 * @example
 * ```ts
 * import { type AttachedSpec, runAttached } from "@drill-practice/tooling/terminal";
 *
 * // Its report on the terminal, its errors read by the caller.
 * const spec: AttachedSpec = {
 *   command: process.execPath,
 *   args: ["-e", "console.log('report'); console.error('problem')"],
 *   cwd: process.cwd(),
 *   env: process.env,
 *   stderr: "pipe",
 * };
 * const { child } = runAttached(spec);
 * child.stderr?.on("data", (chunk: Buffer) => console.warn(`seen: ${chunk}`));
 * ```
 */
export interface AttachedSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the process, as given. */
  readonly env: NodeJS.ProcessEnv;
  /** Its standard input from the terminal (the default), or none. */
  readonly stdin?: "inherit" | "ignore";
  /** Its standard error on the terminal (the default) or piped to the caller (`child.stderr`). */
  readonly stderr?: "inherit" | "pipe";
  /** Run through the system shell (Windows needs it for `.cmd` launchers such as `pnpm`). */
  readonly shell?: boolean;
}

/**
 * How an attached process ended.
 *
 * @example
 * ```ts
 * import { type Ending, runAttached } from "@drill-practice/tooling/terminal";
 *
 * const describe = (ending: Ending) =>
 *   ending.startError ?? (ending.signal ? `ended by ${ending.signal}` : `exit ${ending.exitCode}`);
 * const { ended } = runAttached({ command: "git", args: ["--version"], cwd: ".", env: process.env });
 * console.log(describe(await ended));
 * ```
 */
export interface Ending {
  /** `null` when a signal ended it or it never started. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Why it could not start (`cannot start <command>: <reason>`), when it could not. */
  readonly startError?: string;
}

/**
 * A running attached process and how it ends.
 *
 * @example
 * ```ts
 * import { type AttachedProcess, runAttached } from "@drill-practice/tooling/terminal";
 *
 * const server: AttachedProcess = runAttached({
 *   command: process.execPath,
 *   args: ["-e", "setInterval(() => {}, 1000)"],
 *   cwd: process.cwd(),
 *   env: process.env,
 * });
 * server.child.kill("SIGTERM");
 * (await server.ended).signal; // "SIGTERM"
 * ```
 */
export interface AttachedProcess {
  readonly child: ChildProcess;
  /** Settles once it has exited (or could not start); never rejects. */
  readonly ended: Promise<Ending>;
}

/**
 * Starts a process on this terminal, with no deadline: it runs as long as
 * the user lets it, and the caller may signal it through `child`.
 *
 * @example
 * ```ts
 * import { runAttached } from "@drill-practice/tooling/terminal";
 *
 * const { ended } = runAttached({
 *   command: "pnpm",
 *   args: ["test"],
 *   cwd: process.cwd(),
 *   env: { ...process.env, TURBO_FORCE: "true" },
 * });
 * const { exitCode, startError } = await ended;
 * if (startError) console.error(startError);
 * ```
 */
export function runAttached(spec: AttachedSpec): AttachedProcess {
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    stdio: [spec.stdin ?? "inherit", "inherit", spec.stderr ?? "inherit"],
    shell: spec.shell ?? false,
  });
  const ended = new Promise<Ending>((resolve) => {
    child.once("error", (error) =>
      resolve({ exitCode: null, signal: null, startError: `cannot start ${spec.command}: ${error.message}` }),
    );
    child.once("exit", (exitCode, signal) => resolve({ exitCode, signal }));
  });
  return { child, ended };
}

/**
 * The exit status a shell reports for an ending: its exit code, 128 + the signal's number when a
 * signal ended it, 127 when it could not start.
 *
 * @example
 * ```ts
 * import { shellExitCode } from "@drill-practice/tooling/terminal";
 *
 * shellExitCode({ exitCode: 3, signal: null }); // 3
 * shellExitCode({ exitCode: null, signal: "SIGINT" }); // 130
 * shellExitCode({ exitCode: null, signal: null, startError: "cannot start x: ENOENT" }); // 127
 * ```
 */
export function shellExitCode(ending: Ending): number {
  if (ending.startError !== undefined) return 127;
  if (ending.exitCode !== null) return ending.exitCode;
  return 128 + (ending.signal ? constants.signals[ending.signal] : 0);
}
