/**
 * Package checks for the publishable package in the current directory:
 * `publint --strict` on the package, `attw --pack` with the ESM-only
 * profile (these packages ship no CommonJS entry on purpose), and the API
 * report of every public entry against the committed one (scripts/api-report.ts).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const steps: [string, string[]][] = [
  ["publint", ["--strict"]],
  ["attw", ["--pack", ".", "--profile", "esm-only", "--format", "table-flipped"]],
  ["tsx", [fileURLToPath(new URL("api-report.ts", import.meta.url))]],
];
let failed = false;
for (const [command, args] of steps) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`${command} failed (exit ${result.status ?? result.signal})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
