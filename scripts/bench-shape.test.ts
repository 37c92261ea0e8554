/**
 * Keeps the bench in proportion (issue #35): a ceiling on all of bench/'s source and no function
 * over 80 lines, counted with the TypeScript compiler's own parse of every file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { functionSpans } from "./function-spans.ts";

const BENCH = fileURLToPath(new URL("../bench/", import.meta.url));
/**
 * Issue #35 aims at 2,500; this is where the fifth cut left the bench (drift coverage, a count, is
 * a test now): lower it as the bench shrinks.
 */
const MAX_TOTAL_LINES = 2700;
const MAX_FUNCTION_LINES = 80;

/** The consumer projects typecheck-cost hands to `tsc`: inputs it measures, not code of the bench. */
const CONSUMER_FIXTURES = /^typecheck-consumers[\\/]/;

const sources = readdirSync(BENCH, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.(?:ts|mts|mjs)$/.test(file) && !CONSUMER_FIXTURES.test(file))
  .sort()
  .map((file) => ({ file, text: readFileSync(join(BENCH, file), "utf8") }));

/** Lines as `wc -l` counts them. */
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("the bench's size", () => {
  it(`stays under ${MAX_TOTAL_LINES.toLocaleString("en-US")} lines of source`, () => {
    const total = sources.reduce((sum, { text }) => sum + lineCount(text), 0);
    expect(sources.length).toBeGreaterThan(10);
    expect(total, sources.map(({ file, text }) => `${file} ${lineCount(text)}`).join("\n")).toBeLessThan(
      MAX_TOTAL_LINES,
    );
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const spans = sources.flatMap(({ file, text }) => functionSpans(file, text, `bench/${file}`));
    expect(spans.length).toBeGreaterThan(50);
    const long = spans.filter((span) => span.lines > MAX_FUNCTION_LINES);
    expect(long.map((span) => `${span.where}: ${span.lines} lines`)).toEqual([]);
  });
});
