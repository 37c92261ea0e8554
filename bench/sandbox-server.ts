/**
 * Runs a sandbox in a child process for the sandbox benchmarks (see fixtures.ts). Its `init` message
 * says which data: the default dataset, or a data file (the parent writes the generated one). Reports
 * its URL, the credentials a client needs (over IPC, to the parent only), how long the start took and
 * the process's resident memory after it; later, on a `memory` request, its resident memory then.
 */
import { type SandboxOptions, startSandbox } from "@drill-practice/sandbox";
import { receiveInit, type SandboxInit } from "./fixtures.ts";

const init = await receiveInit<SandboxInit>();
const options: SandboxOptions = {
  port: 0,
  ...(init.dataFile === undefined ? {} : { dataFile: init.dataFile }),
};
// Measured like a user's start: from the call until the server listens, reading and checking the data file.
const started = performance.now();
const sandbox = await startSandbox(options);
const startupMs = performance.now() - started;
const keyFile = sandbox.credentials.keyFile();
if (keyFile === undefined) throw new Error("sandbox-server: the sandbox holds no private key");

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on("message", (message: { type: string; id?: number }) => {
  if (message.type === "close") shutdown();
  // Resident memory now (after the parent's load), as the process sees it: nothing is collected first.
  else if (message.type === "memory") {
    process.send?.({ type: "memory", id: message.id, memoryMb: process.memoryUsage().rss / 1024 / 1024 });
  }
});
process.on("disconnect", shutdown);

process.send?.({
  type: "ready",
  url: sandbox.url,
  clientId: sandbox.credentials.clientId,
  clientSecret: sandbox.credentials.clientSecret,
  keyFile: JSON.stringify(keyFile),
  drills: init.drills,
  startupMs,
  memoryMb: process.memoryUsage().rss / 1024 / 1024,
});
