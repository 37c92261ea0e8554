import { describe, expect, it } from "vitest";
import { runProcess } from "../src/process.js";

const node = (script: string, extra: Partial<Parameters<typeof runProcess>[0]> = {}) =>
  runProcess({
    command: process.execPath,
    args: ["-e", script],
    cwd: process.cwd(),
    env: {},
    timeoutMs: 20_000,
    ...extra,
  });

describe("runProcess", () => {
  it("captures both outputs and the exit code", async () => {
    const result = await node("console.log('out'); console.error('err'); process.exit(3)");
    expect(result).toMatchObject({ exitCode: 3, stdout: "out\n", stderr: "err\n", timedOut: false });
  });

  it("passes only PATH, HOME and the given variables", async () => {
    process.env.DRILL_TOOLING_HOST_ONLY = "leak";
    try {
      const result = await node(
        "console.log(JSON.stringify([process.env.DRILL_TOOLING_HOST_ONLY, process.env.GIVEN]))",
        {
          env: { GIVEN: "yes" },
        },
      );
      expect(JSON.parse(result.stdout)).toEqual([null, "yes"]);
    } finally {
      delete process.env.DRILL_TOOLING_HOST_ONLY;
    }
  });

  it("writes the input to standard input", async () => {
    const result = await node("process.stdin.pipe(process.stdout)", { input: "piped" });
    expect(result.stdout).toBe("piped");
  });

  it("ends a process at its deadline, with what it started", async () => {
    const started = performance.now();
    const result = await node(
      "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); console.log('started'); setInterval(() => {}, 1000)",
      { timeoutMs: 1_500 },
    );
    expect(result.timedOut).toBe(true);
    expect(result.stdout).toBe("started\n");
    // The grandchild holds the output pipes open: the result comes only once the whole group is gone.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("reports a command that cannot start instead of rejecting", async () => {
    const result = await runProcess({
      command: "/nonexistent/drill-tool",
      args: [],
      cwd: process.cwd(),
      env: {},
      timeoutMs: 5_000,
    });
    expect(result.exitCode).toBeNull();
    expect(result.stderr).toMatch(/^cannot start \/nonexistent\/drill-tool: .*ENOENT/);
  });
});
