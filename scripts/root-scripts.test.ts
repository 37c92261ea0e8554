/**
 * The root scripts as a contributor runs them: the environment they read reaches them through
 * turbo, a busy port is one line and exit 1, Ctrl-C on `pnpm start` is a clean exit 0, and the
 * benchmark runner answers --help and refuses what it does not know without writing anything.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ProcessResult, runProcess, startProcess } from "@drill-practice/tooling/process";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Runs a command in its own process group with this process's environment. `interruptWhen` sends
 * SIGINT to the whole group, as a terminal's Ctrl-C does, once stdout shows that text. Killed after
 * 100 s at most.
 */
function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; interruptWhen?: string } = {},
): Promise<ProcessResult> {
  return runProcess({
    command,
    args,
    cwd: root,
    env: { ...process.env, ...options.env },
    timeoutMs: 100_000,
    ...(options.interruptWhen === undefined ? {} : { interruptWhen: options.interruptWhen }),
  });
}

const tsx = (file: string, ...args: string[]) => ["--import", "tsx", file, ...args];

async function rootScripts(): Promise<Record<string, string>> {
  return (
    JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
}

describe("turbo passes on the environment the root scripts' programs read", () => {
  // Root scripts whose program runs as a turbo task, and that program's entry file.
  const TASKS = [{ task: "//#demo:run", entry: "scripts/demo.ts" }];

  it.each(TASKS)("$task declares every variable $entry reads", async ({ task, entry }) => {
    const turbo = JSON.parse(await readFile(join(root, "turbo.json"), "utf8")) as {
      globalEnv?: string[];
      globalPassThroughEnv?: string[];
      tasks: Record<string, { env?: string[]; passThroughEnv?: string[] }>;
    };
    const config = turbo.tasks[task];
    expect(config, `turbo.json has no task ${task}`).toBeDefined();
    const declared = [
      ...(turbo.globalEnv ?? []),
      ...(turbo.globalPassThroughEnv ?? []),
      ...(config?.env ?? []),
      ...(config?.passThroughEnv ?? []),
    ];
    const covered = (name: string) =>
      declared.some((pattern) =>
        pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
      );
    const source = await readFile(join(root, entry), "utf8");
    const read = [...source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((match) => match[1] as string);
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((name) => !covered(name))).toEqual([]);
  });

  it("scripts that take arguments or run until Ctrl-C run turbo for their builds, then their program", async () => {
    const scripts = await rootScripts();
    // Arguments after `pnpm bench` reach the runner, not turbo; `exec` leaves no shell to die of SIGINT.
    expect(scripts.bench).toMatch(/^(?:\S+=\S+ )*turbo run [^&]+ && tsx bench\/run\.ts$/);
    expect(scripts.start).toMatch(
      /^(?:\S+=\S+ )*turbo run [^&]+ && exec node --import tsx scripts\/start\.ts$/,
    );
  });

  it("scripts that run until Ctrl-C print only their own lines when their builds are cached", async () => {
    const scripts = await rootScripts();
    for (const name of ["start", "docs:serve"]) {
      // errors-only: a cached build replays no logs (turbo's own summary lines stay).
      expect(scripts[name], name).toMatch(
        /^(?:\S+=\S+ )*turbo run [^&]+ --output-logs=errors-only && exec node /,
      );
    }
  });
});

describe("pnpm start", { timeout: 120_000 }, () => {
  it("reads SANDBOX_PORT and DOCS_PORT, and Ctrl-C ends it with exit 0 and no error line", async () => {
    // The program part of the root script, as pnpm's shell runs it (the builds are done).
    const program = (await rootScripts()).start?.split(" && ").at(-1) as string;
    const result = await run("sh", ["-c", program], {
      env: { SANDBOX_PORT: "0", DOCS_PORT: "0" },
      interruptWhen: "Ctrl-C stops both.",
    });
    expect(result.stderr).toBe("");
    expect({ code: result.exitCode, signal: result.signal }).toEqual({ code: 0, signal: null });
    // Port 0 was honoured: neither default port.
    expect(result.stdout).toMatch(/sandbox: +http:\/\/127\.0\.0\.1:(?!4010\b)\d+/);
    expect(result.stdout).toMatch(/API docs: http:\/\/127\.0\.0\.1:(?!8080\b)\d+/);
  });
});

describe("pnpm start and the docs' Try it", { timeout: 120_000 }, () => {
  it("the sandbox allows the docs site's origin, as 127.0.0.1 and as localhost, and no other (CORS)", async () => {
    const started = await startProcess({
      command: process.execPath,
      args: tsx("scripts/start.ts"),
      cwd: root,
      env: { ...process.env, SANDBOX_PORT: "0", DOCS_PORT: "0" },
      readyWhen:
        /sandbox: +(http:\S+)[\s\S]*API docs: (http:\/\/127\.0\.0\.1:(\d+))\/[\s\S]*Ctrl-C stops both\./,
      startMs: 100_000,
      name: "pnpm start",
    });
    try {
      const [, sandboxUrl, docsOrigin, docsPort] = started.ready;
      const preflight = (origin: string) =>
        fetch(`${sandboxUrl}/api/2.1/version`, {
          method: "OPTIONS",
          headers: {
            origin,
            "access-control-request-method": "GET",
            "access-control-request-headers": "authorization",
          },
        });
      for (const origin of [docsOrigin as string, `http://localhost:${docsPort}`]) {
        const res = await preflight(origin);
        expect(res.status, origin).toBe(204);
        expect(res.headers.get("access-control-allow-origin")).toBe(origin);
        expect(res.headers.get("access-control-allow-headers")).toBe("authorization");
      }
      const other = await preflight("http://127.0.0.1:1");
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      expect(started.output()).toContain(
        `CORS for the docs:     ${docsOrigin}, http://localhost:${docsPort}\n`,
      );
    } finally {
      started.child.kill("SIGINT");
    }
    expect(await started.exited()).toBe(0);
  });
});

describe("pnpm docs:serve", { timeout: 120_000 }, () => {
  it("reads PORT, and Ctrl-C ends it with exit 0 and no error line", async () => {
    // The program part of the root script, as pnpm's shell runs it (the site is built).
    const program = (await rootScripts())["docs:serve"]?.split(" && ").at(-1) as string;
    const result = await run("sh", ["-c", program], {
      env: { PORT: "0" },
      interruptWhen: "(Ctrl+C to stop)",
    });
    expect(result.stderr).toBe("");
    expect({ code: result.exitCode, signal: result.signal }).toEqual({ code: 0, signal: null });
    expect(result.stdout).toMatch(
      /^Drill Practice API docs: http:\/\/127\.0\.0\.1:(?!8080\b)\d+\/ {2}\(Ctrl\+C to stop\)\n$/,
    );
  });
});

describe("a busy port: one line, exit 1, everywhere", { timeout: 120_000 }, () => {
  let blocker: Server;
  let busy: number;
  const site = scratchDirForAll("busy-port-site-");

  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    busy = (blocker.address() as AddressInfo).port;
    await writeFile(join(site(), "index.html"), "<!doctype html><title>site</title>");
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
  });

  it("pnpm docs:serve (packages/docs/scripts/serve.ts)", async () => {
    const result = await run(process.execPath, tsx("packages/docs/scripts/serve.ts", "--dir", site()), {
      env: { PORT: String(busy) },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `docs:serve: cannot listen on 127.0.0.1:${busy}: address already in use (choose another with --port or PORT; 0 picks a free one)\n`,
    );
  });

  it("pnpm start, with the sandbox's port taken", async () => {
    const result = await run(process.execPath, tsx("scripts/start.ts"), {
      env: { SANDBOX_PORT: String(busy), DOCS_PORT: "0" },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `start: sandbox: cannot listen on 127.0.0.1:${busy}: address already in use (set SANDBOX_PORT; 0 picks a free port)\n`,
    );
  });

  it("pnpm start, with the docs' port taken", async () => {
    const result = await run(process.execPath, tsx("scripts/start.ts"), {
      env: { SANDBOX_PORT: "0", DOCS_PORT: String(busy) },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `start: docs server: cannot listen on 127.0.0.1:${busy}: address already in use (choose another with DOCS_PORT; 0 picks a free one)\n`,
    );
  });

  it("drill-sandbox --port", async () => {
    const result = await run(process.execPath, tsx("packages/sandbox/src/cli.ts", "--port", String(busy)));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`drill-sandbox: cannot listen on 127.0.0.1:${busy}: address already in use\n`);
  });
});

describe("the benchmark runner's command line", { timeout: 120_000 }, () => {
  const written = ["BENCHMARKS.md", "bench/results.json"];
  let before: string[];

  beforeAll(async () => {
    before = await Promise.all(written.map((file) => readFile(join(root, file), "utf8")));
  });
  afterAll(async () => {
    // Nothing was written by any of these runs.
    const after = await Promise.all(written.map((file) => readFile(join(root, file), "utf8")));
    expect(after).toEqual(before);
  });

  it("pnpm bench:run --help prints the usage with every benchmark's name, through pnpm", async () => {
    const result = await run("pnpm", ["--silent", "bench:run", "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pnpm bench \[options\] \[name…\]/);
    for (const name of ["client-overhead", "redis-token-cache", "docs-pages"])
      expect(result.stdout).toContain(name);
  });

  it.each([
    [["--bogus"], "unknown option --bogus"],
    [["--no-write", "client-overhed"], 'unknown benchmark "client-overhed"; known: client-overhead,'],
    [["--render", "client-overhead"], "--render measures nothing and takes no benchmark names"],
  ])("refuses %j with exit 2 before running or writing anything", async (args, message) => {
    const result = await run(process.execPath, tsx("bench/run.ts", ...args));
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`bench: ${message}`);
    expect(result.stderr).toMatch(/\nRun pnpm bench --help for usage\.\n$/);
  });
});
