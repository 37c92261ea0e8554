/**
 * Reading a data file from disk (`--data <file.json>`): the Node-only part of data files.
 */
import { readFile } from "node:fs/promises";
import type { SandboxData } from "../domain/types.js";
import type { DataFileValidation } from "./data-file.js";
import { checkedData, parseDataFile } from "./data-file.js";
import { streamDataFile } from "./data-file-stream.js";
import { JsonScanError } from "./json-top-level-scanner.js";

/**
 * Where the default data file lives, relative to this module; the same relative location holds for
 * `src/` (tests) and `dist/` (the published package).
 */
export const DEFAULT_DATA_FILE_URL = new URL("../../data/default.json", import.meta.url);

/**
 * Reads, parses and validates a data file (`--data <file.json>`). The file is checked record by record
 * as it is read, so a large file never sits in memory whole.
 *
 * Errors: {@link DataFileError}; file system errors (such as a missing file) are passed on unchanged.
 */
export async function readDataFile(path: string): Promise<SandboxData> {
  let result: DataFileValidation;
  try {
    result = await streamDataFile(path);
  } catch (error) {
    if (!(error instanceof JsonScanError)) throw error;
    // What the scanner leaves alone (malformed JSON, a top level that is not an object, a repeated
    // top-level name) goes through JSON.parse whole, as every file once did: the same message for
    // invalid JSON, the last of repeated names winning. Such files are rarely large.
    return parseDataFile(await readFile(path, "utf8"), path);
  }
  return checkedData(result, path);
}
