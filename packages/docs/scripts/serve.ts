/**
 * `pnpm docs:serve`: serves the built site on 127.0.0.1 for preview.
 * Port from `--port <n>` or `PORT`, default 8080; `--dir <dir>` serves another directory; `--help`
 * prints the usage, and an unknown flag gets one line naming it (exit 2).
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageDir } from "../src/build-site.ts";
import { startStaticServer } from "../src/static-server.ts";

const USAGE = `Usage: pnpm docs:serve [--port <n>] [--dir <dir>]

Serves the built documentation site on http://127.0.0.1:<port>/ until Ctrl-C.

  --port <n>   port to listen on, 0 for a free one (default: PORT, else 8080)
  --dir <dir>  directory to serve (default: packages/docs/dist)
  --help       print this and exit

From the repository root, \`pnpm docs:serve\` builds the site first.`;

function options(): { port?: string | undefined; dir?: string | undefined } {
  try {
    const { values } = parseArgs({
      options: { port: { type: "string" }, dir: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return values;
  } catch (error) {
    // One line naming the flag, no stack trace: node's message says which one and why.
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    console.error(`docs:serve: ${reason}\nRun with --help for the options.`);
    process.exit(2);
  }
}

const values = options();

// `pnpm docs:serve` runs this script after turbo, not as a turbo task (so that Ctrl-C ends it
// with exit 0): turbo.json need not declare PORT.
const rawPort = values.port ?? process.env.PORT ?? "8080";
const port = Number(rawPort);
if (!/^\d+$/.test(rawPort) || port > 65535) {
  console.error(`docs:serve: --port/PORT must be an integer from 0 to 65535, got "${rawPort}"`);
  process.exit(2);
}
const root = values.dir ?? join(packageDir, "dist");
if (!(await stat(join(root, "index.html")).catch(() => undefined))) {
  // Not `pnpm docs`: pnpm hands that to npm's own `docs` command, which opens a browser.
  console.error(
    `docs:serve: ${root}/index.html not found; build the site first with \`pnpm run docs\` ` +
      "from the repository root (or run `pnpm docs:serve` there, which builds it)",
  );
  process.exit(1);
}

let server: Awaited<ReturnType<typeof startStaticServer>>;
try {
  server = await startStaticServer({ root, port, host: "127.0.0.1" });
} catch (error) {
  // One line, no stack trace: a busy port is a situation, not a bug.
  const { code, message } = error as NodeJS.ErrnoException;
  const reason =
    code === "EADDRINUSE"
      ? "address already in use (choose another with --port or PORT; 0 picks a free one)"
      : message;
  console.error(`docs:serve: cannot listen on 127.0.0.1:${port}: ${reason}`);
  process.exit(1);
}
let closing = false;
// Listening before the ready line: until a listener exists, a signal ends the process outright.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // `on`: a repeated signal (tsx relays one) must not end the process with 130 mid-shutdown.
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void server.close().then(() => process.exit(0));
  });
}
console.log(`Drill Practice API docs: ${server.url}  (Ctrl+C to stop)`);
