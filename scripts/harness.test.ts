/**
 * Tests of the test harness itself: scripts/check.ts (runs one guard and leaves its
 * verdict) and scripts/test-summary.ts (turns every verdict into the closing
 * `N passed, N failed, N skipped` line). Both scripts run for real, as `pnpm test`
 * runs them, on throw-away report trees and small vitest projects made here.
 * Every way a run can go wrong must turn the summary red; a clean run stays green.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import { EXPECTED_REPORTS } from "./expected-reports.ts";

const repo = fileURLToPath(new URL("..", import.meta.url));
const vitestBin = join(repo, "node_modules", ".bin", "vitest");
/** tsx by URL, so that the scripts run the same way from any working directory. */
const tsx = import.meta.resolve("tsx");
const THE_PACKAGE_REPORT = "packages/client/.reports/vitest.json";

const scratch = scratchDirForAll("drill-harness-");

// ---------------------------------------------------------------------------------------------
// Fabricated report trees

interface FabricatedTest {
  status: "passed" | "failed" | "skipped";
  failureMessages?: string[];
}
interface FabricatedFile {
  name: string;
  /** "failed" with no failed test is a file that did not load. */
  status: "passed" | "failed";
  message?: string;
  tests: FabricatedTest[];
}

/** A vitest JSON report shaped like vitest's own, with the counts derived from `files`. */
function vitestReport(files: FabricatedFile[], runner: { exitCode: number; signal: string | null } | null) {
  const tests = files.flatMap((file) => file.tests);
  const numFailedTests = tests.filter((test) => test.status === "failed").length;
  const failedFiles = files.filter((file) => file.status === "failed").length;
  return {
    numTotalTests: tests.length,
    numPassedTests: tests.filter((test) => test.status === "passed").length,
    numFailedTests,
    numPendingTests: tests.filter((test) => test.status === "skipped").length,
    numTodoTests: 0,
    success: files.length > 0 && numFailedTests === 0 && failedFiles === 0,
    testResults: files.map((file) => ({
      name: `/fixture/${file.name}`,
      status: file.status,
      message: file.message ?? "",
      assertionResults: file.tests.map((test, index) => ({
        status: test.status,
        fullName: `case ${index}`,
        failureMessages: test.failureMessages ?? [],
      })),
    })),
    ...(runner ? { runner } : {}),
  };
}

const cleanRunner = { exitCode: 0, signal: null };

function passingFile(name: string, count: number): FabricatedFile {
  return {
    name,
    status: "passed",
    tests: Array.from({ length: count }, () => ({ status: "passed" as const })),
  };
}

/**
 * Writes every expected report as a clean one (a passing check, or a vitest report with
 * `testsPerReport` passing tests), then applies `overrides`: a value replaces a report
 * (a string is written as is), `undefined` deletes it.
 */
async function fabricate(overrides: Record<string, unknown> = {}, testsPerReport = 3): Promise<string> {
  const root = await mkdtemp(join(scratch(), "tree-"));
  for (const file of EXPECTED_REPORTS) {
    const clean = file.endsWith("/vitest.json")
      ? vitestReport([passingFile("a.test.ts", testsPerReport)], cleanRunner)
      : { kind: "check", name: file, ok: true, exitCode: 0, signal: null, seconds: 1 };
    await writeReport(root, file, clean);
  }
  for (const [file, value] of Object.entries(overrides)) {
    if (value === undefined) await rm(join(root, file), { force: true });
    else await writeReport(root, file, value);
  }
  return root;
}

async function writeReport(root: string, file: string, value: unknown) {
  await mkdir(dirname(join(root, file)), { recursive: true });
  await writeFile(join(root, file), typeof value === "string" ? value : JSON.stringify(value));
}

const vitestReportCount = EXPECTED_REPORTS.filter((file) => file.endsWith("/vitest.json")).length;
const checkReportCount = EXPECTED_REPORTS.length - vitestReportCount;

interface Summary {
  status: number | null;
  line: string;
  passed: number;
  failed: number;
  skipped: number;
  problems: string;
  file: string;
}

async function summarize(root: string): Promise<Summary> {
  const run = spawnSync(
    process.execPath,
    ["--import", tsx, join(repo, "scripts/test-summary.ts"), "--root", root],
    {
      cwd: repo,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  const match = /^(\d+) passed, (\d+) failed, (\d+) skipped$/.exec(line);
  if (!match) throw new Error(`no summary line in ${JSON.stringify(run.stdout)}; stderr: ${run.stderr}`);
  const file = await readFile(join(root, ".reports", "summary.txt"), "utf8");
  return {
    status: run.status,
    line,
    passed: Number(match[1]),
    failed: Number(match[2]),
    skipped: Number(match[3]),
    problems: run.stderr,
    file,
  };
}

describe("scripts/test-summary.ts on fabricated reports", () => {
  it("stays green on a clean tree and counts every test and check", async () => {
    const perReport = 4;
    const summary = await summarize(await fabricate({}, perReport));
    expect(summary.status).toBe(0);
    expect(summary.line).toBe(
      `${vitestReportCount * perReport + checkReportCount} passed, 0 failed, 0 skipped`,
    );
    // CI prints the saved line again as the last line of its log.
    expect(summary.file).toBe(`${summary.line}\n`);
    expect(summary.problems).toBe("");
  });

  it("counts skipped tests as skipped, not as failures", async () => {
    const files: FabricatedFile[] = [
      { name: "s.test.ts", status: "passed", tests: [{ status: "passed" }, { status: "skipped" }] },
    ];
    const summary = await summarize(
      await fabricate({ [THE_PACKAGE_REPORT]: vitestReport(files, cleanRunner) }),
    );
    expect(summary.status).toBe(0);
    expect(summary.skipped).toBe(1);
    expect(summary.failed).toBe(0);
  });

  it("turns red on a failed test and names it", async () => {
    const files: FabricatedFile[] = [
      { name: "f.test.ts", status: "failed", tests: [{ status: "passed" }, { status: "failed" }] },
    ];
    const summary = await summarize(
      await fabricate({ [THE_PACKAGE_REPORT]: vitestReport(files, { exitCode: 1, signal: null }) }),
    );
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toContain("f.test.ts: case 1 failed");
  });

  it("repeats why a test failed, without colour codes or stack frames, cut after 12 lines", async () => {
    const diff = Array.from({ length: 20 }, (_, i) => `+ line ${i}`).join("\n");
    const files: FabricatedFile[] = [
      {
        name: "why.test.ts",
        status: "failed",
        tests: [
          {
            status: "failed",
            failureMessages: [
              `AssertionError: expected \u001b[31m[ 'a', 'b' ]\u001b[39m to deeply equal [ 'a' ]\n    at Object.<anonymous> (/fixture/why.test.ts:3:7)\n${diff}`,
            ],
          },
        ],
      },
    ];
    const summary = await summarize(
      await fabricate({ [THE_PACKAGE_REPORT]: vitestReport(files, { exitCode: 1, signal: null }) }),
    );
    const shown = summary.problems.split("\n");
    const at = shown.findIndex((line) => line.endsWith("why.test.ts: case 0 failed"));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(shown.slice(at + 1, at + 4)).toEqual([
      "    AssertionError: expected [ 'a', 'b' ] to deeply equal [ 'a' ]",
      "    + line 0",
      "    + line 1",
    ]);
    expect(summary.problems).not.toContain("\u001b[");
    expect(summary.problems).not.toContain("why.test.ts:3:7");
    expect(summary.problems).toContain("    + line 10\n    …");
    expect(summary.problems).not.toContain("+ line 11");
  });

  it("counts a file that failed to load even when another test of the same report failed", async () => {
    const files: FabricatedFile[] = [
      { name: "broken.test.ts", status: "failed", message: "Cannot find module './gone.js'", tests: [] },
      { name: "other.test.ts", status: "failed", tests: [{ status: "failed" }, { status: "passed" }] },
    ];
    const failingTests = 1;
    const filesThatDidNotLoad = 1;
    const summary = await summarize(
      await fabricate({ [THE_PACKAGE_REPORT]: vitestReport(files, { exitCode: 1, signal: null }) }),
    );
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(failingTests + filesThatDidNotLoad);
    expect(summary.problems).toContain("Cannot find module './gone.js'");
  });

  it("counts a non-zero exit as a failure even when every test passed (an unhandled error)", async () => {
    const report = vitestReport([passingFile("ok.test.ts", 5)], { exitCode: 1, signal: null });
    const summary = await summarize(await fabricate({ [THE_PACKAGE_REPORT]: report }));
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toMatch(/vitest exited with code 1 although no test failed/);
  });

  it("counts a runner killed by a signal after writing a passing report", async () => {
    const report = vitestReport([passingFile("ok.test.ts", 2)], { exitCode: 137, signal: "SIGKILL" });
    const summary = await summarize(await fabricate({ [THE_PACKAGE_REPORT]: report }));
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toContain("killed by SIGKILL");
  });

  it("does not trust a vitest report whose exit status was never recorded", async () => {
    const report = vitestReport([passingFile("ok.test.ts", 2)], null);
    const summary = await summarize(await fabricate({ [THE_PACKAGE_REPORT]: report }));
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toContain("no exit status recorded");
  });

  it("counts a vitest run that found no test files (success: false, exit 1)", async () => {
    const report = vitestReport([], { exitCode: 1, signal: null });
    const summary = await summarize(await fabricate({ [THE_PACKAGE_REPORT]: report }));
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
  });

  it("turns red on a failed check and on a check whose verdict contradicts its exit", async () => {
    const [first, second] = EXPECTED_REPORTS.filter((file) => !file.endsWith("/vitest.json"));
    const summary = await summarize(
      await fabricate({
        [first as string]: { kind: "check", name: "lint", ok: false, exitCode: 1, signal: null },
        [second as string]: { kind: "check", name: "typecheck", ok: true, exitCode: 2, signal: null },
      }),
    );
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(2);
    expect(summary.problems).toContain('check "lint" failed with code 1');
    expect(summary.problems).toContain('check "typecheck" failed with code 2');
  });

  it("turns red on a missing, a half-written and an unrecognized report", async () => {
    const [missing, cut, odd] = EXPECTED_REPORTS;
    const summary = await summarize(
      await fabricate({
        [missing as string]: undefined,
        [cut as string]: '{"numPassedTests": 3, "numFa',
        [odd as string]: {},
      }),
    );
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(3);
    expect(summary.passed).toBe(
      (vitestReportCount - countVitest([missing, cut, odd])) * 3 +
        checkReportCount -
        countChecks([missing, cut, odd]),
    );
    expect(summary.problems).toContain(`${missing}: missing`);
    expect(summary.problems).toContain(`${cut}: not valid JSON`);
    expect(summary.problems).toContain(`${odd}: neither a check verdict nor a vitest JSON report`);
  });

  it("turns red on a stray report that no task is expected to write", async () => {
    const summary = await summarize(
      await fabricate({ "packages/client/.reports/extra.json": { kind: "check", name: "x", ok: true } }),
    );
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toContain("packages/client/.reports/extra.json: not counted");
  });
});

function countVitest(files: (string | undefined)[]): number {
  return files.filter((file) => file?.endsWith("/vitest.json")).length;
}
function countChecks(files: (string | undefined)[]): number {
  return files.filter((file) => file !== undefined && !file.endsWith("/vitest.json")).length;
}

// ---------------------------------------------------------------------------------------------
// Real runs: scripts/check.ts around a real vitest (or a fake one) in a small project

/**
 * A throw-away repository tree whose `packages/client` holds `testFiles` and a vitest
 * config writing the JSON report where `pnpm test` expects it; every other report is
 * fabricated clean. node_modules is linked from this repository so `vitest` resolves.
 */
async function fixtureProject(testFiles: Record<string, string>): Promise<{ root: string; pkg: string }> {
  const root = await fabricate({ [THE_PACKAGE_REPORT]: undefined });
  const pkg = join(root, "packages", "client");
  await symlink(join(repo, "node_modules"), join(root, "node_modules"), "dir");
  await writeFile(
    join(pkg, "vitest.config.mjs"),
    `export default { test: { include: ["*.test.mjs"], reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]] } };\n`,
  );
  for (const [name, text] of Object.entries(testFiles)) await writeFile(join(pkg, name), text);
  return { root, pkg };
}

function check(cwd: string, command: string[]) {
  return spawnSync(
    process.execPath,
    ["--import", tsx, join(repo, "scripts/check.ts"), "vitest", "--", ...command],
    {
      cwd,
      encoding: "utf8",
      timeout: 90_000,
      env: { ...process.env, CI: "", FORCE_COLOR: "0" },
    },
  );
}

/** A test file with `count` tests, each passing when `pass` is true. */
function testFile(count: number, pass: boolean, extra = ""): string {
  const cases = Array.from(
    { length: count },
    (_, i) => `test("case ${i}", () => { expect(${i}).toBe(${pass ? i : i + 1}); });`,
  );
  return `import { expect, test } from "vitest";\n${extra}\n${cases.join("\n")}\n`;
}

describe("scripts/check.ts around a real vitest run, then the summary", () => {
  it("stays green when every test passes, and records the exit in the report", async () => {
    const passing = 3;
    const { root, pkg } = await fixtureProject({ "a.test.mjs": testFile(passing, true) });
    const run = check(pkg, [vitestBin, "run"]);
    expect(run.status).toBe(0);
    const report = JSON.parse(await readFile(join(pkg, ".reports", "vitest.json"), "utf8"));
    expect(report.runner).toMatchObject({ exitCode: 0, signal: null });
    const summary = await summarize(root);
    expect(summary.status).toBe(0);
    expect(summary.line).toBe(
      `${passing + (vitestReportCount - 1) * 3 + checkReportCount} passed, 0 failed, 0 skipped`,
    );
  });

  it("turns red on an unhandled error although every test passed", async () => {
    const late = `process.nextTick(() => Promise.reject(new Error("nobody awaited this")));`;
    const { root, pkg } = await fixtureProject({ "a.test.mjs": testFile(2, true, late) });
    const run = check(pkg, [vitestBin, "run"]);
    expect(run.status).not.toBe(0);
    const summary = await summarize(root);
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toMatch(/exited with code 1 although no test failed/);
  });

  it("counts a file that failed to load next to a failing test of the same run", async () => {
    const failing = 2;
    const { root, pkg } = await fixtureProject({
      "a.test.mjs": testFile(failing, false),
      "b.test.mjs": `import "./does-not-exist.mjs";\n${testFile(1, true)}`,
    });
    expect(check(pkg, [vitestBin, "run"]).status).not.toBe(0);
    const summary = await summarize(root);
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(failing + 1);
    expect(summary.problems).toContain("b.test.mjs");
  });

  it("turns red when the runner is killed after writing a passing report", async () => {
    const { root, pkg } = await fixtureProject({});
    // A stand-in for a runner that crashes at the very end: it writes a clean report, then dies.
    const fake = join(pkg, "fake-runner.mjs");
    const clean = vitestReport([passingFile("ok.test.ts", 4)], null);
    await writeFile(
      fake,
      `import { mkdirSync, writeFileSync } from "node:fs";\nmkdirSync(".reports", { recursive: true });\n` +
        `writeFileSync(".reports/vitest.json", ${JSON.stringify(JSON.stringify(clean))});\nprocess.kill(process.pid, "SIGKILL");\n`,
    );
    const run = check(pkg, [process.execPath, fake]);
    expect(run.status).not.toBe(0);
    const summary = await summarize(root);
    expect(summary.status).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toContain("killed by SIGKILL");
  });

  it("turns red when the runner dies before writing any report, or cannot start", async () => {
    const { root, pkg } = await fixtureProject({});
    expect(check(pkg, [process.execPath, "-e", "process.exit(0)"]).status).not.toBe(0);
    const written = JSON.parse(await readFile(join(pkg, ".reports", "vitest.json"), "utf8"));
    expect(written).toMatchObject({ kind: "check", name: "vitest", ok: false });
    expect((await summarize(root)).failed).toBe(1);

    expect(check(pkg, [join(pkg, "no-such-runner")]).status).toBe(127);
    expect((await summarize(root)).failed).toBe(1);
  });

  it("turns red on a check command that exits non-zero", async () => {
    const root = await fabricate({ ".reports/biome.json": undefined });
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        tsx,
        join(repo, "scripts/check.ts"),
        "biome",
        "--",
        process.execPath,
        "-e",
        "process.exit(3)",
      ],
      { cwd: root, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status).toBe(3);
    const summary = await summarize(root);
    expect(summary.failed).toBe(1);
    expect(summary.problems).toContain('check "biome" failed with code 3');
  });
});
