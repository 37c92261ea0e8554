/**
 * `pnpm drift:check <har>`: holds a recording against the description with `redocly drift`
 * (all-versions bundle, match mode basepath, coverage) and exits non-zero when it finds an error.
 */
import { readArgs, runCommand, UsageError } from "./command.ts";
import { checkableRecording } from "./recording-input.ts";
import { secretsLeft } from "./redact-har.ts";
import { driftArgs, exitOf, MATCH_MODE, runRedocly, userPath } from "./redocly.ts";

const FORMATS = ["pretty", "json", "csv", "sarif"] as const;

const USAGE = `Usage: pnpm drift:check <recording.har> [options]

Checks recorded traffic against the description (spec/dist/openapi.json, both API
versions, match mode ${MATCH_MODE}) with redocly drift: undocumented endpoints,
parameters and headers, request and response schema mismatches, security requirement
failures, and how much of the description the traffic covered.

Exit status: 0 no error found (warnings and infos do not fail it), 1 an error found,
2 nothing checked: wrong usage, a file that is not a HAR recording with at least one
entry, or an unexpected failure of redocly (its stack trace with --debug).

Options:
  --format <f>             pretty (default), json, csv or sarif
  --output <file>          write the report there instead of printing it
  --coverage-output <file> also write the detailed coverage (JSON, per operation)
  --debug                  print redocly's stack trace when it fails unexpectedly
  -h, --help               show this help

Recordings from pnpm drift:record are redacted. A raw HAR from any other proxy or a
browser holds every token and secret of the session: do not keep or share it.
`;

interface CheckOptions {
  readonly har: string;
  readonly format: (typeof FORMATS)[number];
  readonly output: string | undefined;
  readonly coverageOutput: string | undefined;
  readonly debug: boolean;
}

function parse(argv: readonly string[]): CheckOptions | "help" {
  const { values, positionals } = readArgs("drift:check", argv, {
    strings: ["format", "output", "coverage-output"],
    booleans: ["debug"],
    positionals: true,
  });
  if (values.help) return "help";
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? "<recording.har>: required (the HAR file to check)"
        : `one recording at a time (got ${positionals.length}: ${positionals.join(", ")})`,
    );
  }
  const har = userPath(positionals[0] as string);
  const format = values.format ?? "pretty";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format: must be one of ${FORMATS.join(", ")} (got ${JSON.stringify(format)})`);
  }
  const output = values.output;
  const coverageOutput = values["coverage-output"];
  return {
    har,
    format: format as CheckOptions["format"],
    output: output === undefined ? undefined : userPath(output),
    coverageOutput: coverageOutput === undefined ? undefined : userPath(coverageOutput),
    debug: values.debug === true,
  };
}

/** What redocly prints before the stack trace of an error it did not expect. */
const UNEXPECTED = "An unexpected error occurred.";

async function check(options: CheckOptions): Promise<number> {
  const left = secretsLeft(await checkableRecording(options.har));
  if (left.length > 0) {
    process.stderr.write(
      `drift:check: warning: ${options.har} shows ${left.join(", ")}: it is a raw recording. ` +
        "Delete it once checked, and keep only redacted recordings (pnpm drift:record writes those).\n",
    );
  }
  const args = driftArgs(options.har, {
    format: options.format,
    output: options.output,
    coverageOutput: options.coverageOutput,
  });
  const redocly = runRedocly(args, "pipe");
  // Redocly's own lines pass through as they come, up to an unexpected error: that one is said in
  // one line (and exit 2, not the 1 of a finding), its stack trace only with --debug.
  let pending = "";
  let failure: string[] | undefined;
  redocly.child.stderr?.setEncoding("utf8");
  redocly.child.stderr?.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (failure === undefined && line.startsWith(UNEXPECTED)) failure = [];
      if (failure === undefined) process.stderr.write(`${line}\n`);
      else failure.push(line);
    }
  });
  const code = await exitOf(redocly);
  if (failure === undefined) {
    if (pending !== "" && !pending.startsWith(UNEXPECTED)) process.stderr.write(pending);
    else if (pending !== "") failure = [pending];
  } else if (pending !== "") failure.push(pending);
  if (failure === undefined) return code;
  const what =
    failure
      .slice(1)
      .find((line) => line.trim() !== "")
      ?.trim() ?? "no message";
  if (options.debug) process.stderr.write(`${failure.join("\n")}\n`);
  process.stderr.write(
    `drift:check: redocly drift failed unexpectedly on ${options.har}: ${what}` +
      `${options.debug ? "" : " (--debug prints its stack trace)"}\n`,
  );
  return 2;
}

runCommand("drift:check", USAGE, parse, check);
