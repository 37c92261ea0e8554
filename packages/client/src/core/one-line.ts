/**
 * Error messages written on one line. V8 quotes an excerpt of the text in a `JSON.parse` error as it
 * is, so a file's line break would split the message (and the one-problem-per-line lists of the
 * sandbox's data and responses files, or `drift:check`'s one-line refusals).
 */

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * The message of an error (or any thrown value) with its control characters written as JSON escapes.
 *
 * @example
 * ```ts
 * import { oneLineMessage } from "@drill-practice/client/internal";
 *
 * try {
 *   JSON.parse('{"a":\n1,}');
 * } catch (error) {
 *   oneLineMessage(error); // the parser's message, its quoted excerpt's line break written as \n
 * }
 * ```
 */
export function oneLineMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let line = "";
  for (const c of message) {
    const code = c.charCodeAt(0);
    const control = code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
    line += control ? (NAMED[c] ?? `\\u${code.toString(16).padStart(4, "0")}`) : c;
  }
  return line;
}
