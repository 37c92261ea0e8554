/**
 * Where `startSandbox`'s data comes from: the built-in dataset, a data object, or a data file read from
 * disk (the Node-only part; the rest is {@link resolveDataset}).
 */

import type { SandboxState } from "../domain/state.js";
import type { SandboxData } from "../domain/types.js";
import { DataFileReadError, SandboxOptionError } from "../errors.js";
import { readDataFile } from "./data-file-read.js";
import type { DatasetSource } from "./dataset.js";
import { checkSeed, resolveDataset } from "./dataset.js";

/**
 * Reads the data file of a source (`undefined` when it names none), after checking the options that
 * go with it.
 */
export async function readDatasetFile(source: DatasetSource): Promise<SandboxData | undefined> {
  if (source.data !== undefined && source.dataFile !== undefined) {
    throw new SandboxOptionError("data, dataFile: give one of them, not both");
  }
  if (source.dataFile === undefined) return undefined;
  checkSeed(source.seed);
  try {
    return await readDataFile(source.dataFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new DataFileReadError(`data file ${source.dataFile}: not found`);
    if (code === "EACCES") throw new DataFileReadError(`data file ${source.dataFile}: permission denied`);
    if (code === "EISDIR") throw new DataFileReadError(`data file ${source.dataFile}: is a directory`);
    throw error;
  }
}

/**
 * Builds the sandbox state from the configured source, reading `dataFile` when given.
 */
export async function loadDataset(
  source: DatasetSource,
): Promise<{ data: SandboxData; state: SandboxState }> {
  return resolveDataset(source, await readDatasetFile(source));
}
