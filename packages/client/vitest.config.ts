import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "client",
    include: ["test/**/*.test.ts"],
    // Type-level tests: a failing expectTypeOf or an unused @ts-expect-error fails `vitest run`.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    reporters: ["default", ["json", { outputFile: ".reports/vitest.json" }]],
  },
});
