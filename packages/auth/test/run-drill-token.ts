/**
 * Runs `drill-token` from source (through tsx) the way a shell does, for the CLI tests: only the
 * given environment (plus `PATH` and `HOME`), an empty standard input unless one is given, and a
 * deadline that ends it.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What one `drill-token` run left behind. */
export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `drill-token args…`, with the `preload` modules imported first (to change how Node resolves
 * packages); rejects only when it cannot start at all.
 */
export async function drillToken(
  args: string[],
  env: Record<string, string> = {},
  stdin = "",
  preload: readonly string[] = [],
): Promise<Run> {
  const result = await runProcess({
    command: process.execPath,
    args: ["--import", "tsx", ...preload.flatMap((module) => ["--import", module]), "src/cli.ts", ...args],
    cwd: packageDir,
    env,
    timeoutMs: 100_000,
    input: stdin,
  });
  if (result.exitCode === null && !result.timedOut) throw new Error(result.stderr);
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}
