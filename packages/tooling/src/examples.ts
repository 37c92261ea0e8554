/**
 * Compiles documentation examples (README code blocks, `@example` blocks) with
 * `tsc`, each as a module of its own, and points every error back at the line
 * of the document it came from. Used by the packages' example tests so that no
 * example can drift from the API it shows.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { compileExamples, markdownBlocks } from "@drill-practice/tooling/examples";
 *
 * const examples = markdownBlocks(await readFile("packages/client/README.md", "utf8"), "ts");
 * const errors = await compileExamples({ scratch: ".tmp/readme-examples", examples, compilerOptions: {} });
 * if (errors !== "") throw new Error(errors);
 * ```
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";

/**
 * A piece of example code and where it was found (`file:line`).
 *
 * @example
 * ```ts
 * import type { Example } from "@drill-practice/tooling/examples";
 *
 * const example: Example = { origin: "README.md:12", code: 'console.log("hello");', name: "hello" };
 * ```
 */
export interface Example {
  readonly origin: string;
  readonly code: string;
  /** The exported name the example documents, named beside its errors. */
  readonly name?: string;
}

const run = promisify(execFile);
const tscBin = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

/** `to` relative to `from`, with forward slashes on every platform: the form tsc and origins use. */
function posixRelative(from: string, to: string): string {
  return relative(from, to).replaceAll("\\", "/");
}

/**
 * The fenced blocks of one language in a Markdown text, e.g. every ```ts block of a README.
 *
 * @example
 * ```ts
 * import { markdownBlocks } from "@drill-practice/tooling/examples";
 *
 * const fence = "`".repeat(3); // written out, it would end this example
 * markdownBlocks(`Run:\n\n${fence}sh\npnpm test\n${fence}\n`, "sh", "CONTRIBUTING.md");
 * // [{ origin: "CONTRIBUTING.md:4", code: "pnpm test\n" }]
 * ```
 */
export function markdownBlocks(text: string, language: string, file = "README.md"): Example[] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((block) => ({
    // The code starts on the line after the fence.
    origin: `${file}:${text.slice(0, block.index).split("\n").length + 1}`,
    code: block[1] ?? "",
  }));
}

/**
 * The ```ts blocks under `@example` tags in the doc comments of a source text; `file` names the
 * origin of each (`file:line` of its first line of code; `lineOffset` lines precede `text`).
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { docCommentExamples } from "@drill-practice/tooling/examples";
 *
 * const file = "packages/auth/src/index.ts";
 * const examples = docCommentExamples(await readFile(file, "utf8"), file);
 * console.log(examples.map(({ origin }) => origin)); // ["packages/auth/src/index.ts:9"]
 * ```
 */
export function docCommentExamples(text: string, file: string, lineOffset = 0): Example[] {
  const examples: Example[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = (comment[1] ?? "")
      .split("\n")
      .map((line) => line.replace(/^\s*\* ?/, ""))
      .join("\n");
    // A title may follow the tag on its line (TSDoc); the code is the ```ts block below it.
    for (const block of body.matchAll(/@example[^\n]*\n```ts\n([\s\S]*?)```/g)) {
      // The code starts two lines below the tag (after the fence), as in `markdownBlocks`.
      const line =
        lineOffset +
        text.slice(0, comment.index).split("\n").length +
        body.slice(0, block.index).split("\n").length +
        1;
      examples.push({ origin: `${file}:${line}`, code: block[1] ?? "" });
    }
  }
  return examples;
}

/**
 * Which files of a package the example checks read.
 *
 * @example
 * ```ts
 * import { type SourceFolders, sourceExamples } from "@drill-practice/tooling/examples";
 *
 * const where: SourceFolders = { folders: ["src", "test/support"], withGenerated: true };
 * const examples = await sourceExamples("packages/client", where);
 * ```
 */
export interface SourceFolders {
  /** Folders of the package, relative to it; default `["src"]`. */
  readonly folders?: readonly string[];
  /** Whether files under a `generated` folder count; default false. */
  readonly withGenerated?: boolean;
}

/** The TypeScript files (declaration files left out) under the folders of a package, sorted. */
async function typeScriptFiles(packageDir: string, options: SourceFolders): Promise<string[]> {
  const { folders = ["src"], withGenerated = false } = options;
  const files: string[] = [];
  for (const folder of folders) {
    const entries = await readdir(join(packageDir, folder), { recursive: true, withFileTypes: true });
    files.push(
      ...entries
        .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
        .map((entry) => join(entry.parentPath, entry.name))
        .filter((file) => withGenerated || !relative(packageDir, file).split(/[\\/]/).includes("generated")),
    );
  }
  return files.sort();
}

/**
 * Every `@example` of every TypeScript file under the given folders of `packageDir`, each named by
 * its path relative to the package.
 *
 * @example
 * ```ts
 * import { sourceExamples } from "@drill-practice/tooling/examples";
 *
 * const examples = await sourceExamples("packages/sandbox", { folders: ["src", "scripts"] });
 * console.log(`${examples.length} examples, the first at ${examples[0]?.origin}`);
 * ```
 */
export async function sourceExamples(packageDir: string, options: SourceFolders = {}): Promise<Example[]> {
  const examples: Example[] = [];
  for (const file of await typeScriptFiles(packageDir, options)) {
    const origin = posixRelative(packageDir, file);
    examples.push(...docCommentExamples(await readFile(file, "utf8"), origin));
  }
  return examples;
}

/**
 * Where an `@example` tag is not followed by a ```ts fence (`file:line`, relative to the package):
 * such an example would be neither highlighted nor compiled. A command's example may be a ```sh
 * block (a shell line is not compiled).
 *
 * @example
 * ```ts
 * import { unfencedExamples } from "@drill-practice/tooling/examples";
 *
 * const unfenced = await unfencedExamples("packages/docs", { folders: ["src", "scripts"] });
 * if (unfenced.length > 0) throw new Error(`unfenced examples: ${unfenced.join(", ")}`);
 * ```
 */
export async function unfencedExamples(packageDir: string, options: SourceFolders = {}): Promise<string[]> {
  const unfenced: string[] = [];
  for (const file of await typeScriptFiles(packageDir, options)) {
    const lines = (await readFile(file, "utf8")).split("\n");
    lines.forEach((line, index) => {
      if (/^\s*\* @example\b/.test(line) && !/^\s*\* ```(ts|sh)$/.test(lines[index + 1] ?? "")) {
        unfenced.push(`${posixRelative(packageDir, file)}:${index + 1}`);
      }
    });
  }
  return unfenced;
}

/**
 * A `rewrite` for {@link compileExamples}: an example of an internal module imports it relatively,
 * from where the example is written; this points such imports at the same file from `scratch`.
 *
 * @example
 * ```ts
 * import { relativeImportsFrom } from "@drill-practice/tooling/examples";
 *
 * const rewrite = relativeImportsFrom("packages/sandbox", "packages/sandbox/.tmp/examples");
 * // An example of src/domain/state.ts that imports "./state.js", as written into the scratch folder:
 * rewrite({ origin: "src/domain/state.ts:40", code: 'import { createState } from "./state.js";' });
 * // 'import { createState } from "../../src/domain/state.js";'
 * ```
 */
export function relativeImportsFrom(packageDir: string, scratch: string): (example: Example) => string {
  return (example) =>
    example.code.replace(/from "(\.{1,2}\/[^"]+)"/g, (_match, specifier: string) => {
      const target = join(packageDir, dirname(example.origin.replace(/:\d+$/, "")), specifier);
      return `from "${posixRelative(scratch, target)}"`;
    });
}

/**
 * Examples found twice (an entry re-exporting a declaration, a file read twice) kept once, by origin.
 *
 * @example
 * ```ts
 * import { uniqueExamples } from "@drill-practice/tooling/examples";
 *
 * const example = { origin: "src/index.ts:4", code: "export {};" };
 * uniqueExamples([example, { ...example }]).length; // 1
 * ```
 */
export function uniqueExamples(examples: readonly Example[]): Example[] {
  return [...new Map(examples.map((example) => [example.origin, example])).values()];
}

/**
 * One name exported by a public entry, with the `@example`s of its declaration's doc comment.
 *
 * @example
 * ```ts
 * import { type PublicExport, publicExports } from "@drill-practice/tooling/examples";
 *
 * const exported: PublicExport[] = publicExports({
 *   packageDir: "packages/auth",
 *   entries: { "@drill-practice/auth": "src/index.ts" },
 *   paths: { "@drill-practice/auth": "src/index.ts" },
 * });
 * const types = exported.filter(({ kind }) => kind === "type").map(({ name }) => name);
 * ```
 */
export interface PublicExport {
  /** The package specifier of the entry, e.g. `@drill-practice/auth/node`. */
  readonly entry: string;
  readonly name: string;
  /** `value` for functions, classes and constants; `type` for interfaces and type aliases. */
  readonly kind: "value" | "type";
  /** `file:line` of the declaration, relative to the package. */
  readonly origin: string;
  readonly examples: readonly Example[];
}

/**
 * Every name the given entries export, found with the TypeScript checker (re-exports followed to
 * their declarations, in this package or in another mapped by `paths`), with the examples of the
 * doc comment above each declaration, plus the examples of each entry file's own header comment
 * (named after the entry).
 *
 * @example
 * ```ts
 * import { publicExports } from "@drill-practice/tooling/examples";
 *
 * const exported = publicExports({
 *   packageDir: "packages/sandbox",
 *   entries: { "@drill-practice/sandbox/msw": "src/msw.ts" },
 *   paths: { "@drill-practice/sandbox/msw": "src/msw.ts" },
 * });
 * exported.map(({ name, examples }) => `${name}: ${examples.length}`); // ["@drill-practice/sandbox/msw: 1", "sandboxHandlers: 1"]
 * ```
 */
export function publicExports(options: {
  packageDir: string;
  /** The entry as a user names it (its specifier, and the condition where one applies) → its source file, relative to `packageDir`. */
  entries: Record<string, string>;
  /** Package specifier → source file, relative to `packageDir`, for every specifier the entries import through. */
  paths: Record<string, string>;
}): PublicExport[] {
  const { packageDir, entries, paths } = options;
  const program = ts.createProgram(
    Object.values(entries).map((file) => join(packageDir, file)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      baseUrl: packageDir,
      paths: Object.fromEntries(Object.entries(paths).map(([specifier, file]) => [specifier, [file]])),
    },
  );
  const checker = program.getTypeChecker();
  const found: PublicExport[] = [];
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(join(packageDir, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!source || !moduleSymbol) throw new Error(`${file}: not found or not a module`);
    const header = source.text.slice(0, source.statements[0]?.getStart() ?? source.text.length);
    found.push({
      entry,
      name: entry,
      kind: "value",
      origin: `${file}:1`,
      examples: docCommentExamples(header, file).map((example) => ({ ...example, name: entry })),
    });
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      // Overloads and merged declarations share the doc comment of the first.
      const declaration = symbol.declarations?.[0];
      if (!declaration) continue;
      const statement = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
      const declarationFile = statement.getSourceFile();
      const origin = posixRelative(packageDir, declarationFile.fileName);
      const line = (position: number) => declarationFile.getLineAndCharacterOfPosition(position).line;
      const doc = docComment(statement);
      // A re-export may document what it re-exports (generated types have no comment of their own).
      const specifier = exported.declarations?.find(ts.isExportSpecifier);
      const reexport = specifier && docComment(specifier.parent.parent);
      const reexportFile = specifier?.getSourceFile();
      found.push({
        entry,
        name: exported.name,
        kind:
          symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias) &&
          !(symbol.flags & ts.SymbolFlags.Value)
            ? "type"
            : "value",
        origin: `${origin}:${line(statement.getStart()) + 1}`,
        examples: [
          ...(doc
            ? docCommentExamples(declarationFile.text.slice(doc.pos, doc.end), origin, line(doc.pos))
            : []),
          ...(reexport && reexportFile
            ? docCommentExamples(
                reexportFile.text.slice(reexport.pos, reexport.end),
                posixRelative(packageDir, reexportFile.fileName),
                reexportFile.getLineAndCharacterOfPosition(reexport.pos).line,
              )
            : []),
        ].map((example) => ({ ...example, name: exported.name })),
      });
    }
  }
  return found;
}

/** The doc comment right above a statement, if it has one. */
function docComment(statement: ts.Node): ts.CommentRange | undefined {
  const text = statement.getSourceFile().text;
  const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  return comments.filter((range) => text.startsWith("/**", range.pos)).at(-1);
}

/** Whether `code` names the identifier `name` (not as part of a longer one). */
function usesName(code: string, name: string): boolean {
  const escaped = name.replaceAll("$", "\\$");
  return new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).test(code);
}

/**
 * The public exports whose examples never use their name, and the entries whose header comment has
 * no example, each as `file:line name (entry)`: an empty list when every one documents itself.
 *
 * @example
 * ```ts
 * import { missingExamples, publicExports } from "@drill-practice/tooling/examples";
 *
 * const exported = publicExports({
 *   packageDir: "packages/sandbox",
 *   entries: { "@drill-practice/sandbox": "src/index.ts" },
 *   paths: { "@drill-practice/sandbox": "src/index.ts" },
 * });
 * console.log(missingExamples(exported)); // []
 * ```
 */
export function missingExamples(exported: readonly PublicExport[]): string[] {
  return exported
    .filter(({ name, entry, examples }) =>
      // An entry's header documents the entry as a whole; a name, only where an example uses it.
      name === entry ? examples.length === 0 : !examples.some((example) => usesName(example.code, name)),
    )
    .map(({ entry, name, origin }) => `${origin} ${name === entry ? "header" : name} (${entry})`);
}

/**
 * Compiler options that compile a package's examples as the package's own source is compiled
 * (`nodenext`, top-level await), each of its public specifiers mapped to its source file.
 *
 * @example
 * ```ts
 * import { sourceCompilerOptions } from "@drill-practice/tooling/examples";
 *
 * const compilerOptions = sourceCompilerOptions({
 *   packageDir: "packages/sandbox",
 *   scratch: "packages/sandbox/.tmp/examples",
 *   lib: ["es2023"],
 *   paths: { "@drill-practice/sandbox": "src/index.ts" },
 * });
 * console.log(compilerOptions.paths); // { "@drill-practice/sandbox": ["../../src/index.ts"] }
 * ```
 */
export function sourceCompilerOptions(options: {
  packageDir: string;
  scratch: string;
  lib: readonly string[];
  /** Public specifier → the package's source file, relative to the package. */
  paths: Readonly<Record<string, string>>;
  /** Global type packages; `["node"]` unless the package's code runs without Node's types. */
  types?: readonly string[];
}): Record<string, unknown> {
  return {
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: [...options.lib],
    types: [...(options.types ?? ["node"])],
    typeRoots: [posixRelative(options.scratch, join(options.packageDir, "node_modules/@types"))],
    paths: scratchPaths(options),
  };
}

/**
 * tsc's `paths` for examples compiled in `scratch`: each specifier mapped to the package's file,
 * seen from `scratch`.
 *
 * @example
 * ```ts
 * import { scratchPaths } from "@drill-practice/tooling/examples";
 *
 * const paths = scratchPaths({
 *   packageDir: "packages/client",
 *   scratch: "packages/client/.tmp/examples",
 *   paths: { "@drill-practice/client": "src/index.ts" },
 * });
 * console.log(paths); // { "@drill-practice/client": ["../../src/index.ts"] }
 * ```
 */
export function scratchPaths(options: {
  packageDir: string;
  scratch: string;
  /** Public specifier → the package's source file, relative to the package. */
  paths: Readonly<Record<string, string>>;
}): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(options.paths).map(([specifier, file]) => [
      specifier,
      [posixRelative(options.scratch, join(options.packageDir, file))],
    ]),
  );
}

/**
 * Writes each example to `scratch` as `example-NNN.ts`, compiles them all with
 * the given compiler options (merged over strict, no-emit defaults) and
 * returns tsc's errors with each location rewritten to its example's origin;
 * an empty string when everything compiles.
 *
 * @example
 * ```ts
 * import { compileExamples } from "@drill-practice/tooling/examples";
 *
 * const errors = await compileExamples({
 *   scratch: ".tmp/examples",
 *   examples: [{ origin: "notes.md:3", code: 'const port: number = "4010";' }],
 *   compilerOptions: { types: [] },
 * });
 * // "notes.md:3: error TS2322: Type 'string' is not assignable to type 'number'.\n"
 * ```
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
  // Under `module: nodenext` the examples are ES modules (top-level await), as in an application.
  await writeFile(join(scratch, "package.json"), '{ "type": "module" }\n');
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
    const example = examples[Number(index)];
    const [file, start] = (example?.origin ?? "?:0").split(/:(?=\d+$)/);
    return `${file}:${Number(start) + Number(line) - 2}${example?.name ? ` (example of ${example.name})` : ""}`;
  });
}

/**
 * Compiles a package's examples with the package's own settings (see {@link sourceCompilerOptions}):
 * those of the given folders, and `also` beside them (each kept once), with relative imports resolved
 * from the example's file. Returns the examples and tsc's errors (an empty string when all compile).
 *
 * @example
 * ```ts
 * import { compileSourceExamples } from "@drill-practice/tooling/examples";
 *
 * const { examples, errors } = await compileSourceExamples({
 *   packageDir: "packages/runtime-matrix",
 *   scratch: "packages/runtime-matrix/.tmp/examples",
 *   lib: ["es2023", "dom"],
 * });
 * if (errors !== "") throw new Error(`${examples.length} examples, errors:\n${errors}`);
 * ```
 */
export async function compileSourceExamples(options: {
  packageDir: string;
  scratch: string;
  lib: readonly string[];
  folders?: readonly string[];
  /** Whether files under a `generated` folder count; default false. */
  withGenerated?: boolean;
  /** Global type packages (see {@link sourceCompilerOptions}). */
  types?: readonly string[];
  /** Public specifier → the package's source file, relative to the package. */
  paths?: Readonly<Record<string, string>>;
  /** Set for a package whose source imports its own modules with their `.ts` extension. */
  tsExtensions?: boolean;
  /** Examples found elsewhere (e.g. those of the public entries' headers). */
  also?: readonly Example[];
}): Promise<{ examples: Example[]; errors: string }> {
  const {
    packageDir,
    scratch,
    lib,
    folders,
    withGenerated,
    types,
    paths = {},
    tsExtensions = false,
    also = [],
  } = options;
  const examples = uniqueExamples([
    ...also,
    ...(await sourceExamples(packageDir, {
      ...(folders ? { folders } : {}),
      ...(withGenerated ? { withGenerated } : {}),
    })),
  ]);
  const errors = await compileExamples({
    scratch,
    examples,
    compilerOptions: {
      ...sourceCompilerOptions({ packageDir, scratch, lib, paths, ...(types ? { types } : {}) }),
      ...(tsExtensions ? { allowImportingTsExtensions: true } : {}),
    },
    rewrite: relativeImportsFrom(packageDir, scratch),
  });
  return { examples, errors };
}
