import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { USER_AGENT, VERSION } from "../src/index.js";

describe("version", () => {
  it("VERSION equals the version in package.json", async () => {
    const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(manifest.version);
    expect(USER_AGENT).toBe(`drill-practice-sdk/${manifest.version}`);
  });
});
