/**
 * The last step of `pnpm test`: reads every `.reports/*.json` left by the
 * checks and vitest runs of this repository and prints one line
 * `N passed, N failed, N skipped`. Every way a run can go wrong counts as a
 * failure, whatever else the same report says: a failed test, a test file that
 * failed to load (or whose hooks failed), a runner that exited non-zero or was
 * killed (even when all its tests passed), a check that failed, a report that is
 * missing, unreadable or not written through scripts/check.ts, and a stray
 * report nobody counts.
 *
 * Usage: tsx scripts/test-summary.ts [--root <dir>]   (default: this repository)
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EXPECTED_REPORTS } from "./expected-reports.ts";

const rootArg = process.argv.indexOf("--root");
const root =
  rootArg === -1 ? fileURLToPath(new URL("..", import.meta.url)) : resolve(process.argv[rootArg + 1] ?? ".");

interface CheckReport {
  kind: "check";
  name: string;
  ok: boolean;
  exitCode?: number;
  signal?: string | null;
}
interface AssertionResult {
  status: string;
  fullName?: string;
  failureMessages?: string[];
}
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
  testResults: { status: string; message?: string; name: string; assertionResults?: AssertionResult[] }[];
  /** Added by scripts/check.ts: how the vitest process ended. */
  runner?: { exitCode: number; signal: string | null };
}

/** How many lines of a failed test's message the summary repeats. */
const REASON_LINES = 12;

let passed = 0;
let failed = 0;
let skipped = 0;
const problems: string[] = [];

for (const file of EXPECTED_REPORTS) {
  const text = await readFile(join(root, file), "utf8").catch(() => undefined);
  if (text === undefined) {
    fail(`${file}: missing (the task that writes it did not run or crashed)`);
    continue;
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    fail(`${file}: not valid JSON (its task was cut short while writing it)`);
    continue;
  }
  if (isCheckReport(report)) countCheck(file, report);
  else if (isVitestReport(report)) countVitest(file, report);
  else fail(`${file}: neither a check verdict nor a vitest JSON report`);
}

const extra = await listStrayReports();
for (const file of extra) fail(`${file}: not counted (add its task to //#test:summary in turbo.json)`);

for (const problem of problems) console.error(`✗ ${problem}`);
const summary = `${passed} passed, ${failed} failed, ${skipped} skipped`;
console.log(summary);
// CI prints it again after turbo's own closing lines, so that it stays the last line of the log.
await mkdir(join(root, ".reports"), { recursive: true });
await writeFile(join(root, ".reports", "summary.txt"), `${summary}\n`);
process.exit(failed > 0 ? 1 : 0);

function fail(problem: string): void {
  failed += 1;
  problems.push(problem);
}

function countCheck(file: string, report: CheckReport): void {
  // A verdict that says ok next to a non-zero exit is not trusted.
  if (report.ok && (report.exitCode ?? 0) === 0) passed += 1;
  else fail(`${file}: check "${report.name}" failed${exitText(report.exitCode, report.signal)}`);
}

function countVitest(file: string, report: VitestReport): void {
  passed += report.numPassedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  failed += report.numFailedTests;
  let counted = report.numFailedTests;
  for (const suite of report.testResults) {
    const where = relative(root, suite.name);
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      problems.push(`${where}: ${test.fullName ?? "a test"} failed${reasonLines(test.failureMessages)}`);
    }
    // A file that fails to load (or whose hooks fail) has no failed test of its own, but it failed.
    if (suite.status === "failed" && failedTests.length === 0) {
      fail(`${where}: ${suite.message || "failed outside any test"}`);
      counted += 1;
    }
  }
  const runner = report.runner;
  if (runner === undefined) {
    fail(`${file}: no exit status recorded (vitest was not run through scripts/check.ts)`);
  } else if (counted === 0 && (runner.exitCode !== 0 || !report.success)) {
    // Vitest's report leaves out unhandled errors and crashes; its exit does not.
    fail(
      `${file}: vitest ${runner.exitCode !== 0 ? `exited${exitText(runner.exitCode, runner.signal)}` : "reported no success"}` +
        " although no test failed (an unhandled error, a crash, a timeout or no test files; see its log)",
    );
  }
}

/**
 * The head of a failed test's first message, indented under its name: CI keeps only the end of
 * a long log, so the summary is often the one place where the reason for a red run still shows.
 */
function reasonLines(messages: string[] | undefined): string {
  const lines = (messages?.[0] ?? "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes are what is removed.
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trimEnd())
    // Stack frames say where, which the test's name already does; the message says why.
    .filter((line) => line.trim() !== "" && !line.trimStart().startsWith("at "));
  const head = lines.slice(0, REASON_LINES).map((line) => `\n    ${line}`);
  return head.join("") + (lines.length > REASON_LINES ? "\n    …" : "");
}

function exitText(exitCode: number | undefined, signal: string | null | undefined): string {
  if (signal) return ` (killed by ${signal})`;
  return exitCode === undefined || exitCode === 0 ? "" : ` with code ${exitCode}`;
}

function isCheckReport(value: unknown): value is CheckReport {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "check";
}

function isVitestReport(value: unknown): value is VitestReport {
  if (typeof value !== "object" || value === null) return false;
  const report = value as Partial<Record<keyof VitestReport, unknown>>;
  return (
    Array.isArray(report.testResults) &&
    typeof report.numPassedTests === "number" &&
    typeof report.numFailedTests === "number" &&
    typeof report.numPendingTests === "number" &&
    typeof report.numTodoTests === "number"
  );
}

async function listStrayReports(): Promise<string[]> {
  const packages = await readdir(join(root, "packages")).catch(() => [] as string[]);
  const dirs = [".", "spec", ...packages.map((p) => `packages/${p}`)];
  const found: string[] = [];
  for (const dir of dirs) {
    const files = await readdir(join(root, dir, ".reports")).catch(() => [] as string[]);
    for (const f of files) {
      const path = dir === "." ? `.reports/${f}` : `${dir}/.reports/${f}`;
      if (f.endsWith(".json") && !EXPECTED_REPORTS.includes(path)) found.push(path);
    }
  }
  return found;
}
