import { defineConfig } from "vitest/config";

/** Tests of the repository itself: examples, scripts and the client's size budgets (bench/). */
export default defineConfig({
  test: {
    name: "repo",
    include: ["examples/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts"],
    // These tests spawn whole programs (tsx, a sandbox, curl); a loaded CI machine needs time.
    testTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
  },
});
