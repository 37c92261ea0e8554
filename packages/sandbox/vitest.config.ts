import { defineConfig } from "vitest/config";

/**
 * The flow tests: what a client of the service does (token exchange, discovery, search, practice,
 * programmed responses, faults, request validation). They run once per door: over HTTP against
 * `startSandbox`, and in process against `createSandbox` (see `DOOR` in test/support/helpers.ts).
 * A test file is one by its name, `*.flow.test.ts`, in whichever folder of test/ mirrors the `src`
 * folder it tests: a new one runs through both doors without a list to remember.
 */
const FLOW_TESTS = ["test/**/*.flow.test.ts"];

export default defineConfig({
  test: {
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
    // In CI, files and tests run in a random order (the seed is printed) so no test can lean on another.
    sequence: { shuffle: Boolean(process.env.CI) },
    // RSA key generation, spawned CLIs and servers are slow on a busy 2-core CI machine;
    // a test that hangs still fails, after 30 s instead of 5.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "sandbox", include: ["test/**/*.test.ts"], provide: { door: "http" } } },
      {
        extends: true,
        test: { name: "sandbox in-process", include: FLOW_TESTS, provide: { door: "in-process" } },
      },
    ],
  },
});
