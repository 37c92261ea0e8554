import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "runtime-matrix",
    include: ["test/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
    // One runtime at a time: each starts its own sandbox and a whole runtime process on a
    // 2-core machine; every case has its own bounded deadline inside this one.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
