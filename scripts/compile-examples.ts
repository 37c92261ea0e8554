/**
 * Compiles documentation examples (README code blocks, `@example` blocks) with
 * `tsc`, each as a module of its own, and points every error back at the line
 * of the document it came from. Used by the packages' example tests so that no
 * example can drift from the API it shows.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

/** A piece of example code and where it was found (`file:line`). */
export interface Example {
  readonly origin: string;
  readonly code: string;
}

const run = promisify(execFile);
const tscBin = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

/** The fenced blocks of one language in a Markdown text, e.g. every ```ts block of a README. */
export function markdownBlocks(text: string, language: string, file = "README.md"): Example[] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((block) => ({
    // The code starts on the line after the fence.
    origin: `${file}:${text.slice(0, block.index).split("\n").length + 1}`,
    code: block[1] ?? "",
  }));
}

/**
 * Writes each example to `scratch` as `example-NNN.ts`, compiles them all with
 * the given compiler options (merged over strict, no-emit defaults) and
 * returns tsc's errors with each location rewritten to its example's origin;
 * an empty string when everything compiles.
 */
export async function compileExamples(options: {
  scratch: string;
  examples: readonly Example[];
  compilerOptions: Record<string, unknown>;
  /** Rewrites an example's code before it is written (e.g. relative imports). */
  rewrite?: (example: Example) => string;
}): Promise<string> {
  const { scratch, examples, compilerOptions, rewrite = (example) => example.code } = options;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const names = examples.map((_, index) => `example-${String(index).padStart(3, "0")}.ts`);
  for (const [index, example] of examples.entries()) {
    const code = rewrite(example);
    const isModule = /^\s*(import|export) /m.test(code);
    // The first line names the origin, so the example's own lines start at 2.
    await writeFile(
      join(scratch, names[index] as string),
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
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        noUnusedLocals: false,
        ...compilerOptions,
      },
      files: names,
    }),
  );
  const output = await run(process.execPath, [tscBin, "-p", "tsconfig.json"], { cwd: scratch }).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? "tsc failed without output",
  );
  return output.replace(/^example-(\d{3})\.ts\((\d+),\d+\)/gm, (_match, index: string, line: string) => {
    const [file, start] = (examples[Number(index)]?.origin ?? "?:0").split(/:(?=\d+$)/);
    return `${file}:${Number(start) + Number(line) - 2}`;
  });
}
