/**
 * Data files for the sandbox benchmarks: the generated 100,000-drill dataset written once to a
 * temporary file, so the sandbox starts from it the way a user's `--data` start does.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateLargeDataset } from "../packages/sandbox/scripts/dataset/large-dataset.ts";
import { DEFAULT_DATA_FILE_URL } from "../packages/sandbox/src/data/data-file-read.ts";

/**
 * Writes `generateLargeDataset(drills)` as a data file; `remove()` deletes it.
 *
 * @example
 * ```ts
 * import { startSandbox } from "@drill-practice/sandbox";
 * import { writeLargeDataFile } from "./sandbox-data.ts";
 *
 * const file = await writeLargeDataFile(100_000);
 * try {
 *   const sandbox = await startSandbox({ port: 0, dataFile: file.path });
 *   await sandbox.close();
 * } finally {
 *   await file.remove();
 * }
 * ```
 */
export async function writeLargeDataFile(drills: number): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "drill-bench-data-"));
  const path = join(dir, "large.json");
  await writeFile(path, JSON.stringify({ formatVersion: 1, ...generateLargeDataset(drills) }));
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * How many drills the default dataset holds.
 *
 * @example
 * ```ts
 * import { defaultDrillCount } from "./sandbox-data.ts";
 *
 * const drills = await defaultDrillCount(); // 300
 * ```
 */
export async function defaultDrillCount(): Promise<number> {
  return (JSON.parse(await readFile(DEFAULT_DATA_FILE_URL, "utf8")) as { drills: unknown[] }).drills.length;
}
