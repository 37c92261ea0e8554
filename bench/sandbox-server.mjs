/**
 * A sandbox in a child process for the sandbox benchmarks (fixtures.ts). Plain JavaScript on the
 * built package, run without tsx, so its resident memory is what a user's `drill-sandbox` holds, not
 * a TypeScript loader's. DRILL_BENCH_INIT may name a data file; the `ready` line carries what the
 * parent needs: URL, credentials, start-up time and memory.
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
