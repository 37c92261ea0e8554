/**
 * `pnpm drift:record --target <base URL>`: records traffic through `redocly proxy` in front of a
 * service (the sandbox or the real one), checking it live against the description, and keeps a
 * redacted copy of the recording.
 *
 * `redocly proxy` writes every exchange to disk as it happens, secrets included, so its raw
 * recording goes only to a private temporary folder (mode 0700). When the proxy stops (Ctrl+C or
 * SIGTERM) the recording is redacted (see redact-har.ts), checked for anything left, written to
 * `--out`, and the temporary folder is deleted, whatever happened.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { readArgs, runCommand, UsageError } from "./command.ts";
import { assertNoSecrets, type Har, redactHar } from "./redact-har.ts";
import { exitOf, invokedFrom, MATCH_MODE, runRedocly, SPEC_BUNDLE, userPath } from "./redocly.ts";

const USAGE = `Usage: pnpm drift:record --target <base URL> [options]

Starts a recording proxy (redocly proxy) in front of <base URL> and checks the traffic
live against the description (spec/dist/openapi.json, both API versions, match mode
${MATCH_MODE}). Point your client at the proxy, run it, then stop the proxy with Ctrl+C:
a redacted copy of the recording is kept, the raw one (which holds every token and
secret) is deleted. Check the copy with: pnpm drift:check <file>

Options:
  --target <url>   base URL of the service to record (required), e.g. a sandbox
                   at http://127.0.0.1:4010 or the real service
  --port <n>       port the proxy listens on (default 4040; 0 picks a free one)
  --host <address> interface the proxy listens on (default 127.0.0.1)
  --out <file>     where the redacted recording goes (default
                   .drift/traffic-<UTC date and time>.har); never overwritten
  -h, --help       show this help

Behind the proxy, a sandbox must advertise the proxy's address, so that the token
exchange passes through it too:
  npx -p @drill-practice/sandbox drill-sandbox --port 4010 --public-url http://127.0.0.1:4040 --credentials-dir .sandbox
`;

interface RecordOptions {
  readonly target: string;
  readonly port: number;
  readonly host: string;
  readonly out: string;
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/[-:]/g, "");
}

function parse(argv: readonly string[]): RecordOptions | "help" {
  const { values } = readArgs("drift:record", argv, {
    strings: ["target", "port", "host", "out"],
    positionals: false,
  });
  if (values.help) return "help";
  const target = values.target;
  if (target === undefined)
    throw new UsageError("--target: required (the base URL of the service to record)");
  if (!URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol)) {
    throw new UsageError(`--target: must be an absolute http: or https: URL (got ${JSON.stringify(target)})`);
  }
  const port = values.port ?? "4040";
  if (!/^[0-9]+$/.test(port) || Number(port) > 65535) {
    throw new UsageError(`--port: must be an integer from 0 to 65535 (got ${JSON.stringify(port)})`);
  }
  const host = values.host ?? "127.0.0.1";
  if (host === "") throw new UsageError("--host: must not be empty");
  const out = userPath(values.out ?? join(".drift", `traffic-${stamp(new Date())}.har`));
  if (existsSync(out))
    throw new UsageError(`--out: ${out} exists; give another file (recordings are never overwritten)`);
  return { target, port: Number(port), host, out };
}

/** The recording as the proxy left it: its HAR, or, if it stopped before writing one, its entry log. */
async function readRecording(rawHar: string): Promise<Har | undefined> {
  const text = await readFile(rawHar, "utf8").catch(() => undefined);
  if (text !== undefined) return JSON.parse(text) as Har;
  const lines = await readFile(`${rawHar}.entries.tmp`, "utf8").catch(() => undefined);
  if (lines === undefined) return undefined;
  const entries = lines
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return []; // a line cut short when the proxy died
      }
    });
  return { log: { version: "1.2", creator: { name: "redocly-cli proxy (entries)", version: "" }, entries } };
}

const PRIVATE_PREFIX = "drill-drift-";
const OWNER_FILE = "owner.pid";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Deletes raw recordings that an earlier run could not delete (it was killed outright): private
 * folders whose owner process is gone.
 */
async function sweepAbandoned(): Promise<void> {
  for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith(PRIVATE_PREFIX)) continue;
    const folder = join(tmpdir(), name);
    const owner = Number(await readFile(join(folder, OWNER_FILE), "utf8").catch(() => "NaN"));
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
      await removeScratchDir(folder);
      process.stderr.write(`drift:record: deleted ${folder}, a raw recording left by an interrupted run\n`);
    }
  }
}

async function record(options: RecordOptions): Promise<number> {
  await sweepAbandoned();
  const privateDir = await makeScratchDir(PRIVATE_PREFIX);
  try {
    await chmod(privateDir, 0o700);
    await writeFile(join(privateDir, OWNER_FILE), String(process.pid));
    const rawHar = join(privateDir, "raw.har");
    const proxy = runRedocly([
      "proxy",
      "--target",
      options.target,
      "--port",
      String(options.port),
      "--host",
      options.host,
      "--har",
      rawHar,
      "--api",
      SPEC_BUNDLE,
      "--match-mode",
      MATCH_MODE,
    ]);
    // A terminal's Ctrl+C reaches the proxy too (same process group); a SIGINT sent to this script
    // alone does not. Passing on SIGTERM covers both: the proxy stops on the first of SIGINT or
    // SIGTERM and ignores the other, where a second SIGINT would kill it before it saves its recording.
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      process.stderr.write("drift:record: stopping the proxy, then redacting the recording…\n");
      proxy.child.kill("SIGTERM");
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
    const proxyExit = await exitOf(proxy);

    const har = await readRecording(rawHar);
    if (har === undefined || har.log.entries.length === 0) {
      process.stderr.write(
        proxyExit === 0 || stopping
          ? "drift:record: nothing was recorded; no file written\n"
          : `drift:record: the proxy failed (exit ${proxyExit}); nothing was recorded\n`,
      );
      return proxyExit === 0 || stopping ? 0 : 1;
    }
    const counts = redactHar(har);
    const text = `${JSON.stringify(har, null, 2)}\n`;
    assertNoSecrets(text);
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, text, { flag: "wx" });
    const replaced = [...counts].map(([what, n]) => `${n} × ${what}`).join(", ") || "nothing";
    const shown = relative(invokedFrom(), options.out) || options.out;
    process.stdout.write(
      `drift:record: kept ${har.log.entries.length} exchange(s) in ${options.out}\n` +
        `  redacted: ${replaced}; the raw recording is deleted\n` +
        `  check it with: pnpm drift:check ${shown}\n`,
    );
    return 0;
  } finally {
    await removeScratchDir(privateDir);
  }
}

runCommand("drift:record", USAGE, parse, record);
