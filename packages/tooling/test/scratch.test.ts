import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeScratchDir, removeScratchDir, scratchDirs, withScratchDir } from "../src/scratch.js";

describe("scratch folders", () => {
  it("are fresh, named by their prefix, and removable twice", async () => {
    const dir = await makeScratchDir("drill-tooling-test-");
    expect(basename(dir)).toMatch(/^drill-tooling-test-/);
    await writeFile(join(dir, "file"), "x");
    await removeScratchDir(dir);
    expect(existsSync(dir)).toBe(false);
    await removeScratchDir(dir);
    await removeScratchDir(undefined);
  });

  it("withScratchDir removes the folder also when the work throws", async () => {
    let seen = "";
    await expect(
      withScratchDir("drill-tooling-test-", async (dir) => {
        seen = dir;
        await writeFile(join(dir, "file"), "x");
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect(seen).not.toBe("");
    expect(existsSync(seen)).toBe(false);
    expect(await withScratchDir("drill-tooling-test-", async () => 42)).toBe(42);
  });

  it("scratchDirs removes every folder it made, once", async () => {
    const scratch = scratchDirs("drill-tooling-test-");
    const made = [await scratch.make(), await scratch.make()];
    expect(new Set(made).size).toBe(2);
    await scratch.removeAll();
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
    const later = await scratch.make();
    await scratch.removeAll();
    expect(existsSync(later)).toBe(false);
  });

  it("go in the given parent folder when there is one", async () => {
    const parent = await makeScratchDir("drill-tooling-parent-");
    const scratch = scratchDirs("inner-", parent);
    try {
      const dir = await scratch.make();
      expect(dirname(dir)).toBe(parent);
      expect(basename(dir)).toMatch(/^inner-/);
      await scratch.removeAll();
      expect(existsSync(dir)).toBe(false);
      expect(existsSync(parent)).toBe(true);
    } finally {
      await removeScratchDir(parent);
    }
  });
});
