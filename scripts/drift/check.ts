/**
 * `pnpm drift:check <har>`: holds a recording against the description with `redocly drift`
 * (all-versions bundle, match mode basepath, coverage) and exits non-zero when it finds an error.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseArgsProblem } from "@drill-practice/client/internal";
import { runCommand, UsageError } from "./command.ts";
import { secretsLeft } from "./redact-har.ts";
import { driftArgs, exitOf, MATCH_MODE, runRedocly, userPath } from "./redocly.ts";

const FORMATS = ["pretty", "json", "csv", "sarif"] as const;

const USAGE = `Usage: pnpm drift:check <recording.har> [options]

Checks recorded traffic against the description (spec/dist/openapi.json, both API
versions, match mode ${MATCH_MODE}) with redocly drift: undocumented endpoints,
parameters and headers, request and response schema mismatches, security requirement
failures, and how much of the description the traffic covered. Exits with 1 when it
finds an error, 0 otherwise (warnings and infos do not fail it).

Options:
  --format <f>             pretty (default), json, csv or sarif
  --output <file>          write the report there instead of printing it
  --coverage-output <file> also write the detailed coverage (JSON, per operation)
  -h, --help               show this help

Recordings from pnpm drift:record are redacted. A raw HAR from any other proxy or a
browser holds every token and secret of the session: do not keep or share it.
`;

interface CheckOptions {
  readonly har: string;
  readonly format: (typeof FORMATS)[number];
  readonly output: string | undefined;
  readonly coverageOutput: string | undefined;
}

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        format: { type: "string" },
        output: { type: "string" },
        "coverage-output": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(parseArgsProblem(error, "pnpm drift:check"));
  }
}

function parse(argv: readonly string[]): CheckOptions | "help" {
  const { values, positionals } = readArgs(argv);
  if (values.help) return "help";
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? "<recording.har>: required (the HAR file to check)"
        : `one recording at a time (got ${positionals.length}: ${positionals.join(", ")})`,
    );
  }
  const har = userPath(positionals[0] as string);
  if (!existsSync(har)) throw new UsageError(`${har}: not found`);
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
  };
}

async function check(options: CheckOptions): Promise<number> {
  const left = secretsLeft(await readFile(options.har, "utf8"));
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
  return exitOf(runRedocly(args, "inherit"));
}

runCommand("drift:check", USAGE, parse, check);
