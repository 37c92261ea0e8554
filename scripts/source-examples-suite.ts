/**
 * The test suite that holds a package's doc-comment examples to its code, for packages that need
 * nothing more than that: every `@example` under the given folders is a fenced TypeScript block,
 * and all of them compile against the source with the package's own settings.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileSourceExamples, sourceExamples, unfencedExamples } from "./compile-examples.js";

/**
 * Registers the suite: the fence check, and one compilation of every example, which must find at
 * least `minimum` of them (so a broken extraction cannot pass by finding none). The scratch folder
 * under the package's `.tmp` is removed afterwards.
 *
 * @example
 * ```ts
 * import { fileURLToPath } from "node:url";
 * import { describeSourceExamples } from "./source-examples-suite.ts";
 *
 * describeSourceExamples("documentation examples of the spec's scripts", {
 *   packageDir: fileURLToPath(new URL("../spec/", import.meta.url)),
 *   folders: ["scripts"],
 *   lib: ["es2023"],
 *   tsExtensions: true,
 *   minimum: 5,
 * });
 * ```
 */
export function describeSourceExamples(
  title: string,
  options: {
    packageDir: string;
    /** Folders searched, relative to the package (`src` when absent). */
    folders?: readonly string[];
    lib: readonly string[];
    /** Set for code that imports its own modules with their `.ts` extension. */
    tsExtensions?: boolean;
    minimum: number;
  },
): void {
  const { packageDir, folders, lib, tsExtensions = false, minimum } = options;
  const scratch = join(packageDir, ".tmp", "doc-examples");
  const where = folders === undefined ? {} : { folders };

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  describe(title, () => {
    it("every @example is fenced as ts", async () => {
      expect(await sourceExamples(packageDir, where)).not.toEqual([]);
      expect(await unfencedExamples(packageDir, where)).toEqual([]);
    });

    it("every example compiles against the code it shows", async () => {
      const { examples, errors } = await compileSourceExamples({
        packageDir,
        scratch,
        lib,
        tsExtensions,
        ...where,
      });
      expect(examples.length).toBeGreaterThanOrEqual(minimum);
      expect(errors).toBe("");
    }, 300_000);
  });
}
