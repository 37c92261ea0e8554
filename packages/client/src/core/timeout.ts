/**
 * The `timeoutMs` option, checked the same way in both packages.
 */
import { DrillInvalidOptionError } from "./errors.js";
import { DEFAULT_TIMEOUT_MS } from "./retry.js";

// setTimeout cannot wait longer than this.
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Checks a `timeoutMs` option: milliseconds above 0, or `false` for none;
 * `undefined` gives {@link DEFAULT_TIMEOUT_MS}.
 *
 * @example
 * ```ts
 * import { validateTimeout } from "@drill-practice/client/internal";
 *
 * validateTimeout(undefined); // 30000
 * validateTimeout(false); // false
 * ```
 */
export function validateTimeout(value: unknown): number | false {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (value === false) return false;
  // NaN fails the range check too.
  if (typeof value !== "number" || !(value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw new DrillInvalidOptionError(
      "timeoutMs",
      `expected milliseconds above 0 and at most ${MAX_TIMEOUT_MS}, or false`,
    );
  }
  return value;
}
