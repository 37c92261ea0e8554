/**
 * `drill-sandbox`: runs the sandbox from the command line until SIGINT or SIGTERM.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { oneLineMessage, parseArgsProblem } from "@drill-practice/client/internal";
import { SandboxError } from "./errors.js";
import { corsOriginProblem } from "./http/cors.js";
import { publicUrlProblem } from "./public-url.js";
import type { Sandbox, SandboxOptions } from "./sandbox.js";
import { startSandbox } from "./sandbox.js";
import { stateFileExists, writeStateFile } from "./state-file.js";

const USAGE = `Usage: drill-sandbox [options]

A local, stateful stand-in of the Drill Practice Service, driven by its OpenAPI description.

Options:
  --port <n>               TCP port (default 4010; 0 picks a free port)
  --host <address>         interface to listen on (default 127.0.0.1)
  --data <file.json>       dataset to serve instead of the built-in one
  --state <file.json>      keep the state across runs: start from this file when it
                           exists (instead of --data), write the state back to it on
                           exit (Ctrl-C and SIGTERM included), in the data file format
  --responses <file.json>  programmed responses: { "responses": [ { "operationId",
                           "when"?, "status", "headers"?, "body"? } ] }, first match wins
  --credentials-dir <dir>  write service-account.json and client.env there
                           (default: a fresh temporary directory, removed on exit)
  --token-lifetime <s>     lifetime of issued access tokens in seconds (default 3599)
  --public-url <url>       base URL clients reach the sandbox at, when a proxy stands
                           in front of it: advertised by discovery, accepted as the
                           token endpoint's aud, written to client.env
                           (env DRILL_SANDBOX_PUBLIC_URL; default: its own address)
  --cors <origin>          let web pages of this origin call the sandbox from a
                           browser (CORS): scheme://host[:port] with no path, such
                           as http://127.0.0.1:8080; repeat it or separate origins
                           with commas (default: no CORS headers)
  --quiet                  do not log requests
  -h, --help               show this help
  --version                print the version

Load the credentials into a shell with:  set -a; . <dir>/client.env; set +a
`;

/**
 * A command-line mistake: reported in one line, exit code 2; `hint` adds the usage hint as a
 * second line where the message does not already point to `--help`.
 */
class UsageError extends Error {
  constructor(
    message: string,
    readonly hint = true,
  ) {
    super(message);
  }
}

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  state: { type: "string" },
  responses: { type: "string" },
  "credentials-dir": { type: "string" },
  "token-lifetime": { type: "string" },
  "public-url": { type: "string" },
  cors: { type: "string", multiple: true },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }).values;
  } catch (error) {
    // A stray word is named, quoted, on the one line the README promises.
    const { code } = error as { code?: unknown };
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const [stray = ""] = parseArgs({
        args: argv,
        strict: false,
        allowPositionals: true,
        options: OPTIONS,
      }).positionals;
      throw new UsageError(
        `unexpected argument ${JSON.stringify(stray)}: only options are taken (see --help)`,
        false,
      );
    }
    // Worded like drill-token's usage errors, by the same module (a generated copy of the client's).
    throw new UsageError(parseArgsProblem(error, "drill-sandbox"));
  }
}

/** The origins of every `--cors`, each checked. */
function corsOrigins(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const origins = values.flatMap((value) => value.split(",")).map((origin) => origin.trim());
  for (const origin of origins) {
    const problem = corsOriginProblem(origin);
    if (problem) throw new UsageError(`--cors ${problem}`);
  }
  return origins;
}

/** The options of `startSandbox` the command line gives (without the credentials and the log). */
async function optionsOf(values: ReturnType<typeof parse>): Promise<SandboxOptions> {
  const publicUrl = values["public-url"] ?? (process.env.DRILL_SANDBOX_PUBLIC_URL || undefined);
  const problem = publicUrl === undefined ? undefined : publicUrlProblem(publicUrl);
  if (problem) throw new UsageError(`--public-url (DRILL_SANDBOX_PUBLIC_URL) ${problem}`);
  // A state file that exists is where the run starts; until the first run writes it, --data is.
  const dataFile =
    values.state !== undefined && (await stateFileExists(values.state)) ? values.state : values.data;
  const cors = corsOrigins(values.cors);
  return {
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(cors === undefined ? {} : { corsOrigins: cors }),
    port: integer("port", values.port, 0, 65535) ?? 4010,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(dataFile === undefined ? {} : { dataFile }),
    ...(values.responses === undefined ? {} : { responsesFile: values.responses }),
    ...(values["token-lifetime"] === undefined
      ? {}
      : { tokenLifetimeSeconds: integer("token-lifetime", values["token-lifetime"], 1, 86_400) as number }),
  };
}

/** The lines that say the sandbox is ready and how to reach it. */
function announce(sandbox: Sandbox, corsOrigins: readonly string[] | undefined): void {
  const files = sandbox.credentialsFiles;
  process.stdout.write(`drill-sandbox listening on ${sandbox.url}\n`);
  if (sandbox.publicUrl !== sandbox.url) process.stdout.write(`public URL: ${sandbox.publicUrl}\n`);
  if (corsOrigins) process.stdout.write(`CORS allowed for: ${corsOrigins.join(", ")}\n`);
  process.stdout.write(`token endpoint: ${sandbox.tokenEndpoint}\n`);
  if (files) {
    process.stdout.write(`credentials: ${files.envFile}${files.keyFile ? ` and ${files.keyFile}` : ""}\n`);
    if (!files.keyFile) {
      process.stdout.write("(the dataset brings its own public key, so no key file was written)\n");
    }
    process.stdout.write(`load them with: set -a; . ${files.envFile}; set +a\n`);
  }
}

/** Resolves on the first SIGINT or SIGTERM, after saying which one came. */
function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`drill-sandbox: ${signal}, stopping\n`);
      resolve();
    };
    // `on`, not `once`: a repeated signal (tsx and some supervisors relay one) must not end the
    // process with 130 in the middle of a clean stop.
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  let options: SandboxOptions;
  try {
    values = parse(argv);
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (values.version) {
      // One place holds the version: the package.json above src/ and dist/.
      const manifest = readFileSync(new URL("../package.json", import.meta.url), "utf8");
      process.stdout.write(`drill-sandbox ${(JSON.parse(manifest) as { version: string }).version}\n`);
      return 0;
    }
    options = await optionsOf(values);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(
        `drill-sandbox: ${error.message}\n${error.hint ? "Run drill-sandbox --help for usage.\n" : ""}`,
      );
      return 2;
    }
    throw error;
  }

  let temporaryDir: string | undefined;
  let credentialsDir = values["credentials-dir"];
  if (credentialsDir === undefined) {
    temporaryDir = await mkdtemp(join(tmpdir(), "drill-sandbox-"));
    credentialsDir = temporaryDir;
  }

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      credentialsDir,
      ...(values.quiet ? {} : { onRequest: (line: string) => process.stdout.write(`${line}\n`) }),
    });
  } catch (error) {
    if (temporaryDir) await rm(temporaryDir, { recursive: true, force: true });
    if (error instanceof SandboxError || (error instanceof Error && "code" in error)) {
      // The options a flag sets are named by the flag here, not by the API's option name.
      const flag =
        (error as { code?: unknown }).code === "ERR_SANDBOX_CREDENTIALS_FILES" ? "--credentials-dir: " : "";
      process.stderr.write(`drill-sandbox: ${flag}${error.message}\n`);
      return 1;
    }
    throw error;
  }

  // Listening before the ready lines: until a listener exists, a signal ends the process outright, so
  // a supervisor (or a test) that signals as soon as "listening" shows would skip the clean stop.
  const stopped = stopSignal();
  announce(sandbox, options.corsOrigins);

  await stopped;
  await sandbox.close();
  if (temporaryDir) await rm(temporaryDir, { recursive: true, force: true });
  if (values.state !== undefined) {
    try {
      await writeStateFile(values.state, sandbox.snapshot());
    } catch (error) {
      process.stderr.write(
        `drill-sandbox: --state: cannot write ${values.state}: ${oneLineMessage(error)}\n`,
      );
      return 1;
    }
    process.stdout.write(`state written to ${values.state}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`drill-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
