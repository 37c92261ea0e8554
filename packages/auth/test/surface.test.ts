/**
 * The main entry is what the README documents: every value it exports is
 * named in the README, and there are at most 30 of them.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import * as entry from "../src/index.js";

describe("the @drill-practice/auth entry", () => {
  it("exports at most 30 values, each named in the README", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const names = Object.keys(entry);
    expect(names.length).toBeLessThanOrEqual(30);
    const undocumented = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
    expect(undocumented).toEqual([]);
  });

  it("leaves the drill-token usage error to the CLI", () => {
    expect(Object.keys(entry)).not.toContain("CliUsageError");
  });
});
