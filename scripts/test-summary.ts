/**
 * The last step of `pnpm test`: reads every `.reports/*.json` left by the
 * checks and vitest runs of this repository and prints one line
 * `N passed, N failed, N skipped`. It fails when any guard failed or when an
 * expected report is missing (a task that never ran is not a pass).
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;

/** Reports that `pnpm test` must produce; a missing one means its task did not run. */
const expected = [
  ".reports/biome.json",
  ".reports/typecheck.json",
  ".reports/vitest.json",
  "spec/.reports/spec-lint.json",
  "spec/.reports/typecheck.json",
  "spec/.reports/vitest.json",
  "packages/client/.reports/drift.json",
  "packages/client/.reports/typecheck.json",
  "packages/client/.reports/vitest.json",
  "packages/client/.reports/package.json",
  "packages/auth/.reports/typecheck.json",
  "packages/auth/.reports/vitest.json",
  "packages/auth/.reports/package.json",
  "packages/sandbox/.reports/typecheck.json",
  "packages/sandbox/.reports/vitest.json",
  "packages/sandbox/.reports/package.json",
  "packages/docs/.reports/typecheck.json",
  "packages/docs/.reports/vitest.json",
  "packages/runtime-matrix/.reports/typecheck.json",
  "packages/runtime-matrix/.reports/vitest.json",
];

interface CheckReport {
  kind: "check";
  name: string;
  ok: boolean;
}
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
  testResults: { status: string; message?: string; name: string }[];
}

let passed = 0;
let failed = 0;
let skipped = 0;
const problems: string[] = [];

for (const file of expected) {
  const text = await readFile(join(root, file), "utf8").catch(() => undefined);
  if (text === undefined) {
    failed += 1;
    problems.push(`${file}: missing (the task that writes it did not run or crashed)`);
    continue;
  }
  const report = JSON.parse(text) as CheckReport | VitestReport;
  if ("kind" in report && report.kind === "check") {
    if (report.ok) passed += 1;
    else {
      failed += 1;
      problems.push(`${file}: check "${report.name}" failed`);
    }
    continue;
  }
  const vitest = report as VitestReport;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A file that fails to load counts no test but still fails the run.
  for (const suite of vitest.testResults) {
    if (suite.status === "failed" && vitest.numFailedTests === 0) {
      failed += 1;
      problems.push(`${relative(root, suite.name)}: ${suite.message ?? "failed to run"}`);
    }
  }
}

const extra = await listStrayReports();
for (const file of extra) problems.push(`${file}: not counted (add it to scripts/test-summary.ts)`);

for (const problem of problems) console.error(`✗ ${problem}`);
const summary = `${passed} passed, ${failed} failed, ${skipped} skipped`;
console.log(summary);
// CI prints it again after turbo's own closing lines, so that it stays the last line of the log.
await mkdir(join(root, ".reports"), { recursive: true });
await writeFile(join(root, ".reports", "summary.txt"), `${summary}\n`);
process.exit(failed > 0 || extra.length > 0 ? 1 : 0);

async function listStrayReports(): Promise<string[]> {
  const dirs = [".", "spec", ...(await readdir(join(root, "packages"))).map((p) => `packages/${p}`)];
  const found: string[] = [];
  for (const dir of dirs) {
    const files = await readdir(join(root, dir, ".reports")).catch(() => [] as string[]);
    for (const f of files) {
      const path = dir === "." ? `.reports/${f}` : `${dir}/.reports/${f}`;
      if (f.endsWith(".json") && !expected.includes(path)) found.push(path);
    }
  }
  return found;
}
