/**
 * Data files (`--data <file.json>`, format in `data/FORMAT.md`): parsing, checking and reading them
 * into sandbox data.
 */

import { oneLineMessage } from "@drill-practice/client/internal";
import type { SandboxData } from "../domain/types.js";
import { DataFileError } from "../errors.js";
import type { DataFileValidation } from "./data-file-checker.js";
import { DATA_FILE_SECTIONS, DataFileChecker } from "./data-file-checker.js";

export type { DataFileValidation } from "./data-file-checker.js";
export { DATA_FILE_FORMAT_VERSION } from "./data-file-checker.js";

/**
 * Checks a parsed data file and converts it into sandbox data. Reports every problem at once, each
 * with the JSON path of the offending value. Besides the shape of each entry it checks that IDs are
 * unique (drills and courses share one ID space), that no email address or third-party ID names two
 * users, and that every reference points at something that exists. The format is described in
 * `data/FORMAT.md`.
 */
export function validateDataFile(value: unknown): DataFileValidation {
  const checker = new DataFileChecker();
  if (checker.root(value)) {
    const root = value as Record<string, unknown>;
    for (const section of DATA_FILE_SECTIONS) {
      if (root[section] !== undefined) checker.section(section, root[section]);
    }
  }
  return checker.finish();
}

/**
 * Parses and validates the text of a data file. Web APIs only (reading the file is `data-file-read.ts`).
 *
 * Errors: {@link DataFileError} listing every problem (including invalid JSON).
 */
export function parseDataFile(text: string, source?: string): SandboxData {
  return checkedData(validateDataFile(parseJson(text, source)), source);
}

function parseJson(text: string, source: string | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DataFileError([{ path: "$", message: `is not valid JSON: ${oneLineMessage(error)}` }], source);
  }
}

/**
 * The data of a checked file, or the {@link DataFileError} listing its problems.
 */
export function checkedData(result: DataFileValidation, source: string | undefined): SandboxData {
  if (!result.ok) throw new DataFileError(result.problems, source);
  return result.data;
}
