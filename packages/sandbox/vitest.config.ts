import { defineConfig } from "vitest/config";

/**
 * The flow tests: what a client of the service does (token exchange, discovery, search, practice,
 * programmed responses, faults, request validation). They run once per door: over HTTP against
 * `startSandbox`, and in process against `createSandbox` (see `DOOR` in test/helpers.ts).
 */
const FLOW_TESTS = [
  "test/bearer-auth.test.ts",
  "test/faults.test.ts",
  "test/groups.test.ts",
  "test/tests.test.ts",
  "test/objectives.test.ts",
  "test/devices.test.ts",
  "test/practice.test.ts",
  "test/replays.test.ts",
  "test/request-validation.test.ts",
  "test/response-validation.test.ts",
  "test/responses.test.ts",
  "test/store-search.test.ts",
  "test/token-exchange.test.ts",
];

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
