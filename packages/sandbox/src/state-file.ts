/**
 * `drill-sandbox --state <file>`: the state kept in a data file across runs. Node only.
 */
import { rename, stat, writeFile } from "node:fs/promises";
import { DATA_FILE_FORMAT_VERSION } from "./data/data-file.js";
import type { SandboxData } from "./domain/types.js";

/**
 * Whether a state file is there to start from; a missing one is not an error (the first run makes
 * it on exit), but something other than a file at that path is refused by the data file reader.
 *
 * @example
 * ```ts
 * import { stateFileExists } from "./state-file.js";
 *
 * const dataFile = (await stateFileExists("./sandbox-state.json")) ? "./sandbox-state.json" : undefined;
 * ```
 */
export async function stateFileExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * Writes a snapshot as a data file: to a file beside it first, then renamed over it, so a run stopped
 * while writing leaves the previous state whole rather than half a file.
 *
 * @example
 * ```ts
 * import { startSandbox } from "./sandbox.js";
 * import { writeStateFile } from "./state-file.js";
 *
 * const sandbox = await startSandbox();
 * await sandbox.close();
 * await writeStateFile("./sandbox-state.json", sandbox.snapshot());
 * ```
 */
export async function writeStateFile(path: string, data: SandboxData): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  // Indented as the built-in data file is, so a state kept in a repository diffs line by line.
  await writeFile(
    partial,
    `${JSON.stringify({ formatVersion: DATA_FILE_FORMAT_VERSION, ...data }, null, 1)}\n`,
  );
  await rename(partial, path);
}
