/**
 * Executable entry of `drill-token` (see `cli-run.ts` for what it does).
 *
 * @example
 * ```sh
 * export DRILL_BASE_URL=https://drill.example DRILL_KEY_FILE=./sa.json DRILL_CLIENT_ID=my-app
 * read -rs DRILL_CLIENT_SECRET && export DRILL_CLIENT_SECRET
 * curl -H "Authorization: Bearer $(drill-token)" "$DRILL_BASE_URL/api/2.1/version"
 * ```
 *
 * @module
 */
import { runCli } from "./cli-run.js";

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
