import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The tests Stryker runs against each mutant: the in-process unit tests of the
 * packages whose modules are measured. Tests that spawn programs, drive a browser
 * or load a built `dist/` are left out: they never see a mutant (they run the
 * built code) and would only slow every run down.
 */
const packageDir = (name: string) => fileURLToPath(new URL(`../../packages/${name}/`, import.meta.url));

const slow = {
  client: ["browser", "consumer", "examples", "generate", "runtime-neutral", "version"],
  auth: ["cli", "package", "readme", "runtime"],
  sandbox: ["cli", "operations", "package-files", "credentials", "domain/speed", "domain/concurrency"],
};

export default defineConfig({
  test: {
    projects: Object.entries(slow).map(([name, excluded]) => ({
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
