/**
 * Why `JSON.parse` refused a file, on one line. V8 quotes an excerpt of the text as it is, so a
 * file's line break would split the message (and the one-problem-per-line lists of the data and
 * responses files): control characters in it are written as JSON escapes instead.
 */
export function jsonSyntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  let line = "";
  for (const c of message) {
    const code = c.charCodeAt(0);
    const control = code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
    line += control ? (named[c] ?? `\\u${code.toString(16).padStart(4, "0")}`) : c;
  }
  return line;
}
