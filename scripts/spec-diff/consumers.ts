/**
 * The consumer code of a release (the examples, the TypeScript blocks readers are shown, the
 * client's type tests) and its compilation against the client's current generated types: what the
 * spec diff cannot see (an `operations` key renamed, an answer field that became optional under
 * `strictNullChecks`, an exhaustive `switch` over an answer enum that gained a value) shows here as
 * a compile error with its file and line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import type * as TypeScript from "typescript";
import { htmlSnippets, markdownSnippets, readmeFiles } from "../../packages/docs/test/helpers/snippets.ts";

/** One file of consumer code as it was at the release. */
export interface ConsumerFile {
  /** Where it is compiled, relative to the repository (a snippet gets a path of its own). */
  readonly path: string;
  readonly code: string;
  /** For a snippet: the `file:line` of its first line of code in the README or page it came from. */
  readonly origin?: string;
}

/** A compile error in consumer code, at the line a reader finds it. */
export interface CompileError {
  /** The consumer file it is in (`ConsumerFile.path`). */
  readonly path: string;
  /** `file:line` in the repository (for a snippet, in its README or page). */
  readonly at: string;
  readonly message: string;
}

const SNIPPET_DIR = ".spec-diff/snippets";
/** The published packages whose entries consumer code imports, compiled from their sources. */
const SOURCE_PACKAGES = ["client", "auth", "sandbox"] as const;

type ExportEntry = string | { readonly [condition: string]: ExportEntry };

/** The declaration file an export resolves to in Node (`node` condition first, then `types`). */
function typesOf(entry: ExportEntry | undefined): string | undefined {
  if (entry === undefined || typeof entry === "string") return entry?.endsWith(".d.ts") ? entry : undefined;
  return typesOf(entry.node) ?? typesOf(entry.types);
}

/**
 * Each import specifier of the published packages (`@drill-practice/auth/node`) mapped to the
 * source file its declarations are built from (`packages/auth/src/node.ts`), read from the
 * packages' `exports`: the consumer code compiles against the sources and the generated types, so
 * the check needs no build of any package.
 *
 * @example
 * ```ts
 * import { sourceEntries } from "./consumers.ts";
 *
 * console.log(sourceEntries(process.cwd())["@drill-practice/auth/node"]); // packages/auth/src/node.ts
 * ```
 */
export function sourceEntries(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const dir of SOURCE_PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as {
      name: string;
      exports: Record<string, ExportEntry>;
    };
    for (const [subpath, entry] of Object.entries(manifest.exports)) {
      const types = typesOf(entry);
      if (types === undefined || !types.startsWith("./dist/")) continue;
      const source = `packages/${dir}/src/${types.slice("./dist/".length, -".d.ts".length)}.ts`;
      entries[subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`] = source;
    }
  }
  return entries;
}

function listFiles(root: string, dir: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(path);
      } else if (keep(path)) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * The consumer code of the working tree: every example program (not the repository's own tests of
 * them), the client's type tests with their helpers, the calls of every tag of every version
 * (`scripts/spec-diff/consumer-calls/`), and each TypeScript block of the READMEs and
 * the docs site's hand-written pages as a module of its own.
 */
export function collectConsumers(root: string): ConsumerFile[] {
  const read = (path: string) => readFileSync(join(root, path), "utf8");
  const files: ConsumerFile[] = [];
  const examples = listFiles(
    root,
    "examples",
    (path) => path.endsWith(".ts") && !/^examples\/[^/]+\.test\.ts$/.test(path),
  );
  const typeTests = listFiles(
    root,
    "packages/client/test",
    (path) => path.endsWith(".test-d.ts") || path === "packages/client/test/helpers.ts",
  );
  const calls = listFiles(root, "scripts/spec-diff/consumer-calls", (path) => path.endsWith(".ts"));
  for (const path of [...examples, ...typeTests, ...calls]) files.push({ path, code: read(path) });
  const siteDir = join(root, "packages/docs/site");
  const snippets = [
    ...readmeFiles(root).flatMap((file) => markdownSnippets(read(file), file)),
    ...readdirSync(siteDir)
      .filter((page) => page.endsWith(".html"))
      .sort()
      .flatMap((page) =>
        htmlSnippets(read(`packages/docs/site/${page}`), relative(root, join(siteDir, page))),
      ),
  ];
  for (const snippet of snippets) {
    const name = snippet.origin.replace(/[^A-Za-z0-9.-]+/g, "-");
    // Appended, not prepended, so that line numbers stay those of the block; makes each block a module.
    files.push({
      path: `${SNIPPET_DIR}/${name}.ts`,
      code: `${snippet.code}\nexport {};\n`,
      origin: snippet.origin,
    });
  }
  return files;
}

// Loaded on first use: the check of an unchanged description never compiles, and need not pay for it.
let loaded: typeof TypeScript | undefined;
function typescript(): typeof TypeScript {
  loaded ??= createRequire(import.meta.url)("typescript") as typeof TypeScript;
  return loaded;
}

/** The compiler options of the repository's own TypeScript (root tsconfig.json). */
function repositoryOptions(root: string): TypeScript.CompilerOptions {
  const ts = typescript();
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return { ...parsed.options, noEmit: true, allowJs: false, checkJs: false };
}

/**
 * Compiles files that exist only in memory (`overlay`, absolute paths to code) among the files on
 * disk, and returns the errors in the overlay's files. Used for the release's consumer code, and by
 * the tests for consumers of types generated from fixture documents.
 */
export function compileOverlay(
  root: string,
  overlay: ReadonlyMap<string, string>,
  extraOptions: TypeScript.CompilerOptions = {},
): { file: string; line: number; message: string }[] {
  const ts = typescript();
  const options: TypeScript.CompilerOptions = { ...repositoryOptions(root), ...extraOptions };
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  const dirs = new Set<string>();
  for (const file of overlay.keys()) {
    for (
      let dir = file.slice(0, file.lastIndexOf("/"));
      dir.length > 1;
      dir = dir.slice(0, dir.lastIndexOf("/"))
    )
      dirs.add(dir);
  }
  host.fileExists = (file) => overlay.has(file) || ts.sys.fileExists(file);
  host.readFile = (file) => overlay.get(file) ?? ts.sys.readFile(file);
  host.directoryExists = (dir) => dirs.has(dir) || ts.sys.directoryExists(dir);
  host.getSourceFile = (file, language, onError, create) => {
    const code = overlay.get(file);
    return code === undefined
      ? getSourceFile(file, language, onError, create)
      : ts.createSourceFile(file, code, language, true);
  };
  const program = ts.createProgram({ rootNames: [...overlay.keys()], options, host });
  const errors: { file: string; line: number; message: string }[] = [];
  for (const file of overlay.keys()) {
    const source = program.getSourceFile(file);
    if (source === undefined) {
      errors.push({ file, line: 1, message: "not compiled (not found by the compiler)" });
      continue;
    }
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      errors.push({
        file,
        line: line + 1,
        message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
      });
    }
  }
  return errors;
}

const UNUSED_EXPECT_ERROR = 2578;

/**
 * Compiles a release's consumer code against the packages' current sources and the client's
 * generated types (each `@drill-practice/*` entry resolves to its source, see {@link sourceEntries},
 * so a `pnpm generate` is seen without a build) and returns each error at the line a reader finds it.
 */
export function compileConsumers(root: string, files: readonly ConsumerFile[]): CompileError[] {
  const byPath = new Map(files.map((file) => [join(root, file.path), file]));
  const overlay = new Map([...byPath].map(([path, file]) => [path, file.code]));
  const paths: Record<string, string[]> = Object.fromEntries(
    Object.entries(sourceEntries(root)).map(([name, path]) => [name, [join(root, path)]]),
  );
  // A reader's project has the client's one dependency installed beside it (the auth README's
  // middleware block imports it); here it is installed under the client only.
  paths["openapi-fetch"] = [join(root, "packages/client/node_modules/openapi-fetch/dist/index.d.mts")];
  // An unused `@ts-expect-error` means the types now accept what they refused at the release (a
  // parameter that also takes a number): a widening, which breaks no user's code.
  const errors = compileOverlay(root, overlay, { baseUrl: root, paths }).filter(
    (error) => !error.message.startsWith(`TS${UNUSED_EXPECT_ERROR}:`),
  );
  return errors.map((error) => {
    const file = byPath.get(error.file);
    const origin = file?.origin?.match(/^(.*):(\d+)$/);
    const at = origin
      ? `${origin[1]}:${Number(origin[2]) + error.line - 1}`
      : `${file?.path ?? relative(root, error.file)}:${error.line}`;
    return { path: file?.path ?? relative(root, error.file), at, message: error.message };
  });
}
