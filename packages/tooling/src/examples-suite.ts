/**
 * The one test suite that holds a package's doc-comment examples to the example rule and to its code:
 * every public export has an `@example` that uses it, every `@example` under the given folders is a
 * fenced TypeScript block, and all of them (internal ones included) compile against the source with
 * the package's own settings. Each package's example test is a call of {@link describeSourceExamples}.
 *
 * @example
 * ```ts
 * import { fileURLToPath } from "node:url";
 * import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";
 *
 * // A private package whose one shared module other folders import.
 * describeSourceExamples("documentation examples", {
 *   packageDir: fileURLToPath(new URL("..", import.meta.url)),
 *   lib: ["es2023"],
 *   shared: { "src/runtimes.ts": ["RUNTIME_CASES"] },
 *   minimum: 1,
 * });
 * ```
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  compileSourceExamples,
  type Example,
  missingExamples,
  type PublicExport,
  publicExports,
  sourceExamples,
  unfencedExamples,
  uniqueExamples,
} from "./examples.js";

/**
 * What {@link describeSourceExamples} checks, and how it compiles.
 *
 * @example
 * ```ts
 * import { fileURLToPath } from "node:url";
 * import { describeSourceExamples, type SourceExamplesOptions } from "@drill-practice/tooling/examples-suite";
 *
 * const options: SourceExamplesOptions = {
 *   packageDir: fileURLToPath(new URL("..", import.meta.url)),
 *   folders: ["src", "scripts"],
 *   lib: ["es2023", "dom"],
 *   entries: { "@drill-practice/client": "src/index.ts" },
 *   paths: { "@drill-practice/client": "src/index.ts" },
 *   minimum: 30,
 * };
 * describeSourceExamples("documentation examples", options);
 * ```
 */
export interface SourceExamplesOptions {
  packageDir: string;
  /** Folders searched, relative to the package (`src` when absent). */
  folders?: readonly string[];
  /** Whether files under a `generated` folder are searched too; default false. */
  withGenerated?: boolean;
  lib: readonly string[];
  /** Global type packages; `["node"]` when absent. */
  types?: readonly string[];
  /** Set for code that imports its own modules with their `.ts` extension. */
  tsExtensions?: boolean;
  /**
   * The package's public entries (the specifier a user imports, with the condition where one
   * applies → its source file, relative to the package): each entry's header comment and every
   * name it exports need an example that uses them.
   */
  entries?: Readonly<Record<string, string>>;
  /**
   * Modules of a private package or folder that other folders import (file, relative to the
   * package → the names they import): each of those names needs an example; the module's other
   * exports serve its own package, and its header explains it rather than shows its use.
   */
  shared?: Readonly<Record<string, readonly string[]>>;
  /** Package specifier → source file, relative to the package, for every specifier examples import. */
  paths?: Readonly<Record<string, string>>;
  /** Examples found elsewhere, compiled with the rest (e.g. a README's blocks). */
  also?: () => Promise<readonly Example[]>;
  /** The fewest examples the compilation must find, so a broken extraction cannot pass by finding none. */
  minimum: number;
}

/**
 * Registers the suite: the fence check, the example rule for the public exports (where `entries` or
 * `shared` name them), and one compilation of every example. The scratch folder under the package's
 * `.tmp` is removed afterwards.
 *
 * @example
 * ```ts
 * import { fileURLToPath } from "node:url";
 * import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";
 *
 * describeSourceExamples("documentation examples", {
 *   packageDir: fileURLToPath(new URL("..", import.meta.url)),
 *   lib: ["es2023", "dom"],
 *   entries: { "@drill-practice/auth": "src/index.ts" },
 *   paths: { "@drill-practice/auth": "src/index.ts" },
 *   minimum: 20,
 * });
 * ```
 */
export function describeSourceExamples(title: string, options: SourceExamplesOptions): void {
  const { packageDir, folders, withGenerated, lib, types, tsExtensions = false, minimum } = options;
  const { entries = {}, shared = {}, paths = {}, also } = options;
  const scratch = join(packageDir, ".tmp", "doc-examples");
  const where = {
    ...(folders === undefined ? {} : { folders }),
    ...(withGenerated ? { withGenerated } : {}),
  };
  const exported: PublicExport[] = [
    ...(Object.keys(entries).length > 0 ? publicExports({ packageDir, entries, paths }) : []),
    ...(Object.keys(shared).length > 0
      ? publicExports({
          packageDir,
          entries: Object.fromEntries(Object.keys(shared).map((file) => [file, file])),
          paths,
        }).filter(({ name, entry }) => shared[entry]?.includes(name))
      : []),
  ];
  // A name the list keeps after its module stopped exporting it would be checked by nobody.
  const gone = Object.entries(shared).flatMap(([file, names]) =>
    names
      .filter((name) => !exported.some((found) => found.entry === file && found.name === name))
      .map((name) => `${file} ${name}`),
  );

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  describe(title, () => {
    it("every @example is fenced as ts", async () => {
      expect(await sourceExamples(packageDir, where)).not.toEqual([]);
      expect(await unfencedExamples(packageDir, where)).toEqual([]);
    });

    if (exported.length > 0 || gone.length > 0) {
      it("every public export has an example that uses it", () => {
        expect(gone).toEqual([]);
        expect(missingExamples(exported)).toEqual([]);
      });
    }

    it("every example compiles against the code it shows", async () => {
      const { examples, errors } = await compileSourceExamples({
        packageDir,
        scratch,
        lib,
        tsExtensions,
        paths,
        ...where,
        ...(types ? { types } : {}),
        also: uniqueExamples([...exported.flatMap(({ examples }) => examples), ...((await also?.()) ?? [])]),
      });
      expect(examples.length).toBeGreaterThanOrEqual(minimum);
      expect(errors).toBe("");
    }, 300_000);
  });
}
