/**
 * Reading a `--responses` file. Kept apart from the rule checks so that those stay free of file I/O.
 */
import { readFile } from "node:fs/promises";
import { ResponseRulesError, SandboxOptionError } from "../errors.js";

/**
 * Reads and parses a responses file; the rules themselves are checked by `loadResponseRules`.
 *
 * @example
 * ```ts
 * const parsed = await readResponsesFile("./responses.json");
 * ```
 */
export async function readResponsesFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new SandboxOptionError(`responsesFile: cannot read ${path} (${(error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ResponseRulesError(
      [{ path: "$", message: `is not valid JSON (${(error as Error).message})` }],
      path,
    );
  }
}
