import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scratchDirForAll, scratchDirForEach } from "../src/scratch-hooks.js";

describe("scratchDirForEach", () => {
  const dir = scratchDirForEach("drill-tooling-each-");
  const seen: string[] = [];

  it("gives a test its own folder, named by the prefix", () => {
    seen.push(dir());
    expect(basename(dir())).toMatch(/^drill-tooling-each-/);
    expect(existsSync(dir())).toBe(true);
  });

  it("gives the next test another folder, the previous one removed", () => {
    seen.push(dir());
    expect(seen[1]).not.toBe(seen[0]);
    expect(existsSync(seen[0] as string)).toBe(false);
  });

  afterAll(() => {
    expect(existsSync(seen[1] as string)).toBe(false);
  });
});

describe("scratchDirForAll", () => {
  const dir = scratchDirForAll("drill-tooling-all-");
  const seen: string[] = [];

  it("keeps one folder for every test of the block", () => {
    seen.push(dir());
    expect(existsSync(dir())).toBe(true);
  });

  it("the same folder in the next test", () => {
    expect(dir()).toBe(seen[0]);
  });
});

describe("in a given parent folder", () => {
  const parent = mkdtempSync(join(tmpdir(), "drill-tooling-parent-"));
  afterAll(() => {
    // Registered first, so it runs after the folders' own hooks have removed them.
    const left = readdirSync(parent);
    rmSync(parent, { recursive: true, force: true });
    expect(left).toEqual([]);
  });
  const all = scratchDirForAll("drill-tooling-in-all-", parent);
  const each = scratchDirForEach("drill-tooling-in-each-", parent);

  it("makes both kinds of folder there", () => {
    expect(dirname(all())).toBe(parent);
    expect(dirname(each())).toBe(parent);
    expect(existsSync(each())).toBe(true);
  });
});

describe("before its tests run", () => {
  const dir = scratchDirForAll("drill-tooling-early-");
  let early: unknown;
  try {
    dir();
  } catch (error) {
    early = error;
  }

  it("the folder is refused by its prefix (it is made by the block's hook)", () => {
    expect(String(early)).toContain(
      "the drill-tooling-early-… scratch folder exists only while its tests run",
    );
  });
});
