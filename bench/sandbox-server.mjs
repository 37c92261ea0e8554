/**
 * Runs a sandbox in a child process for the sandbox benchmarks (see fixtures.ts). Plain JavaScript
 * on the built package, run without tsx, so the process holds what a user's `drill-sandbox` holds
 * and its resident memory is the sandbox's, not a TypeScript loader's. Its start parameters
 * (DRILL_BENCH_INIT) say which data: the default dataset, or a data file (the parent writes the
 * generated one). Prints its URL, the credentials a client needs, how long the start took and the
 * process's resident memory after it on its `ready` line; ends when its parent goes.
 */
import { startSandbox } from "@drill-practice/sandbox";

/** @type {{ dataFile?: string }} */
const init = JSON.parse(process.env.DRILL_BENCH_INIT ?? "{}");
// Measured like a user's start: from the call until the server listens, reading and checking the data file.
const started = performance.now();
const sandbox = await startSandbox({
  port: 0,
  ...(init.dataFile === undefined ? {} : { dataFile: init.dataFile }),
});
const startupMs = performance.now() - started;
const { clientId, clientSecret } = sandbox.credentials;
const keyFile = JSON.stringify(sandbox.credentials.keyFile());
const ready = { url: sandbox.url, clientId, clientSecret, keyFile, startupMs };
// Resident memory as the process sees it: nothing collected first.
process.stdout.write(
  `ready ${JSON.stringify({ ...ready, memoryMb: process.memoryUsage().rss / 1024 / 1024 })}\n`,
);
process.stdin.on("end", () => process.exit()).resume();
