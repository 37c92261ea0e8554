/**
 * The sandbox's data, from what the caller gave (a data object, or data a door read from a file) or
 * the built-in dataset, turned into state. Web APIs only: reading files is the Node entry's part.
 */
import type { SandboxState } from "../domain/state.js";
import { createState } from "../domain/state.js";
import type { SandboxData } from "../domain/types.js";
import { DataFileError, SandboxOptionError } from "../errors.js";
import { validateDataFile } from "./data-file.js";
import { defaultDataset } from "./default-dataset.js";

/**
 * Dataset options of `startSandbox` and `createSandbox` (at most one of `data` and `dataFile`).
 */
export interface DatasetSource {
  /** The dataset itself; the built-in one when neither this nor `dataFile` is given. */
  readonly data?: SandboxData;
  /** Path of a JSON data file (format: `data/FORMAT.md` of this package); `startSandbox` only. */
  readonly dataFile?: string;
  /** Seed of the question order and choices, so practice runs repeat exactly. */
  readonly seed?: number;
}

/**
 * Checks the `seed` option.
 */
export function checkSeed(seed: number | undefined): void {
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) {
    throw new SandboxOptionError("seed: must be an integer from 0 to 4294967295");
  }
}

/**
 * Builds the sandbox state: from `fileData` (already read and checked by the caller), else from the
 * `data` option (checked here), else from the built-in dataset. `withData` sees the dataset before
 * the state is built from it, so work that needs only the data (the service account keys, which
 * WebCrypto makes off the main thread) can run meanwhile.
 */
export async function resolveDataset(
  source: Omit<DatasetSource, "dataFile">,
  fileData?: SandboxData,
  withData?: (data: SandboxData) => void,
): Promise<{ data: SandboxData; state: SandboxState }> {
  checkSeed(source.seed);
  let data: SandboxData;
  if (fileData !== undefined) {
    data = fileData;
  } else if (source.data !== undefined) {
    const checked = validateDataFile(source.data);
    if (!checked.ok) throw new DataFileError(checked.problems, "given as the data option");
    data = checked.data;
  } else {
    data = await defaultDataset();
  }
  withData?.(data);
  const state = createState(data, source.seed === undefined ? {} : { seed: source.seed });
  return { data, state };
}
