/**
 * A real redis-server for tests: Debian's binary on a free loopback port, with a
 * throwaway directory and no persistence, stopped (and its directory removed) after.
 * Missing locally, the tests that need it skip loudly; under CI=true they fail.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { type StartedProcess, startProcess } from "@drill-practice/tooling/process";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { underCI, warnBox } from "../../../scripts/test-requirements.js";

const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Path of redis-server (the usual places, then `PATH`), or `undefined` when it is not installed. */
export function findRedisServer(): string | undefined {
  const onPath = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  return [...CANDIDATES, ...onPath.map((dir) => join(dir, "redis-server"))].find(isExecutable);
}

/**
 * Whether the Redis tests can run. Prints a loud notice when they cannot; throws
 * under CI=true, where a missing redis-server is a broken CI image, not a choice.
 */
export function redisAvailable(): boolean {
  if (findRedisServer() !== undefined) return true;
  const message =
    "redis-server is not installed: the Redis token cache tests are SKIPPED (apt-get install -y redis-server)";
  if (underCI) throw new Error(`${message}; CI=true requires it`);
  warnBox([message]);
  return false;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s; or SIGKILL at once); `start()` reuses the port. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/** Starts a redis-server on a free loopback port; ready when it says it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) throw new Error("redis-server is not installed");
  const dir = await makeScratchDir("drill-redis-");
  // Free now, for redis-server to bind; while it is stopped, a connect there is refused (see the helper).
  const port = await closedLoopbackPort();
  let server: StartedProcess | undefined;

  const start = async () => {
    server = await startProcess({
      command: binary,
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      cwd: dir,
      env: process.env,
      readyWhen: /Ready to accept connections/,
      startMs: 10_000,
      name: `redis-server on port ${port}`,
    });
  };

  const stop = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
    const running = server;
    server = undefined;
    if (running === undefined || running.child.exitCode !== null) return;
    running.child.kill(signal);
    const timer = setTimeout(() => running.child.kill("SIGKILL"), 5000);
    await running.exited();
    clearTimeout(timer);
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    pause: () => server?.child.kill("SIGSTOP"),
    resume: () => server?.child.kill("SIGCONT"),
    close: async () => {
      server?.child.kill("SIGCONT");
      await stop("SIGTERM");
      await removeScratchDir(dir);
    },
  };
}
