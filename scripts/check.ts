/**
 * Runs one guard of `pnpm test` and leaves a machine-readable verdict in
 * `.reports/<name>.json`, so that the final summary counts checks such as lint
 * or publint next to the vitest tests and never reads a stale result.
 *
 * Usage: tsx scripts/check.ts <name> -- <command> [args…]
 * The name `vitest` means the command writes its own JSON report there.
 */
import { spawn } from "node:child_process";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

const [name, separator, command, ...args] = process.argv.slice(2);
if (!name || separator !== "--" || !command) {
  console.error("usage: tsx scripts/check.ts <name> -- <command> [args…]");
  process.exit(2);
}

const reportDir = join(process.cwd(), ".reports");
const reportFile = join(reportDir, `${name}.json`);
await mkdir(reportDir, { recursive: true });
await rm(reportFile, { force: true });

const started = performance.now();
const code = await new Promise<number>((resolve) => {
  // Nothing a check runs may reach for the network (telemetry, update notices).
  const env = {
    REDOCLY_TELEMETRY: "off",
    REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    TURBO_TELEMETRY_DISABLED: "1",
    ...process.env,
  };
  const child = spawn(command, args, { stdio: "inherit", env, shell: process.platform === "win32" });
  child.on("error", (error) => {
    console.error(`check ${name}: cannot start ${command}: ${error.message}`);
    resolve(127);
  });
  child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
});
const seconds = (performance.now() - started) / 1000;

const hasOwnReport = name === "vitest" && (await stat(reportFile).catch(() => undefined)) !== undefined;
if (!hasOwnReport) {
  // vitest that died before reporting still has to show up as a failure.
  const verdict = { kind: "check", name, ok: code === 0, exitCode: code, seconds };
  await writeFile(reportFile, `${JSON.stringify(verdict, null, 2)}\n`);
}
process.exit(code);
