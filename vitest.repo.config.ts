import { defineProject } from "vitest/config";

/** Tests of the repository itself: examples and scripts. */
export default defineProject({
  test: {
    name: "repo",
    include: ["examples/**/*.test.ts", "scripts/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
  },
});
