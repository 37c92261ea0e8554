/**
 * Runs one guard of `pnpm test` and leaves a machine-readable verdict in
 * `.reports/<name>.json`, so that the final summary counts checks such as lint
 * or publint next to the vitest tests and never reads a stale result.
 *
 * Usage: tsx scripts/check.ts <name> -- <command> [args…]
 *
 * The name `vitest` means the command writes its own JSON report there. Vitest's
 * report does not record unhandled errors, a crash after writing it, or any other
 * reason the process exited non-zero, so the exit is added to it as `runner`:
 * the summary counts a non-zero exit as a failure even when every test passed.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runAttached, shellExitCode } from "@drill-practice/tooling/terminal";

const [name, separator, command, ...args] = process.argv.slice(2);
if (!name || separator !== "--" || !command) {
  console.error("usage: tsx scripts/check.ts <name> -- <command> [args…]");
  process.exit(2);
}

const reportDir = join(process.cwd(), ".reports");
const reportFile = join(reportDir, `${name}.json`);
await mkdir(reportDir, { recursive: true });
await rm(reportFile, { force: true });

const started = performance.now();
// Nothing a check runs may reach for the network (telemetry, update notices).
const env = {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  TURBO_TELEMETRY_DISABLED: "1",
  ...process.env,
};
const shell = process.platform === "win32";
const ending = await runAttached({ command, args, cwd: process.cwd(), env, shell }).ended;
if (ending.startError) console.error(`check ${name}: ${ending.startError}`);
// A process ended by a signal has no exit code; report it the way a shell does (128 + signal number).
const code = shellExitCode(ending);
const signal = ending.signal;
const seconds = (performance.now() - started) / 1000;
const runner = { exitCode: code, signal, seconds };

const ownReport = name === "vitest" ? await readVitestReport() : undefined;
let ok = code === 0;
if (ownReport) {
  await writeFile(reportFile, `${JSON.stringify({ ...ownReport, runner })}\n`);
} else {
  // A check, or a vitest that died before (or while) writing its report: that is a failure whatever the exit.
  if (name === "vitest") ok = false;
  const verdict = { kind: "check", name, ok, exitCode: code, signal, seconds };
  await writeFile(reportFile, `${JSON.stringify(verdict, null, 2)}\n`);
}
if (code !== 0)
  console.error(`check ${name}: ${command} exited with code ${code}${signal ? ` (${signal})` : ""}`);
process.exit(ok ? 0 : code || 1);

/** The report vitest wrote, or undefined when there is none or it is cut short. */
async function readVitestReport(): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(reportFile, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const report: unknown = JSON.parse(text);
    if (
      typeof report === "object" &&
      report !== null &&
      Array.isArray((report as { testResults?: unknown }).testResults)
    ) {
      return report as Record<string, unknown>;
    }
  } catch {
    // A half-written report is no report.
  }
  console.error(`check ${name}: ${reportFile} is not a vitest JSON report; counting the run as failed`);
  return undefined;
}
