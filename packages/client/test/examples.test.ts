/**
 * Every `@example` in the package's doc comments and every TypeScript block of
 * the README must compile against the package's own source, so the examples
 * cannot drift from the API.
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "examples");
const tscBin = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

interface Example {
  readonly origin: string;
  readonly code: string;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

function docExamples(file: string, text: string): Example[] {
  const examples: Example[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = (comment[1] ?? "")
      .split("\n")
      .map((line) => line.replace(/^\s*\* ?/, ""))
      .join("\n");
    for (const block of body.matchAll(/@example\s*\n```ts\n([\s\S]*?)```/g)) {
      const line = text.slice(0, comment.index).split("\n").length;
      examples.push({ origin: `${relative(packageDir, file)}:${line}`, code: block[1] ?? "" });
    }
  }
  return examples;
}

function readmeExamples(text: string): Example[] {
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => ({
    origin: `README.md:${text.slice(0, block.index).split("\n").length}`,
    code: block[1] ?? "",
  }));
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
    const examples: Example[] = [];
    for (const file of await sourceFiles(join(packageDir, "src"))) {
      examples.push(...docExamples(file, await readFile(file, "utf8")));
    }
    examples.push(...readmeExamples(await readFile(join(packageDir, "README.md"), "utf8")));
    expect(examples.length).toBeGreaterThan(40);

    await rm(scratch, { recursive: true, force: true });
    await mkdir(scratch, { recursive: true });
    const names: string[] = [];
    for (const [index, example] of examples.entries()) {
      const name = `example-${String(index).padStart(3, "0")}.ts`;
      names.push(name);
      const isModule = /^\s*(import|export) /m.test(example.code);
      // Examples of internal modules import them relatively, from where the example is written.
      const code = example.code.replace(/from "(\.{1,2}\/[^"]+)"/g, (_match, specifier: string) => {
        const target = join(packageDir, dirname(example.origin.replace(/:\d+$/, "")), specifier);
        return `from "${relative(scratch, target).replaceAll("\\", "/")}"`;
      });
      await writeFile(
        join(scratch, name),
        `// ${example.origin}\n${code}${isModule ? "" : "\nexport {};\n"}`,
      );
    }
    await writeFile(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          lib: ["es2023", "dom", "dom.iterable"],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          noUnusedLocals: false,
          paths: { "@drill-practice/client": ["../../src/index.ts"] },
        },
        files: names,
      }),
    );
    const output = await run(process.execPath, [tscBin, "-p", "tsconfig.json"], { cwd: scratch }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? "failed",
    );
    // Point each error at the doc comment it came from.
    const located = output.replace(
      /^(example-\d+\.ts)\((\d+),\d+\)/gm,
      (_match, file: string, line: string) => {
        const example = examples[Number(file.slice(8, 11))];
        return `${example?.origin} (example line ${Number(line) - 1})`;
      },
    );
    expect(located).toBe("");
  }, 120_000);
});
