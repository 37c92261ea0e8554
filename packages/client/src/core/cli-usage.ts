/**
 * The one wording of command-line mistakes that `node:util`'s `parseArgs` reports, shared by the
 * published commands (`drill-token`, `drill-sandbox`) and the repository's own (`pnpm drift:*`):
 * the flag by its name, no Node.js jargon, and never the value given (it could be a secret).
 */

// "Option '-h, --help <value>' argument missing" names the long flag after the short one.
const FLAG = /'(?:-[^-'], )?(-{1,2}[^'=\s]*)/;

/**
 * The message for a `parseArgs` error, in the commands' own words; `command` names the command in
 * the positional-argument message.
 *
 * @example
 * ```ts
 * import { parseArgsProblem } from "@drill-practice/client/internal";
 *
 * // What `parseArgs` from node:util throws for `--port` without a value:
 * const error = Object.assign(new TypeError("Option '--port <value>' argument missing"), {
 *   code: "ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
 * });
 * parseArgsProblem(error, "drill-sandbox"); // "--port needs a value"
 * ```
 */
export function parseArgsProblem(error: unknown, command: string): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  const flag = FLAG.exec(text)?.[1] ?? "an option";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${flag}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `${command} takes no positional arguments`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return `${flag} needs a value`;
    default:
      return "invalid arguments";
  }
}
