/**
 * The sandbox's description and default data as files of their own beside the worker, instead of the
 * string constants the sandbox's generated modules embed: the worker fetches them while the browser
 * compiles its code (a JSON text is parsed far faster than the same text inside a script), and the
 * description leaves out the prose the page already shows, which the sandbox never reads.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { assetDir } from "../shared-redoc.ts";
import { descriptionForSandbox, withoutBehaviourText, withoutSchemaPaths } from "./worker-code.ts";

/** The two files, relative to the site root, and the esbuild plugin that makes the worker fetch them. */
export interface SandboxFiles {
  description: string;
  data: string;
  plugin: Plugin;
}

/** Keys whose whole value is data (examples, defaults, mappings) or read by the sandbox: kept as they are. */
const KEPT_SUBTREES = new Set(["example", "examples", "default", "const", "enum", "discriminator"]);
/** Prose for the reader: annotations the sandbox never reads (it reads `x-errors` and `x-undocumented`). */
const PROSE_KEYS = new Set(["description", "summary"]);
const PROSE_EXTENSIONS = new Set(["x-observed"]);

/**
 * The description without its prose: every `description` and `summary` text and the `x-observed`
 * notes. A key of that name inside data (an example, a default, an enum) or naming a property (whose
 * value is a schema, not a text) stays.
 *
 * @example
 * ```ts
 * import { withoutProse } from "./sandbox-files.ts";
 *
 * withoutProse({ summary: "Lists groups", example: { description: "kept" } });
 * // { example: { description: "kept" } }
 * ```
 */
export function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (typeof value !== "object" || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (PROSE_EXTENSIONS.has(key) || (PROSE_KEYS.has(key) && typeof inner === "string")) continue;
    kept[key] = KEPT_SUBTREES.has(key) || key.startsWith("x-") ? inner : withoutProse(inner);
  }
  return kept;
}

const GENERATED = /[\\/]sandbox[\\/]dist[\\/]generated[\\/](openapi-document|default-data)\.js$/;
const VALIDATORS = /[\\/]sandbox[\\/]dist[\\/]generated[\\/]spec-validators\.js$/;
const RESOURCES = /[\\/]sandbox[\\/]dist[\\/]resources[\\/][^\\/]+\.js$/;

/**
 * Writes the description (without prose) and the default data into `<outDir>/assets/`, named by
 * content hash, and returns them with the plugin that swaps the sandbox's generated modules for ones
 * awaiting the worker's fetch of these files (`page/sandbox-data.ts`).
 *
 * @example
 * ```ts
 * import { writeSandboxFiles } from "./sandbox-files.ts";
 *
 * const files = await writeSandboxFiles("packages/docs/dist", "packages/docs/src/try-it/page/sandbox-data.ts");
 * console.log(files.description, files.data);
 * ```
 */
export async function writeSandboxFiles(outDir: string, dataModule: string): Promise<SandboxFiles> {
  const generated = join(
    dirname(createRequire(import.meta.url).resolve("@drill-practice/sandbox/package.json")),
    "dist",
    "generated",
  );
  const { OPENAPI_DOCUMENT_TEXT } = (await import(
    pathToFileURL(join(generated, "openapi-document.js")).href
  )) as { OPENAPI_DOCUMENT_TEXT: string };
  const { DEFAULT_DATA_TEXT } = (await import(pathToFileURL(join(generated, "default-data.js")).href)) as {
    DEFAULT_DATA_TEXT: string;
  };
  const write = async (name: string, text: string) => {
    const file = `${assetDir}/${name}.${createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`;
    await writeFile(join(outDir, file), text);
    return file;
  };
  const description = await write(
    "try-it-sandbox-description",
    JSON.stringify(
      descriptionForSandbox(withoutProse(JSON.parse(OPENAPI_DOCUMENT_TEXT)) as Record<string, unknown>),
    ),
  );
  const data = await write("try-it-sandbox-data", DEFAULT_DATA_TEXT);
  const plugin: Plugin = {
    name: "try-it-sandbox-files",
    setup(build) {
      build.onLoad({ filter: GENERATED }, (args) => {
        const which = GENERATED.exec(args.path)?.[1];
        const [constant, key] =
          which === "openapi-document"
            ? ["OPENAPI_DOCUMENT_TEXT", "description"]
            : ["DEFAULT_DATA_TEXT", "data"];
        return {
          contents:
            `import { sandboxTexts } from ${JSON.stringify(dataModule)};\n` +
            `export const ${constant} = await sandboxTexts.${key};\n`,
          loader: "js",
          resolveDir: dirname(dataModule),
        };
      });
      // What the sandbox never reads while it answers (`worker-code.ts` says what and why).
      build.onLoad({ filter: VALIDATORS }, async (args) => ({
        contents: withoutSchemaPaths(await readFile(args.path, "utf8")),
        loader: "js",
      }));
      build.onLoad({ filter: RESOURCES }, async (args) => ({
        contents: withoutBehaviourText(await readFile(args.path, "utf8")),
        loader: "js",
      }));
    },
  };
  return { description, data, plugin };
}
