import { existsSync } from "node:fs";
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
};
/**
 * The sandbox's measured modules (assertion verification, request validation, store search) each have
 * tests of their own; its other suites also pass through them (every request is validated, every
 * start builds the search index) but each starts a server and drives whole flows, which made a run
 * take hours on two cores. Only these run against the sandbox's mutants.
 */
const focused: Record<string, string[]> = {
  sandbox: [
    "oauth/assertion-verification",
    "oauth/token-exchange.flow",
    "http/bearer-auth.flow",
    "http/request-validation.flow",
    "http/request-validation-rules",
    "http/form-fields",
    "http/router",
    "resources/store.flow",
    "domain/*",
  ],
};
// A moved or renamed test file would silently drop out of (or into) the run and change the scores of
// the modules it covers: every named file must exist.
for (const [name, files] of [...Object.entries(focused), ...Object.entries(slow)]) {
  for (const file of files.filter((entry) => !entry.includes("*"))) {
    const path = `${packageDir(name)}test/${file}.test.ts`;
    if (!existsSync(path)) throw new Error(`scripts/mutation/vitest.config.ts: ${path} does not exist`);
  }
}
const only = process.env.DRILL_MUTATION_PACKAGE;

export default defineConfig({
  test: {
    projects: ["client", "auth", "sandbox"]
      .filter((name) => only === undefined || name === only)
      .map((name) => ({
        test: {
          name,
          root: packageDir(name),
          include: focused[name]?.map((file) => `test/${file}.test.ts`) ?? ["test/**/*.test.ts"],
          exclude: (slow[name] ?? []).map((file) => `test/${file}.test.ts`),
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
  },
});
