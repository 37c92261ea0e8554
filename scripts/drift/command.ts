/**
 * What `pnpm drift:record` and `pnpm drift:check` share as commands: usage errors (exit 2 with a
 * hint), unusable input (exit 2, one line), `--help`, the bundle they need (exit 1 when missing)
 * and one line for any other failure.
 */
import { parseArgs } from "node:util";
import { parseArgsProblem } from "@drill-practice/client/internal";
import { InputError } from "./recording-input.ts";
import { missingBundle } from "./redocly.ts";

/** A wrong use of the command's arguments: reported with the usage hint, exit 2. */
export class UsageError extends Error {}

/** The flags a drift command takes (`--help`/`-h` always), and whether it takes positionals. */
interface Flags<S extends string, B extends string> {
  readonly strings: readonly S[];
  readonly booleans?: readonly B[];
  readonly positionals: boolean;
}

/**
 * A drift command's arguments, strictly parsed; a mistake is a {@link UsageError} worded like the
 * published commands' (`parseArgsProblem`).
 */
export function readArgs<S extends string, B extends string = never>(
  name: string,
  argv: readonly string[],
  flags: Flags<S, B>,
): { values: Partial<Record<S, string> & Record<B | "help", boolean>>; positionals: string[] } {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {
    help: { type: "boolean", short: "h" },
  };
  for (const flag of flags.strings) options[flag] = { type: "string" };
  for (const flag of flags.booleans ?? []) options[flag] = { type: "boolean" };
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: flags.positionals,
      options,
    });
    return { values: values as Partial<Record<S, string> & Record<B | "help", boolean>>, positionals };
  } catch (error) {
    throw new UsageError(parseArgsProblem(error, `pnpm ${name}`));
  }
}

/**
 * Runs a drift command: parses its arguments (pnpm passes a leading `--` through), then runs it,
 * and sets the exit code.
 */
export function runCommand<T>(
  name: string,
  usage: string,
  parse: (argv: readonly string[]) => T | "help",
  run: (options: T) => Promise<number>,
): void {
  const argv = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--"));
  const main = async (): Promise<number> => {
    let options: T | "help";
    try {
      options = parse(argv);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`${name}: ${error.message}\nRun pnpm ${name} --help for usage.\n`);
      return 2;
    }
    if (options === "help") {
      process.stdout.write(usage);
      return 0;
    }
    const missing = missingBundle();
    if (missing) {
      process.stderr.write(`${name}: ${missing}\n`);
      return 1;
    }
    try {
      return await run(options);
    } catch (error) {
      // Exit 2 like a usage error: a broken file must not read as a finding (exit 1) in CI.
      if (!(error instanceof InputError)) throw error;
      process.stderr.write(`${name}: ${error.message}\n`);
      return 2;
    }
  };
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
