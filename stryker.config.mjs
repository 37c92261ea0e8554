// @ts-check
/**
 * Mutation testing (`pnpm mutation`): Stryker mutates the modules listed in
 * scripts/mutation/modules.json and runs the unit tests of
 * scripts/mutation/vitest.config.ts against each mutant. It is a measurement,
 * not part of `pnpm test`. scripts/mutation/run.ts calls it once per package
 * (DRILL_MUTATION_PACKAGE), merges the reports and writes MUTATION.md.
 */
import { readFileSync } from "node:fs";

/** @type {{ modules: { name: string, files: string[], measure: boolean }[] }} */
const { modules } = JSON.parse(
  readFileSync(new URL("./scripts/mutation/modules.json", import.meta.url), "utf8"),
);

// One package per run: its own tests only, its own incremental file, so a run's results are kept
// even when a later package's run is stopped.
const only = process.env.DRILL_MUTATION_PACKAGE;
const group = only ?? "all";
const inGroup = (/** @type {string} */ file) => only === undefined || file.startsWith(`packages/${only}/`);

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  // pnpm links the runner next to the repository, not next to Stryker's core, so name it by path.
  plugins: [import.meta.resolve("@stryker-mutator/vitest-runner")],
  testRunner: "vitest",
  vitest: { configFile: "scripts/mutation/vitest.config.ts", related: true },
  coverageAnalysis: "perTest",
  // Static mutants (module-level code that runs once, on import) need every test re-run with a fresh
  // module graph, which took 99 % of the time on this 2-core machine; they are reported as Ignored and
  // counted separately in MUTATION.md instead of being scored.
  ignoreStatic: true,
  mutate: modules.filter((m) => m.measure).flatMap((m) => m.files.filter(inGroup)),
  // Only the packages and the spec they read are needed in the sandbox copy.
  ignorePatterns: [
    "/packages/docs",
    "/bench",
    "/examples",
    "/.changeset",
    "**/.turbo",
    "**/.reports",
    "/MUTATION.md",
  ],
  incremental: true,
  incrementalFile: `reports/mutation/${group}.incremental.json`,
  reporters: ["json", "progress", "clear-text"],
  jsonReporter: { fileName: `reports/mutation/${group}.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: false },
  // Two cores shared with other work: one runner per core at most (`pnpm mutation --concurrency 1`
  // on a busy machine), and generous timeouts.
  concurrency: 2,
  // A mutant that loops forever costs this long before it counts as detected; 5 s is still many
  // times the slowest related test here.
  timeoutMS: 5000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 15,
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
