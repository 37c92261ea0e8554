/**
 * Scratch folders in a vitest file, made and removed by the file's own hooks, so a test file states
 * only which folder it wants and when it is renewed (kept apart from `scratch.ts`, which scripts
 * import without vitest).
 *
 * @example
 * ```ts
 * import { existsSync } from "node:fs";
 * import { expect, it } from "vitest";
 * import { scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
 *
 * const dir = scratchDirForEach("drill-example-");
 * it("has its folder while it runs", () => {
 *   expect(existsSync(dir())).toBe(true);
 * });
 * ```
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { scratchDirs } from "./scratch.js";

function hooked(
  prefix: string,
  parent: string | undefined,
  make: typeof beforeAll,
  remove: typeof afterAll,
): () => string {
  const dirs = scratchDirs(prefix, parent);
  let current: string | undefined;
  make(async () => {
    current = await dirs.make();
  });
  remove(async () => {
    current = undefined;
    await dirs.removeAll();
  });
  return () => {
    if (current === undefined)
      throw new Error(`the ${prefix}… scratch folder exists only while its tests run`);
    return current;
  };
}

/**
 * One scratch folder for every test of the file (or of the `describe` it is called in): made before
 * the first, removed after the last. The function answers the folder. It goes in the system's
 * temporary folder, or in `parent` when given (for files that must resolve imports from their place).
 *
 * @example
 * ```ts
 * import { writeFile } from "node:fs/promises";
 * import { join } from "node:path";
 * import { it } from "vitest";
 * import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
 *
 * const dir = scratchDirForAll("drill-example-");
 * it("writes a file", async () => {
 *   await writeFile(join(dir(), "a.txt"), "a");
 * });
 * ```
 */
export function scratchDirForAll(prefix: string, parent?: string): () => string {
  return hooked(prefix, parent, beforeAll, afterAll);
}

/**
 * A fresh scratch folder for each test of the file (or of the `describe` it is called in), removed
 * after it. The function answers the current test's folder. It goes in the system's temporary
 * folder, or in `parent` when given.
 *
 * @example
 * ```ts
 * import { readdir } from "node:fs/promises";
 * import { expect, it } from "vitest";
 * import { scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
 *
 * const dir = scratchDirForEach("drill-example-");
 * it("starts empty", async () => {
 *   expect(await readdir(dir())).toEqual([]);
 * });
 * ```
 */
export function scratchDirForEach(prefix: string, parent?: string): () => string {
  return hooked(prefix, parent, beforeEach, afterEach);
}
