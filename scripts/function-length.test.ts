/**
 * No hand-written function of a package's source runs over 80 lines (issue #48): a long function is
 * split by what it does. Generated modules and declaration files are not hand-written.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { functionSpans } from "./function-spans.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MAX_FUNCTION_LINES = 80;

const files = execFileSync("git", ["ls-files", "packages/*/src/**.ts", "packages/*/src/*.ts"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file !== "" && !file.includes("/generated/") && !file.endsWith(".d.ts"));

describe("the packages' source", () => {
  it(`has no hand-written function over ${MAX_FUNCTION_LINES} lines`, () => {
    const spans = files.flatMap((file) => functionSpans(file, readFileSync(`${ROOT}/${file}`, "utf8")));
    expect(files.length).toBeGreaterThan(100);
    expect(spans.length).toBeGreaterThan(1000);
    const long = spans.filter((span) => span.lines > MAX_FUNCTION_LINES);
    expect(long.map((span) => `${span.where}: ${span.lines} lines`)).toEqual([]);
  });
});
