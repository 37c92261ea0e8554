/**
 * The default dataset is a data file shipped with the package (`data/default.json`, written by
 * `scripts/default-data-write.ts`), read through the same loader as a user's `--data` file.
 */
import { fileURLToPath } from "node:url";
import type { SandboxData } from "../domain/types.js";
import { readDataFile } from "./data-file.js";

/**
 * Where the default data file lives, relative to this module; the same relative location holds for
 * `src/` (tests) and `dist/` (the published package).
 *
 * @example
 * ```ts
 * const data = await readDataFile(fileURLToPath(DEFAULT_DATA_FILE_URL));
 * ```
 */
export const DEFAULT_DATA_FILE_URL = new URL("../../data/default.json", import.meta.url);

/**
 * Reads and checks the default dataset.
 *
 * @example
 * ```ts
 * const data = await readDefaultDataset();
 * data.drills.length; // 300
 * ```
 */
export function readDefaultDataset(): Promise<SandboxData> {
  return readDataFile(fileURLToPath(DEFAULT_DATA_FILE_URL));
}
