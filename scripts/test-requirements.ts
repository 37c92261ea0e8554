/**
 * What the test suites do when a case needs something this machine lacks (a runtime, Chromium,
 * redis-server): locally a loud skip, under CI a failing test, since a CI image missing it is broken.
 */
import { it } from "vitest";

/**
 * True in a CI run: `CI` set to anything but "", "0" or "false".
 *
 * @example
 * ```ts
 * import { existsSync } from "node:fs";
 * import { underCI } from "./test-requirements.ts";
 *
 * const found = existsSync("/usr/bin/redis-server");
 * if (!found && !underCI) console.warn("skipped: no redis-server");
 * ```
 */
export const underCI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());

/**
 * Prints lines in a box that stands out in a long test log.
 *
 * @example
 * ```ts
 * import { warnBox } from "./test-requirements.ts";
 *
 * warnBox(["BROWSER TESTS SKIPPED: Chromium not found", "apt-get install chromium"]);
 * ```
 */
export function warnBox(lines: readonly string[]): void {
  const width = Math.max(...lines.map((line) => line.length));
  const bar = "─".repeat(width + 2);
  console.warn([`┌${bar}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${bar}┘`].join("\n"));
}

/**
 * For a case that needs what `missing` names (`undefined` when nothing is missing). Returns false
 * and declares nothing when nothing is missing. Otherwise it declares, in the enclosing `describe`,
 * one test in place of the case (failing under CI, skipped with a loud warning elsewhere) and
 * returns true, so the caller declares nothing else for it.
 *
 * @example
 * ```ts
 * import { existsSync } from "node:fs";
 * import { it } from "vitest";
 * import { declareMissing } from "./test-requirements.ts";
 *
 * const deno = "/usr/local/bin/deno";
 * const missing = existsSync(deno) ? undefined : `no ${deno}`;
 * if (!declareMissing("Deno", missing)) it("Deno: searches", async () => {});
 * ```
 */
export function declareMissing(title: string, missing: string | undefined): boolean {
  if (missing === undefined) return false;
  if (underCI) {
    it(`${title}: available (required under CI)`, () => {
      throw new Error(`${title}: not available under CI: ${missing}`);
    });
  } else {
    warnBox([`SKIPPED ${title}`, `not available here: ${missing}`, "under CI=true this fails instead"]);
    it.skip(`${title}: SKIPPED, not available here (${missing})`, () => {});
  }
  return true;
}
