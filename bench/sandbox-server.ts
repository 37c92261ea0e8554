/**
 * Runs a sandbox in a child process for the sandbox benchmark (see fixtures.ts). Its `init` message
 * says which data: the embedded dataset, or a number of drills for `generateLargeDataset`. Reports its
 * URL, the credentials a client needs (over IPC, to the parent only) and how long the start took.
 */
import { type SandboxOptions, startSandbox } from "@drill-practice/sandbox";
import { createDefaultDataset, generateLargeDataset } from "../packages/sandbox/src/data/dataset.ts";
import { receiveInit, type SandboxInit } from "./fixtures.ts";

const init = await receiveInit<SandboxInit>();
const started = performance.now();
let options: SandboxOptions = { port: 0 };
let drills = createDefaultDataset().drills.length;
if (init.drills !== "default") {
  drills = init.drills;
  options = { port: 0, data: generateLargeDataset(drills) };
}
const generatedMs = performance.now() - started;
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
process.on("message", (message: { type: string }) => {
  if (message.type === "close") shutdown();
});
process.on("disconnect", shutdown);

process.send?.({
  type: "ready",
  url: sandbox.url,
  clientId: sandbox.credentials.clientId,
  clientSecret: sandbox.credentials.clientSecret,
  keyFile: JSON.stringify(keyFile),
  drills,
  generatedMs,
  startupMs,
  memoryMb: process.memoryUsage().rss / 1024 / 1024,
});
