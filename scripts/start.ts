/**
 * `pnpm start`: the sandbox and the docs site together on localhost until
 * Ctrl-C. The sandbox writes its credentials into `.sandbox/` (gitignored) so
 * that `set -a; . .sandbox/client.env; set +a; pnpm exec drill-token` works in
 * another terminal.
 *
 * Ports: `SANDBOX_PORT` (default 4010) and `DOCS_PORT` (default 8080); `0`
 * picks a free one.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@drill-practice/sandbox";

const root = fileURLToPath(new URL("..", import.meta.url));

function port(name: string, fallback: number): number {
  const raw = process.env[name] ?? String(fallback);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65_535) {
    console.error(`start: ${name} must be an integer from 0 to 65535, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const credentialsDir = join(root, ".sandbox");
const sandbox = await startSandbox({ port: port("SANDBOX_PORT", 4010), credentialsDir });

// The docs server prints its URL on its first line; wait for it before reporting.
const docs = spawn(
  process.execPath,
  ["--import", "tsx", "scripts/serve.ts", "--port", String(port("DOCS_PORT", 8080))],
  { cwd: join(root, "packages/docs"), stdio: ["ignore", "pipe", "inherit"] },
);
const firstLine = createInterface({ input: docs.stdout })[Symbol.asyncIterator]().next();
const docsLine = await Promise.race([
  firstLine.then((line) => (line.done ? undefined : line.value)),
  once(docs, "exit").then(() => undefined),
]);
if (docsLine === undefined) {
  await sandbox.close();
  console.error("start: the docs server did not start (build it with `pnpm run docs`)");
  process.exit(1);
}

console.log(`Drill Practice sandbox:  ${sandbox.url}`);
console.log(`  token endpoint:        ${sandbox.tokenEndpoint}`);
console.log(`  credentials:           ${credentialsDir}/ (service-account.json, client.env)`);
console.log(docsLine.replace(/^Drill Practice API docs:\s*/, "Drill Practice API docs: "));
console.log("Ctrl-C stops both.");

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  docs.kill("SIGTERM");
  await sandbox.close();
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(0));
docs.once("exit", (code) => {
  if (!stopping) {
    console.error(`start: the docs server stopped (exit ${code}); stopping the sandbox too`);
    void stop(1);
  }
});
