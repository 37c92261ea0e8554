/**
 * Why a file cannot be checked as a recording, found before `redocly drift` sees it: Redocly
 * reports such input as an unexpected error of its own (with a stack trace), and exits 1, the
 * code `drift:check` keeps for findings.
 */
import { readFile, stat } from "node:fs/promises";
import { oneLineMessage } from "@drill-practice/client/internal";

/** Input that cannot be a recording: one line, exit 2 (findings keep exit 1). */
export class InputError extends Error {}

function kind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first field an entry lacks that every HAR entry has (HAR 1.2) and the check reads. */
function entryProblem(entry: unknown, at: string): string | undefined {
  if (!isObject(entry)) return `${at}: must be an object (got ${kind(entry)})`;
  const fields = [
    ["request", "object"],
    ["request.method", "string"],
    ["request.url", "string"],
    ["request.headers", "array"],
    ["response", "object"],
    ["response.status", "number"],
    ["response.headers", "array"],
  ] as const;
  for (const [path, type] of fields) {
    const value = path
      .split(".")
      .reduce<unknown>((parent, key) => (isObject(parent) ? parent[key] : undefined), entry);
    const ok =
      type === "array" ? Array.isArray(value) : type === "object" ? isObject(value) : typeof value === type;
    if (!ok)
      return `${at}.${path}: must be ${type === "array" || type === "object" ? "an" : "a"} ${type} (got ${value === undefined ? "nothing" : kind(value)})`;
  }
  return undefined;
}

/**
 * Reads a recording and checks that it is a HAR document with at least one exchange; resolves with
 * its text. Throws {@link InputError}: the file's path, then what is wrong with it.
 */
export async function checkableRecording(path: string): Promise<string> {
  try {
    return await readChecked(path);
  } catch (error) {
    throw error instanceof InputError ? new InputError(`${path}: ${error.message}`) : error;
  }
}

async function readChecked(path: string): Promise<string> {
  const stats = await stat(path).catch(() => undefined);
  if (stats === undefined) throw new InputError("not found");
  if (stats.isDirectory()) throw new InputError("is a directory, not a HAR file");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InputError(`cannot be read (${oneLineMessage(error)})`);
  }
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    throw new InputError(
      /Unexpected end of JSON input/.test(reason) || text.trim() === ""
        ? "is not valid JSON: it ends too early (an empty or truncated recording?)"
        : `is not valid JSON: ${oneLineMessage(error)}`,
    );
  }
  if (!isObject(har) || !isObject(har.log)) {
    throw new InputError(`is not a HAR recording: no "log" object at the top (got ${kind(har)})`);
  }
  const entries = har.log.entries;
  if (!Array.isArray(entries)) {
    throw new InputError(
      `is not a HAR recording: log.entries must be an array (got ${entries === undefined ? "nothing" : kind(entries)})`,
    );
  }
  if (entries.length === 0) throw new InputError("has no entries (log.entries is empty): nothing to check");
  for (const [index, entry] of entries.entries()) {
    const problem = entryProblem(entry, `log.entries[${index}]`);
    if (problem !== undefined) throw new InputError(`is not a HAR recording: ${problem}`);
  }
  return text;
}
