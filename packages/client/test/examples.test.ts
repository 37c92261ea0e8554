/**
 * Every `@example` in the package's doc comments and every TypeScript block of
 * the README must compile against the package's own source, so the examples
 * cannot drift from the API.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  compileExamples,
  type Example,
  markdownBlocks,
  relativeImportsFrom,
  scratchPaths,
  sourceExamples,
} from "../../../scripts/compile-examples.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "examples");

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

const DECLARATION =
  /^export (?:declare )?(?:abstract )?(?:async )?(?:function\*?|class|const|interface|type) [A-Za-z_$]/;

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("every exported declaration has a doc comment with an @example", async () => {
    const missing: string[] = [];
    for (const file of await sourceFiles(join(packageDir, "src"))) {
      const text = await readFile(file, "utf8");
      const lines = text.split("\n");
      lines.forEach((line, index) => {
        if (!DECLARATION.test(line)) return;
        // Overloads share the doc comment of the first signature.
        const name = /(?:function\*?|class|const|interface|type) ([A-Za-z0-9_$]+)/.exec(line)?.[1] ?? "";
        const previous = lines.slice(0, index).reverse();
        const overloaded = previous.some((earlier) =>
          new RegExp(`^export (?:async )?function\\*? ${name}\\b`).test(earlier),
        );
        if (overloaded) return;
        const above = lines.slice(0, index).join("\n");
        const lastComment = above.lastIndexOf("/**");
        const between = above.slice(above.lastIndexOf("*/") + 2);
        const documented =
          lastComment !== -1 && between.trim() === "" && above.slice(lastComment).includes("@example");
        if (!documented) missing.push(`${relative(packageDir, file)}:${index + 1} ${name}`);
      });
    }
    // The re-export of the generated types carries one doc comment for all three.
    const index = await readFile(join(packageDir, "src", "index.ts"), "utf8");
    const at = index.indexOf('export type { components, operations, paths } from "./generated/openapi.js";');
    expect(at).toBeGreaterThan(0);
    const doc = index.slice(index.lastIndexOf("/**", at), at);
    expect(doc).toContain("@example");
    for (const name of ["paths", "components", "operations"]) expect(doc).toContain(`\`${name}\``);
    expect(missing).toEqual([]);
  });

  it("every example compiles against the package", async () => {
    // The generators' doc comments too (the ones they emit are compiled in `src/generated`).
    const examples: Example[] = await sourceExamples(packageDir, {
      folders: ["src", "scripts"],
      withGenerated: true,
    });
    examples.push(...markdownBlocks(await readFile(join(packageDir, "README.md"), "utf8"), "ts"));
    expect(examples.length).toBeGreaterThan(40);

    const errors = await compileExamples({
      scratch,
      examples,
      compilerOptions: {
        types: [],
        allowImportingTsExtensions: true,
        // One mapping per entry of the package's exports map.
        paths: scratchPaths({
          packageDir,
          scratch,
          paths: {
            "@drill-practice/client": "src/index.ts",
            "@drill-practice/client/internal": "src/core/index.ts",
            "@drill-practice/client/v2.1": "src/v2.1.ts",
            "@drill-practice/client/v2.0": "src/v2.0.ts",
            "@drill-practice/client/pagination": "src/pagination.ts",
          },
        }),
      },
      rewrite: relativeImportsFrom(packageDir, scratch),
    });
    expect(errors).toBe("");
  }, 300_000);
});
