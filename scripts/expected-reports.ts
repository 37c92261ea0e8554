/**
 * The reports `pnpm test` must leave behind, relative to the repository root: one
 * per task that `//#test:summary` depends on in turbo.json. A missing one means
 * its task did not run, which the summary counts as a failure.
 *
 * @example
 * ```ts
 * import { EXPECTED_REPORTS } from "./expected-reports.js";
 * EXPECTED_REPORTS.includes("packages/client/.reports/vitest.json"); // true
 * ```
 */
export const EXPECTED_REPORTS: readonly string[] = [
  ".reports/biome.json",
  ".reports/typecheck.json",
  ".reports/vitest.json",
  ".reports/knip.json",
  ".reports/spec-diff.json",
  "spec/.reports/spec-lint.json",
  "spec/.reports/typecheck.json",
  "spec/.reports/vitest.json",
  "packages/client/.reports/drift.json",
  "packages/client/.reports/typecheck.json",
  "packages/client/.reports/vitest.json",
  "packages/client/.reports/package.json",
  "packages/auth/.reports/typecheck.json",
  "packages/auth/.reports/vitest.json",
  "packages/auth/.reports/package.json",
  "packages/sandbox/.reports/typecheck.json",
  "packages/sandbox/.reports/vitest.json",
  "packages/sandbox/.reports/package.json",
  "packages/docs/.reports/typecheck.json",
  "packages/docs/.reports/vitest.json",
  "packages/runtime-matrix/.reports/typecheck.json",
  "packages/runtime-matrix/.reports/vitest.json",
];
