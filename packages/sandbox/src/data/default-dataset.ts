/**
 * The default dataset: the data file shipped with the package (`data/default.json`, written by
 * `scripts/default-data-write.ts`), loaded as a module (the `generate` step embeds it in
 * `src/generated/default-data.ts`) so that no runtime needs a file system for it, and checked by the
 * same checker as a user's data.
 */
import type { SandboxData } from "../domain/types.js";
import { DataFileError } from "../errors.js";
import { DEFAULT_DATA_TEXT } from "../generated/default-data.js";
import { validateDataFile } from "./data-file.js";

let checked: SandboxData | undefined;

/**
 * The default dataset, parsed and checked once per process (nothing changes it: state is built beside
 * it, never in it).
 */
export async function defaultDataset(): Promise<SandboxData> {
  if (checked === undefined) {
    const result = validateDataFile(JSON.parse(DEFAULT_DATA_TEXT));
    if (!result.ok) throw new DataFileError(result.problems, "the built-in dataset");
    checked = result.data;
  }
  return checked;
}
