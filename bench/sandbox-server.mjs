/**
 * Runs a sandbox in a child process for the sandbox benchmarks (see fixtures.ts). Plain JavaScript
 * on the built package, run without tsx, so the process holds what a user's `drill-sandbox` holds
 * and its resident memory is the sandbox's, not a TypeScript loader's. Its start parameters
 * (DRILL_BENCH_INIT) say which data: the default dataset, or a data file (the parent writes the generated one). Reports
 * its URL, the credentials a client needs (over IPC, to the parent only), how long the start took and
 * the process's resident memory after it; when closed, its resident memory then.
 */
import { startSandbox } from "@drill-practice/sandbox";

/** @type {{ dataFile?: string }} */
const init = JSON.parse(process.env.DRILL_BENCH_INIT ?? "{}");
/** @type {import("@drill-practice/sandbox").SandboxOptions} */
const options = {
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
// On the way out, resident memory then (after the parent's load), as the process sees it: nothing collected first.
process.on("message", (/** @type {{ type: string }} */ message) => {
  if (message.type !== "close") return;
  process.send?.({ type: "closed", memoryMb: process.memoryUsage().rss / 1024 / 1024 }, shutdown);
});
process.on("disconnect", shutdown);

process.send?.({
  type: "ready",
  url: sandbox.url,
  clientId: sandbox.credentials.clientId,
  clientSecret: sandbox.credentials.clientSecret,
  keyFile: JSON.stringify(keyFile),
  startupMs,
  memoryMb: process.memoryUsage().rss / 1024 / 1024,
});
