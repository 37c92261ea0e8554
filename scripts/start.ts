/**
 * `pnpm start`: the sandbox and the docs site together on localhost until
 * Ctrl-C. The sandbox writes its credentials into `.sandbox/` (gitignored) so
 * that `set -a; . .sandbox/client.env; set +a; npx -p @drill-practice/auth drill-token` works in
 * another terminal.
 *
 * Ports: `SANDBOX_PORT` (default 4010) and `DOCS_PORT` (default 8080); `0`
 * picks a free one. The docs server starts first: the sandbox trusts its origin
 * (CORS), so that Try it's "Your own server" mode reaches the sandbox from the
 * docs pages, and that origin is known once the docs server listens.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@drill-practice/sandbox";
import { ProcessStartError, type StartedProcess, startProcess } from "@drill-practice/tooling/process";

const root = fileURLToPath(new URL("..", import.meta.url));

function port(name: string, given: string | undefined, fallback: number): number {
  const raw = given ?? String(fallback);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65_535) {
    console.error(`start: ${name} must be an integer from 0 to 65535, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

// `pnpm start` runs this script after turbo, not as a turbo task, so turbo.json need not
// declare these (scripts/root-scripts.test.ts checks the root scripts that do run under turbo).
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read outside turbo (see above).
const sandboxPort = port("SANDBOX_PORT", process.env.SANDBOX_PORT, 4010);
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read outside turbo (see above).
const docsPort = port("DOCS_PORT", process.env.DOCS_PORT, 8080);

// The docs server prints its URL on its first line of standard output; wait for it before reporting.
let docs: StartedProcess;
try {
  docs = await startProcess({
    command: process.execPath,
    args: ["--import", "tsx", "scripts/serve.ts", "--port", String(docsPort)],
    cwd: join(root, "packages/docs"),
    env: process.env,
    readyWhen: /^(Drill Practice API docs:.*)\n/m,
    startMs: 120_000,
    name: "docs server",
  });
} catch (error) {
  // Reported as one line: the server's last word (it prints nothing on standard output before its URL).
  const output = error instanceof ProcessStartError ? error.output : "";
  const why =
    output
      .trim()
      .split("\n")
      .at(-1)
      ?.replace(/^docs:serve: /, "") || "it exited without a word";
  console.error(`start: docs server: ${why}`.replace("--port or PORT", "DOCS_PORT"));
  process.exit(1);
}
const docsLine = docs.ready[1] as string;
docs.child.stderr.pipe(process.stderr);

const credentialsDir = join(root, ".sandbox");
// The docs pages' origins: the one the docs server prints, and the same port as `localhost`.
const docsUrl = new URL(docsLine.replace(/^Drill Practice API docs:\s*(\S+).*$/, "$1"));
const corsOrigins = [docsUrl.origin, `${docsUrl.protocol}//localhost:${docsUrl.port}`];
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
try {
  sandbox = await startSandbox({ port: sandboxPort, credentialsDir, corsOrigins });
} catch (error) {
  docs.child.kill("SIGTERM");
  // One line, no stack trace (a busy port is the usual case).
  const busy =
    (error as { code?: unknown }).code === "ERR_SANDBOX_LISTEN"
      ? " (set SANDBOX_PORT; 0 picks a free port)"
      : "";
  console.error(`start: sandbox: ${(error as Error).message}${busy}`);
  process.exit(1);
}

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  docs.child.kill("SIGTERM");
  await sandbox.close();
  process.exit(code);
}
// Listening before the ready lines below: until a listener exists, SIGINT kills the process outright,
// so a Ctrl-C sent as soon as "Ctrl-C stops both." shows would otherwise end it with a signal.
// `on`, not `once`: under tsx a second SIGINT can follow the terminal's (tsx relays it when the
// child is slow to acknowledge, as on a loaded machine), and with no listener left it would end
// the process with 130 mid-shutdown, which pnpm reports as "ELIFECYCLE Command failed".
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(0));

console.log(`Drill Practice sandbox:  ${sandbox.url}`);
console.log(`  token endpoint:        ${sandbox.tokenEndpoint}`);
console.log(`  credentials:           ${credentialsDir}/ (service-account.json, client.env)`);
console.log(`  CORS for the docs:     ${corsOrigins.join(", ")}`);
console.log(docsLine.replace(/^Drill Practice API docs:\s*/, "Drill Practice API docs: "));
console.log("Ctrl-C stops both.");

void docs.exited().then((code) => {
  if (!stopping) {
    console.error(`start: the docs server stopped (exit ${code}); stopping the sandbox too`);
    void stop(1);
  }
});
