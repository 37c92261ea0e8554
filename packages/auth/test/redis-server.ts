/**
 * A real redis-server for tests: Debian's binary on a free loopback port, with a
 * throwaway directory and no persistence, stopped (and its directory removed) after.
 * Missing locally, the tests that need it skip loudly; under CI=true they fail.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createConnection, createServer } from "node:net";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { underCI, warnBox } from "../../../scripts/test-requirements.js";

const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];

/** Path of redis-server, or `undefined` when it is not installed. */
export function findRedisServer(): string | undefined {
  for (const path of CANDIDATES) {
    if (spawnSync(path, ["--version"], { stdio: "ignore" }).status === 0) return path;
  }
  const which = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const found = which.stdout?.trim();
  return which.status === 0 && found ? found : undefined;
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once("error", () => finish(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => finish(data.toString().startsWith("+PONG")));
  });
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

/** Starts a redis-server on a free loopback port; ready when it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) throw new Error("redis-server is not installed");
  const dir = await makeScratchDir("drill-redis-");
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    const process_ = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    child = process_;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (process_.exitCode !== null) throw new Error(`redis-server exited with ${process_.exitCode}`);
      if (await ping(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    process_.kill("SIGKILL");
    throw new Error(`redis-server did not answer on port ${port} within 10 s`);
  };

  const stop = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill(signal);
    const timer = setTimeout(() => running.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    close: async () => {
      child?.kill("SIGCONT");
      await stop("SIGTERM");
      await removeScratchDir(dir);
    },
  };
}
