import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The tests Stryker runs against each mutant: the in-process unit tests of the
 * package being measured (DRILL_MUTATION_PACKAGE, or all three). Tests that spawn
 * programs, drive a browser, need a real redis-server, time themselves or load a
 * built `dist/` are left out: they never see a mutant (they run the built code) and would only slow
 * every run down.
 */
const packageDir = (name: string) => fileURLToPath(new URL(`../../packages/${name}/`, import.meta.url));

const slow: Record<string, string[]> = {
  client: ["browser", "consumer", "examples", "generate", "runtime-neutral", "version"],
  auth: ["cli", "package", "readme", "runtime", "redis-cli", "redis-store", "redis-token-cache"],
  sandbox: ["cli", "operations", "package-files", "credentials", "concurrency"],
};
const only = process.env.DRILL_MUTATION_PACKAGE;

export default defineConfig({
  test: {
    projects: Object.entries(slow)
      .filter(([name]) => only === undefined || name === only)
      .map(([name, excluded]) => ({
        test: {
          name,
          root: packageDir(name),
          include: ["test/**/*.test.ts"],
          exclude: excluded.map((file) => `test/${file}.test.ts`),
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
  },
});
