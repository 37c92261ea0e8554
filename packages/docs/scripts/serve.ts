/**
 * `pnpm docs:serve`: serves the built site on 127.0.0.1 for preview.
 * Port from `--port <n>` or `PORT`, default 8080; `--dir <dir>` serves another directory.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { packageDir } from "../src/build-site.ts";
import { startStaticServer } from "../src/static-server.ts";

const { values } = parseArgs({
  options: { port: { type: "string" }, dir: { type: "string" } },
  strict: true,
});

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
  console.error(`docs:serve: ${root}/index.html not found; build the site first with \`pnpm docs\``);
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
