/**
 * Reading a `--responses` file. Kept apart from the rule checks so that those stay free of file I/O.
 */
import { readFile } from "node:fs/promises";
import { oneLineMessage } from "@drill-practice/client/internal";
import { ResponseRulesError, SandboxOptionError } from "../errors.js";

/**
 * Reads and parses a responses file; the rules themselves are checked by `loadResponseRules`.
 */
export async function readResponsesFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    // Worded like the data file's errors, for the API option and the --responses flag alike.
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === "ENOENT"
        ? "not found"
        : code === "EACCES"
          ? "permission denied"
          : code === "EISDIR"
            ? "is a directory"
            : `cannot be read (${(error as Error).message})`;
    throw new SandboxOptionError(`responses file ${path}: ${problem}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ResponseRulesError(
      [{ path: "$", message: `is not valid JSON (${oneLineMessage(error)})` }],
      path,
    );
  }
}
