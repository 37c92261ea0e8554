/**
 * Where the sandbox's data comes from: the built-in dataset, a data object, or a data file.
 */

import type { SandboxState } from "../domain/state.js";
import { createState } from "../domain/state.js";
import type { SandboxData } from "../domain/types.js";
import { DataFileError, DataFileReadError, SandboxOptionError } from "../errors.js";
import { readDataFile, validateDataFile } from "./data-file.js";
import { readDefaultDataset } from "./default-dataset.js";

/**
 * Dataset options of `startSandbox` (at most one of `data` and `dataFile`).
 *
 * @example
 * ```ts
 * const source: DatasetSource = { dataFile: "./my-data.json", seed: 7 };
 * ```
 */
export interface DatasetSource {
  /** The dataset itself; the built-in one when neither this nor `dataFile` is given. */
  readonly data?: SandboxData;
  /** Path of a JSON data file (format: `data/FORMAT.md` of this package). */
  readonly dataFile?: string;
  /** Seed of the question order and choices, so practice runs repeat exactly. */
  readonly seed?: number;
}

/**
 * Builds the sandbox state from the configured source.
 *
 * @example
 * ```ts
 * const { data, state } = await loadDataset({ dataFile: "./my-data.json" });
 * ```
 */
export async function loadDataset(
  source: DatasetSource,
): Promise<{ data: SandboxData; state: SandboxState }> {
  if (source.data !== undefined && source.dataFile !== undefined) {
    throw new SandboxOptionError("data, dataFile: give one of them, not both");
  }
  if (
    source.seed !== undefined &&
    !(Number.isInteger(source.seed) && source.seed >= 0 && source.seed <= 0xffffffff)
  ) {
    throw new SandboxOptionError("seed: must be an integer from 0 to 4294967295");
  }
  let data: SandboxData;
  if (source.dataFile !== undefined) {
    try {
      data = await readDataFile(source.dataFile);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new DataFileReadError(`data file ${source.dataFile}: not found`);
      if (code === "EACCES") throw new DataFileReadError(`data file ${source.dataFile}: permission denied`);
      if (code === "EISDIR") throw new DataFileReadError(`data file ${source.dataFile}: is a directory`);
      throw error;
    }
  } else if (source.data !== undefined) {
    const checked = validateDataFile(source.data);
    if (!checked.ok) throw new DataFileError(checked.problems, "given as the data option");
    data = checked.data;
  } else {
    data = await readDefaultDataset();
  }
  const state = createState(data, source.seed === undefined ? {} : { seed: source.seed });
  return { data, state };
}
