/**
 * Fixtures shared by the benchmarks: a service account key made for the run, and child processes
 * (servers run in their own process so that, on a 2-core machine, the code under test has a core
 * to itself and the server's work does not count against it).
 */
import { type ChildProcess, fork } from "node:child_process";
import { generateKeyPairSync, type KeyObject, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";

/** A service account key file for the benchmarks, with both halves of the key. */
export interface BenchKey {
  /** The key file as JSON text, as a service would hand it out. */
  readonly keyFileJson: string;
  readonly keyId: string;
  readonly serviceAccountId: string;
  readonly privateKey: KeyObject;
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
}

/**
 * Makes a fresh RSA 2048 key and its key file. The interface names only `keyId` and
 * `serviceAccountId`; the key type and the PEM go into fields named as the sandbox names them
 * (`keyType`, `privateKey`) — the auth package finds them by their content, not their names.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey } from "@drill-practice/auth";
 * import { createBenchKey } from "./fixtures.ts";
 *
 * const key = createBenchKey();
 * const parsed = await parseServiceAccountKey(key.keyFileJson);
 * ```
 */
export function createBenchKey(): BenchKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const keyId = randomUUID();
  const serviceAccountId = "svc-bench";
  const keyFileJson = JSON.stringify({
    keyId,
    serviceAccountId,
    keyType: "RSA_2048",
    privateKey: privateKeyPem,
  });
  return { keyFileJson, keyId, serviceAccountId, privateKey, privateKeyPem, publicKeyPem };
}

/** Messages a child server sends to its parent. */
export type ChildMessage = { readonly type: string; readonly id?: number } & Record<string, unknown>;

/** A server running in a child process, spoken to over IPC. */
export interface ChildServer<Ready extends ChildMessage> {
  /** The child's first message (its address and anything else it reports on start). */
  readonly ready: Ready;
  /** Sends a request and waits for the answer with the same `id`. */
  request<Answer extends ChildMessage>(message: { type: string } & Record<string, unknown>): Promise<Answer>;
  /** Asks the child to stop and waits for it to exit (kills it after a grace period). */
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;
const EXIT_GRACE_MS = 5_000;

/**
 * Forks one of the bench's own files as a child (a TypeScript one inherits tsx through execArgv), sends
 * it its settings as an `init` message when it asks for them (over IPC, so nothing shows in the
 * process list or the environment) and waits for its `ready` message.
 *
 * @example
 * ```ts
 * import { createBenchKey, LOOPBACK_CLIENT, type LoopbackReady, startChild } from "./fixtures.ts";
 *
 * const key = createBenchKey();
 * const server = await startChild<LoopbackReady>("./loopback-server.ts", {
 *   ...LOOPBACK_CLIENT,
 *   publicKeyPem: key.publicKeyPem,
 *   exchangeDelayMs: 0,
 * });
 * console.log(server.ready.url);
 * await server.close();
 * ```
 */
export async function startChild<Ready extends ChildMessage>(
  file: string,
  init: Record<string, unknown>,
): Promise<ChildServer<Ready>> {
  const path = fileURLToPath(new URL(file, import.meta.url));
  // A plain-JavaScript child runs without tsx: its process holds only what it measures.
  const execArgv = file.endsWith(".mjs") ? { execArgv: [] } : {};
  const child: ChildProcess = fork(path, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], ...execArgv });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${file}: no ready message within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    const onMessage = (message: ChildMessage) => {
      // The child asks for its settings once it listens for them, so the message cannot get lost.
      if (message.type === "waiting") {
        child.send({ ...init, type: "init" });
        return;
      }
      child.off("message", onMessage);
      clearTimeout(timer);
      if (message.type === "ready") resolve(message as Ready);
      else reject(new Error(`${file}: failed to start: ${JSON.stringify(message)}`));
    };
    child.on("message", onMessage);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${file}: exited with code ${code} before it was ready`));
    });
  });
  let nextId = 1;
  const waiting = new Map<number, (message: ChildMessage) => void>();
  child.on("message", (message: ChildMessage) => {
    if (message.id === undefined) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  return {
    ready,
    request<Answer extends ChildMessage>(message: { type: string } & Record<string, unknown>) {
      const id = nextId++;
      return new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${file}: no answer to ${message.type} within ${REQUEST_TIMEOUT_MS} ms`));
        }, REQUEST_TIMEOUT_MS);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer as Answer);
        });
        child.send({ ...message, id });
      });
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: "close" });
      const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What the loopback server reports on start. */
export interface LoopbackReady extends ChildMessage {
  readonly type: "ready";
  readonly url: string;
}

/** The loopback server's counters. */
export interface LoopbackStats extends ChildMessage {
  readonly type: "stats";
  /** Token exchanges per assertion subject. */
  readonly exchanges: Record<string, number>;
  /** Exchanges refused (bad client or signature). */
  readonly rejectedExchanges: number;
  /** API requests answered, and those refused for a missing or unknown token. */
  readonly apiRequests: number;
  readonly unauthorized: number;
}

/** Settings of the sandbox child (bench/sandbox-server.mjs). */
export interface SandboxInit {
  /** How many drills the data holds (for the report). */
  readonly drills: number;
  /** A data file to serve (`--data`); the default dataset when absent. */
  readonly dataFile?: string;
}

/** Settings of the loopback server, sent as its `init` message. */
export interface LoopbackInit {
  readonly publicKeyPem: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** How long the server holds each token exchange before answering. */
  readonly exchangeDelayMs: number;
}

/** Client application credentials the loopback server accepts. */
export const LOOPBACK_CLIENT = {
  clientId: "bench-client",
  clientSecret: "bench-secret-not-a-real-one",
} as const;

/**
 * Starts the bare node:http loopback server (bench/loopback-server.ts) in a child process.
 *
 * @example
 * ```ts
 * import { createBenchKey, type LoopbackStats, startLoopbackServer } from "./fixtures.ts";
 *
 * const server = await startLoopbackServer(createBenchKey());
 * const stats = await server.request<LoopbackStats>({ type: "stats" });
 * console.log(stats.apiRequests); // 0: nothing was asked yet
 * await server.close();
 * ```
 */
export function startLoopbackServer(
  key: BenchKey,
  options: { readonly exchangeDelayMs?: number } = {},
): Promise<ChildServer<LoopbackReady>> {
  return startChild<LoopbackReady>("./loopback-server.ts", {
    publicKeyPem: key.publicKeyPem,
    clientId: LOOPBACK_CLIENT.clientId,
    clientSecret: LOOPBACK_CLIENT.clientSecret,
    exchangeDelayMs: options.exchangeDelayMs ?? 0,
  } satisfies LoopbackInit);
}
