/**
 * `docs:serve` as a new user meets it: `--help` prints the usage, a wrong flag gets one line naming
 * it, and a missing site names the command that builds it (not `pnpm docs`, which is npm's own).
 */
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

function serve(...args: string[]) {
  return runProcess({
    command: process.execPath,
    args: ["--import", "tsx", "scripts/serve.ts", ...args],
    cwd: packageDir,
    env: { PATH: process.env.PATH ?? "" },
    timeoutMs: 30_000,
  });
}

describe("docs:serve on the command line", () => {
  it("prints its usage for --help and exits 0", async () => {
    const run = await serve("--help");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^Usage: pnpm docs:serve \[--port <n>\] \[--dir <dir>\]/);
    expect(run.stdout).toContain("--dir <dir>");
    expect(run.stderr).toBe("");
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--port"], "--port"],
  ])("answers %j with one line naming the flag, no stack trace, exit 2", async (args, named) => {
    const run = await serve(...args);
    expect(run.exitCode).toBe(2);
    const [first = "", ...rest] = run.stderr.trim().split("\n");
    expect(first).toMatch(/^docs:serve: /);
    expect(first).toContain(named);
    expect(rest).toEqual(["Run with --help for the options."]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("names the command that builds a missing site", async () => {
    const run = await serve("--dir", "/nonexistent-drill-docs");
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("`pnpm run docs`");
    expect(run.stderr).not.toContain("`pnpm docs`");
  });
});
