/**
 * The `drill-token` command, as a function of its inputs so it can run in-process.
 * `cli.ts` is the executable entry that calls it with the real process.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  DrillError,
  DrillInvalidOptionError,
  parseArgsProblem,
  redactSecrets,
  validateTimeout,
} from "@drill-practice/client/internal";
import { parseHttpUrl } from "./discovery.js";
import { CliUsageError } from "./errors.js";
import { readServiceAccountKey } from "./read-key-file.js";
import { createTokenProvider } from "./token-provider.js";

/**
 * Exit status for a token printed.
 */
export const EXIT_OK = 0;
/**
 * Exit status when the token could not be obtained.
 */
export const EXIT_FAILURE = 1;
/**
 * Exit status for wrong usage.
 */
export const EXIT_USAGE = 2;

/**
 * The usage text printed by `drill-token --help`.
 */
export const USAGE = `Usage: drill-token [options]

Prints an access token for the Drill Practice Service, obtained with the JWT bearer
grant of a service account, for use with curl and other tools.

Settings (a flag overrides its environment variable):
  --base-url <url>         service base URL                    DRILL_BASE_URL
  --key-file <path>        service account JSON key file       DRILL_KEY_FILE
  --client-id <id>         client ID of the client application DRILL_CLIENT_ID
  --subject <id>           user to act for: user ID, email     DRILL_SUBJECT
                           address or third-party ID
                           (default: the service account)
  --token-endpoint <url>   token endpoint; skips discovery
                           (then --base-url is optional)
  --timeout-ms <ms>        limit of one HTTP attempt           DRILL_TIMEOUT_MS
                           (default 30000)
  The client secret is read from DRILL_CLIENT_SECRET, or from standard input with
  --client-secret-stdin. It is never accepted as a flag: flags show up in process
  lists and shell history.

Sharing (optional):
  --cache <redis-url>      share tokens through Redis          DRILL_TOKEN_CACHE
                           (redis:// or rediss://): processes
                           with the same client secret and key
                           make one exchange between them;
                           tokens are encrypted at rest;
                           needs the redis package
                           (npm install redis)

Output:
  --json                   print the whole token response as JSON
  -h, --help               print this help
  --version                print the version of drill-token

Example (the header reaches curl on standard input, never on its command line):
  printf 'Authorization: Bearer %s\\n' "$(drill-token)" | curl -H @- "$DRILL_BASE_URL/api/2.1/version"

Retries: 3 attempts per request (discovery, then the token request) for network
errors and HTTP 429/502/503/504, with backoff under a second; a silent server is
given up on after one --timeout-ms per request. So an unreachable service fails
within about 2 s, and a silent one within two timeouts (60 s by default).

Errors are printed on standard error as "drill-token: <CODE>: <what happened>".
Exit status: 0 token printed, 1 token not obtained, 2 wrong usage.
`;

const OPTIONS = {
  "base-url": { type: "string" },
  "key-file": { type: "string" },
  "client-id": { type: "string" },
  subject: { type: "string" },
  "token-endpoint": { type: "string" },
  "timeout-ms": { type: "string" },
  "client-secret-stdin": { type: "boolean" },
  cache: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

/**
 * The version of this package, read from its package.json (one level above
 * both `src/` and `dist/`), so that it is written down in one place only.
 */
export function packageVersion(): string {
  const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

/**
 * Inputs and outputs of one run.
 */
export interface CliIo {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** `fetch` for discovery and the token request. Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch;
}

function checkFlags(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === "--") break;
    if (!arg.startsWith("-") || arg === "-") continue;
    // Only the part before "=" is ever repeated back: the value could be a secret.
    const name = arg.split("=")[0] as string;
    if (name === "--client-secret") {
      throw new CliUsageError(
        "the client secret is not accepted as a flag (it would be visible in process lists and shell " +
          "history); set DRILL_CLIENT_SECRET or pipe it in with --client-secret-stdin",
      );
    }
    const known = Object.entries(OPTIONS).some(
      ([long, option]) => name === `--${long}` || ("short" in option && name === `-${option.short}`),
    );
    if (!known) throw new CliUsageError(`unknown option ${name.startsWith("--") ? name : name.slice(0, 2)}`);
  }
}

/** The parsed flags of one run. */
type Flags = ReturnType<typeof parse>;

function parse(argv: readonly string[]) {
  checkFlags(argv);
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliUsageError(parseArgsProblem(error, "drill-token"));
  }
}

function setting(flag: string | undefined, env: string | undefined): string | undefined {
  const value = flag ?? env;
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** A setting as the user gave it: its flag, its environment variable, its value. */
interface Given {
  readonly flag: string;
  readonly env: string | undefined;
  readonly value: string | undefined;
}

/** Flag and environment variable of each provider option the command line sets. */
const SETTINGS: Readonly<Record<string, { flag: string; env: string | undefined }>> = {
  baseUrl: { flag: "--base-url", env: "DRILL_BASE_URL" },
  tokenEndpoint: { flag: "--token-endpoint", env: undefined },
  clientId: { flag: "--client-id", env: "DRILL_CLIENT_ID" },
  subject: { flag: "--subject", env: "DRILL_SUBJECT" },
  timeoutMs: { flag: "--timeout-ms", env: "DRILL_TIMEOUT_MS" },
};

/**
 * A wrong value, in the one style of both CLIs: the flag, its environment variable and
 * the value given, quoted (with any `user:password@` of a URL left out).
 */
function badValue(given: Given, rule: string): CliUsageError {
  const name = given.env === undefined ? given.flag : `${given.flag} (${given.env})`;
  const shown = given.value?.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^@/?#]*@/i, "$1[credentials]@");
  return new CliUsageError(`${name} ${rule}${shown === undefined ? "" : ` (got ${JSON.stringify(shown)})`}`);
}

async function readSecret(stdin: AsyncIterable<Uint8Array | string>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdin)
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  text += decoder.decode();
  // Only the line break that `echo` or a here-string adds is removed.
  return text.replace(/\r?\n$/, "");
}

/**
 * `--cache` needs the optional peer `redis`: without it, that is a usage error about the flag (the
 * URL is not what is wrong), saying what to install.
 */
async function requireRedisPackage(): Promise<void> {
  try {
    await import("redis");
  } catch (error) {
    // Any other failure to load it is left to the cache, which reports it as it is.
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return;
    throw new CliUsageError(
      "--cache (DRILL_TOKEN_CACHE) needs the redis package, which is not installed: " +
        "install it next to @drill-practice/auth (npm install redis), or leave out --cache and DRILL_TOKEN_CACHE",
    );
  }
}

/** The settings of one run, from flags and environment, checked before the key file is read. */
interface RunSettings {
  readonly baseUrl: string | undefined;
  readonly tokenEndpoint: string | undefined;
  readonly keyFile: string | undefined;
  readonly clientId: string | undefined;
  readonly subject: string | undefined;
  readonly timeoutMs: number | undefined;
}

/** Reads and checks the flag-or-variable settings; records in `given` where each came from. */
function readSettings(flags: Flags, env: CliIo["env"], given: Record<string, Given>): RunSettings {
  const timeoutText = setting(flags["timeout-ms"], env.DRILL_TIMEOUT_MS);
  const settings = {
    baseUrl: setting(flags["base-url"], env.DRILL_BASE_URL),
    tokenEndpoint: setting(flags["token-endpoint"], undefined),
    keyFile: setting(flags["key-file"], env.DRILL_KEY_FILE),
    clientId: setting(flags["client-id"], env.DRILL_CLIENT_ID),
    subject: setting(flags.subject, env.DRILL_SUBJECT),
  };
  const values: Record<string, string | undefined> = { ...settings, timeoutMs: timeoutText };
  for (const [option, { flag, env: variable }] of Object.entries(SETTINGS)) {
    given[option] = { flag, env: variable, value: values[option] };
  }
  const timeoutMs = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw badValue(given.timeoutMs as Given, "must be a whole number of milliseconds above 0");
  }
  // Checked before the key file is read: a wrong value is a usage error, whatever else is wrong.
  for (const option of ["baseUrl", "tokenEndpoint"]) {
    const url = given[option] as Given;
    if (url.value !== undefined && parseHttpUrl(url.value) === undefined) {
      throw badValue(
        url,
        "must be an absolute http(s) URL without credentials, such as https://drill.example",
      );
    }
  }
  try {
    validateTimeout(timeoutMs);
  } catch {
    // Only the upper bound is left to fail (what setTimeout can wait).
    throw badValue(given.timeoutMs as Given, "is longer than a timer can wait (2147483647 at most)");
  }
  return { ...settings, timeoutMs };
}

/** Refuses a run that lacks a setting it needs, naming every one missing. */
function requireSettings(settings: RunSettings, clientSecret: string | undefined, fromStdin: boolean): void {
  const missing: string[] = [];
  if (settings.baseUrl === undefined && settings.tokenEndpoint === undefined)
    missing.push("DRILL_BASE_URL (or --base-url)");
  if (settings.keyFile === undefined) missing.push("DRILL_KEY_FILE (or --key-file)");
  if (settings.clientId === undefined) missing.push("DRILL_CLIENT_ID (or --client-id)");
  if (clientSecret === undefined || clientSecret === "") {
    missing.push(
      fromStdin
        ? "the client secret on standard input (it was empty)"
        : "DRILL_CLIENT_SECRET (or --client-secret-stdin)",
    );
  }
  if (missing.length > 0) throw new CliUsageError(`missing ${missing.join(", ")}`);
}

/** The `--cache` URL, checked (it may hold a Redis password: it is never repeated). */
async function cacheUrlOf(flags: Flags, env: CliIo["env"]): Promise<string | undefined> {
  const cacheUrl = setting(flags.cache, env.DRILL_TOKEN_CACHE);
  if (cacheUrl !== undefined && !/^rediss?:\/\/./.test(cacheUrl)) {
    throw new CliUsageError("--cache (DRILL_TOKEN_CACHE) must be a redis:// or rediss:// URL");
  }
  if (cacheUrl !== undefined) await requireRedisPackage();
  return cacheUrl;
}

/** Fetches the token (through the cache, if any) and prints it. */
async function printToken(
  io: CliIo,
  flags: Flags,
  settings: RunSettings,
  clientSecret: string,
): Promise<void> {
  const cacheUrl = await cacheUrlOf(flags, io.env);
  const key = await readServiceAccountKey(settings.keyFile as string);
  const cache =
    cacheUrl === undefined
      ? undefined
      : await (await import("./redis/index.js")).createRedisTokenCache({
          url: cacheUrl,
          clientSecret,
          keyId: key.keyId,
          onWarning: (warning) => io.stderr.write(`drill-token: warning: ${warning.message}\n`),
        });
  try {
    const { keyFile: _keyFile, clientId, ...rest } = settings;
    const provider = createTokenProvider({
      ...rest,
      clientId: clientId as string,
      clientSecret,
      key,
      fetch: io.fetch,
      cache,
    });
    const token = await provider.getToken();
    io.stdout.write(flags.json === true ? `${JSON.stringify(token.toResponse())}\n` : `${token.value}\n`);
  } finally {
    await cache?.close();
  }
}

/** Says what failed on one line (never the secret) and gives the exit status. */
function failureStatus(
  io: CliIo,
  caught: unknown,
  given: Record<string, Given>,
  clientSecret?: string,
): number {
  // An option the provider refuses is a flag or variable the user set: say which.
  const option = caught instanceof DrillInvalidOptionError ? given[caught.option] : undefined;
  const error =
    option === undefined
      ? caught
      : badValue(option, (caught as Error).message.replace(/^Invalid option [^:]*: /, ""));
  const usage = error instanceof CliUsageError;
  const message =
    error instanceof DrillError
      ? `${error.code}: ${error.message}`
      : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  io.stderr.write(`drill-token: ${redactSecrets(message, [clientSecret])}\n`);
  if (usage) io.stderr.write("Run drill-token --help for usage.\n");
  return usage ? EXIT_USAGE : EXIT_FAILURE;
}

/**
 * Runs `drill-token` and resolves to its exit status. Nothing is thrown: errors are
 * written to `stderr` as one line without a stack trace.
 */
export async function runCli(io: CliIo): Promise<number> {
  let clientSecret: string | undefined;
  const given: Record<string, Given> = {};
  try {
    const flags = parse(io.argv);
    if (flags.help === true) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (flags.version === true) {
      io.stdout.write(`drill-token ${packageVersion()}\n`);
      return EXIT_OK;
    }
    const settings = readSettings(flags, io.env, given);
    const fromStdin = flags["client-secret-stdin"] === true;
    clientSecret = fromStdin ? await readSecret(io.stdin) : io.env.DRILL_CLIENT_SECRET;
    requireSettings(settings, clientSecret, fromStdin);
    await printToken(io, flags, settings, clientSecret as string);
    return EXIT_OK;
  } catch (caught) {
    return failureStatus(io, caught, given, clientSecret);
  }
}
