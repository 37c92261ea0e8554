/**
 * What `pnpm drift:record` and `pnpm drift:check` share as commands: usage errors (exit 2 with a
 * hint), unusable input (exit 2, one line), `--help`, the bundle they need (exit 1 when missing)
 * and one line for any other failure.
 */
import { InputError } from "./recording-input.ts";
import { missingBundle } from "./redocly.ts";

/** A wrong use of the command's arguments: reported with the usage hint, exit 2. */
export class UsageError extends Error {}

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
