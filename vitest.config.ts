import { defineConfig } from "vitest/config";

// `pnpm vitest` at the root runs every project at once (handy in an editor);
// `pnpm test` runs each project through turbo so that unchanged ones are cached.
export default defineConfig({
  test: {
    projects: ["spec", "packages/*", "vitest.repo.config.ts"],
  },
});
