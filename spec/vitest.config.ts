import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "spec",
    include: ["test/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
    // In CI, files and tests run in a random order (the seed is printed) so no test can lean on another.
    sequence: { shuffle: Boolean(process.env.CI) },
    // RSA key generation, spawned CLIs and servers are slow on a busy 2-core CI machine;
    // a test that hangs still fails, after 30 s instead of 5.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
