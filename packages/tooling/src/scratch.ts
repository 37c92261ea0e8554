/**
 * Scratch folders under the system's temporary folder, each removed with everything in it when
 * its user is done, whether the work succeeded or threw.
 *
 * @example
 * ```ts
 * import { readdir, writeFile } from "node:fs/promises";
 * import { join } from "node:path";
 * import { withScratchDir } from "@drill-practice/tooling/scratch";
 *
 * const names = await withScratchDir("drill-example-", async (dir) => {
 *   await writeFile(join(dir, "a.txt"), "a");
 *   return readdir(dir);
 * }); // ["a.txt"], and the folder is gone
 * ```
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Makes a fresh folder whose name starts with `prefix` (`drill-<what>-`), in the system's
 * temporary folder or in `parent` (for files that must resolve imports from their place).
 *
 * @example
 * ```ts
 * import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
 *
 * const dir = await makeScratchDir("drill-example-");
 * try {
 *   console.log(dir);
 * } finally {
 *   await removeScratchDir(dir);
 * }
 * ```
 */
export function makeScratchDir(prefix: string, parent: string = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, prefix));
}

/**
 * Removes a scratch folder and its contents; one already gone (or never made) is no error.
 *
 * @example
 * ```ts
 * import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
 *
 * let dir: string | undefined;
 * try {
 *   dir = await makeScratchDir("drill-example-");
 * } finally {
 *   await removeScratchDir(dir); // also when the folder was never made
 * }
 * ```
 */
export async function removeScratchDir(dir: string | undefined): Promise<void> {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}

/**
 * Runs `work` in a fresh scratch folder and removes the folder afterwards, also when `work` throws.
 *
 * @example
 * ```ts
 * import { writeFile } from "node:fs/promises";
 * import { join } from "node:path";
 * import { withScratchDir } from "@drill-practice/tooling/scratch";
 *
 * await withScratchDir("drill-example-", (dir) => writeFile(join(dir, "note.txt"), "gone afterwards"));
 * ```
 */
export async function withScratchDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeScratchDir(prefix);
  try {
    return await work(dir);
  } finally {
    await removeScratchDir(dir);
  }
}

/**
 * The folders one test file made, removed together by `removeAll` (in `afterEach` or `afterAll`).
 *
 * @example
 * ```ts
 * import { type ScratchDirs, scratchDirs } from "@drill-practice/tooling/scratch";
 *
 * const scratch: ScratchDirs = scratchDirs("drill-example-");
 * const [input, output] = [await scratch.make(), await scratch.make()];
 * console.log(input, output);
 * await scratch.removeAll();
 * ```
 */
export interface ScratchDirs {
  make(): Promise<string>;
  removeAll(): Promise<void>;
}

/**
 * Scratch folders for a test file: `make` in a `before…` hook or a test, one `removeAll` in the
 * matching `after…` hook, so no test has to remember its own clean-up. They go in the system's
 * temporary folder, or in `parent` when given.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach } from "vitest";
 * import { scratchDirs } from "@drill-practice/tooling/scratch";
 *
 * const scratch = scratchDirs("drill-example-");
 * let dir: string;
 * beforeEach(async () => {
 *   dir = await scratch.make();
 * });
 * afterEach(() => scratch.removeAll());
 * ```
 */
export function scratchDirs(prefix: string, parent?: string): ScratchDirs {
  const made: string[] = [];
  return {
    async make() {
      const dir = await makeScratchDir(prefix, parent);
      made.push(dir);
      return dir;
    },
    async removeAll() {
      for (const dir of made.splice(0)) await removeScratchDir(dir);
    },
  };
}
