import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderRuntimeTable, TABLE_END, TABLE_START, withRuntimeTable } from "../src/readme-table.js";
import { pinnedVersion, RUNTIME_CASES } from "../src/runtimes.js";

const readme = await readFile(new URL("../../../README.md", import.meta.url), "utf8");

describe("the README's Supported runtimes table", () => {
  it("is the table of the matrix's cases (pnpm --filter @drill-practice/runtime-matrix readme:table)", () => {
    expect(readme).toBe(withRuntimeTable(readme));
  });

  it("names every runtime the matrix runs, with its pinned version", () => {
    const table = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END));
    for (const runtime of RUNTIME_CASES) {
      const row = table.split("\n").find((line) => line.split("|")[1]?.trim() === runtime.name);
      expect(row, runtime.name).toBeDefined();
      if (runtime.npmPackage !== undefined) expect(row).toContain(pinnedVersion(runtime.npmPackage));
    }
    expect(renderRuntimeTable().split("\n")).toHaveLength(RUNTIME_CASES.length + 2);
  });
});
