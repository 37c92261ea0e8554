import { describe, expect, it } from "vitest";
import { launchProcess, runProcess, startProcess } from "../src/process.js";
import { runAttached, shellExitCode } from "../src/terminal.js";

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

  it("is not failed by a process that exits without reading its input", async () => {
    // Megabytes more than a pipe holds: the write is still pending when the process is gone.
    const result = await node("process.exit(0)", { input: "y".repeat(4_000_000) });
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
  });

  it("keeps a bounded part of a runaway output, and still reports how the process ended", async () => {
    const result = await node("process.stdout.write('x'.repeat(5_000_000)); process.exit(2)");
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toMatch(/^x+$/);
    // At most one pipe read (64 KiB) past the 200,000 characters kept.
    expect(result.stdout.length).toBeLessThanOrEqual(200_000 + 65_536);
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

  it("interrupts the whole group like a terminal's Ctrl-C once the output shows a text, and reports the signal", async () => {
    const result = await node(
      "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); console.log('up'); setInterval(() => {}, 1000)",
      { interruptWhen: "up" },
    );
    expect(result).toMatchObject({ exitCode: null, signal: "SIGINT", stdout: "up\n", timedOut: false });
    const clean = await node(
      "process.on('SIGINT', () => process.exit(0)); console.log('up'); setInterval(() => {}, 1000)",
      {
        interruptWhen: "up",
      },
    );
    expect(clean).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
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

describe("startProcess", () => {
  const start = (script: string, startMs = 20_000) =>
    startProcess({
      command: process.execPath,
      args: ["-e", script],
      cwd: process.cwd(),
      env: process.env,
      readyWhen: /listening on (\S+)/,
      startMs,
      name: "the test server",
    });

  it("resolves with the ready line's match once it is printed, and reports the exit later", async () => {
    const server = await start(
      "console.error('warming up'); setTimeout(() => console.log('listening on http://127.0.0.1:9'), 50); setInterval(() => {}, 1000)",
    );
    expect(server.ready[1]).toBe("http://127.0.0.1:9");
    expect(server.output()).toContain("warming up");
    server.child.kill("SIGTERM");
    expect(await server.exited()).toBeNull();
  });

  it("rejects with what it printed when it exits before it is ready, or is not ready in time", async () => {
    await expect(start("console.error('port taken'); process.exit(4)")).rejects.toThrow(
      /the test server exited with 4:\nport taken/,
    );
    await expect(start("setTimeout(() => {}, 5000)", 300)).rejects.toThrow(
      /the test server did not start in time/,
    );
  });
});

describe("launchProcess", () => {
  it("hands over the child at once, and keeps standard output apart from the interleaved output", async () => {
    const worker = launchProcess({
      command: process.execPath,
      args: [
        "-e",
        "console.error('{noise}'); console.log('ready'); process.stdin.once('data', (d) => { console.log('got ' + String(d).trim()); process.exit(0); })",
      ],
      cwd: process.cwd(),
      env: {},
      readyWhen: /^ready$/m,
      startMs: 20_000,
      name: "the worker",
    });
    expect(worker.child.pid).toEqual(expect.any(Number));
    await worker.started;
    worker.child.stdin.write("go\n");
    expect(await worker.exited()).toBe(0);
    expect(worker.stdout()).toBe("ready\ngot go\n");
    expect(worker.output()).toContain("{noise}");
  });

  it("rejects `started` when it exits first, without an unhandled rejection when no one waits", async () => {
    const crashed = launchProcess({
      command: process.execPath,
      args: ["-e", "process.exit(5)"],
      cwd: process.cwd(),
      env: {},
      readyWhen: /ready/,
      startMs: 20_000,
      name: "the worker",
    });
    expect(await crashed.exited()).toBe(5);
    await expect(crashed.started).rejects.toThrow("the worker exited with 5");
  });
});

describe("runAttached", () => {
  const attached = (script: string) =>
    runAttached({
      command: process.execPath,
      args: ["-e", script],
      cwd: process.cwd(),
      env: process.env,
      stdin: "ignore",
      stderr: "pipe",
    });

  it("reports how the process ended, as a shell would count it", async () => {
    expect(shellExitCode(await attached("process.exit(3)").ended)).toBe(3);
    const server = attached("setInterval(() => {}, 1000)");
    server.child.kill("SIGTERM");
    const ending = await server.ended;
    expect(ending).toEqual({ exitCode: null, signal: "SIGTERM" });
    expect(shellExitCode(ending)).toBe(143);
  });

  it("pipes standard error to the caller when asked", async () => {
    const run = attached("console.error('problem')");
    let stderr = "";
    run.child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await run.ended;
    expect(stderr).toBe("problem\n");
  });

  it("reports a command that cannot start as exit 127 instead of rejecting", async () => {
    const ending = await runAttached({
      command: "/nonexistent/drill-tool",
      args: [],
      cwd: process.cwd(),
      env: {},
    }).ended;
    expect(ending.startError).toMatch(/^cannot start \/nonexistent\/drill-tool: .*ENOENT/);
    expect(shellExitCode(ending)).toBe(127);
  });
});
