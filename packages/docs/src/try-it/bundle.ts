/**
 * Builds the Try it assets of the site with esbuild: the panel script (with the page's code-sample
 * writer in a chunk of its own, loaded on the first copy), the sandbox worker (the sandbox's Web
 * entry and auth, loaded on the first Send, with its description and data as JSON files beside it;
 * Ajv, which only a `spec` option given at run time needs, stays in a chunk that is never loaded),
 * and one table of operations per reference, whose page gets its URLs as JSON and the loader
 * (`page/loader.ts`) inline.
 * Every file is named by its content hash, like Redoc's shared bundle.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type OutputFile, type Plugin } from "esbuild";
import { assetDir } from "../shared-redoc.ts";
import { TRY_IT_PAGE_ID, type TryItPage, tryItElements } from "./page-config.ts";
import type { TryItOperation } from "./protocol.ts";
import { writeSandboxFiles } from "./sandbox-files.ts";

const pageDir = fileURLToPath(new URL("./page/", import.meta.url));

/** The Try it scripts as written into `assets/`. */
export interface TryItScripts {
  /** The panel module, relative to the site root. */
  panel: string;
  /** The worker module, relative to the site root. */
  worker: string;
  /** The loader's code, the same for every reference page, which gets it inline. */
  loader: string;
  /** Every file written, relative to the site root. */
  files: string[];
}

function hashed(name: string, ext: string, contents: Uint8Array | string): string {
  return `${assetDir}/${name}.${createHash("sha256").update(contents).digest("hex").slice(0, 16)}.${ext}`;
}

async function bundle(
  entry: string,
  name: string,
  extra: { plugins?: Plugin[]; define?: Record<string, string> } = {},
): Promise<{ entry: string; files: OutputFile[] }> {
  const result = await build({
    ...extra,
    entryPoints: { [name]: join(pageDir, entry) },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    // esbuild's [hash] is 8 characters; the site's fingerprinted assets carry 16 hex digits.
    entryNames: "[name]",
    chunkNames: `${name}-chunk-[hash]`,
    outdir: "/try-it",
    write: false,
  });
  return { entry: `${name}.js`, files: result.outputFiles };
}

/**
 * Renames esbuild's outputs to `assets/<name>.<sha256 prefix>.js` (hashed as esbuild wrote them,
 * whose own hashes already cover the chunks they import) and rewrites the imports between them.
 */
async function writeHashed(
  outDir: string,
  built: { entry: string; files: OutputFile[] },
): Promise<{ entry: string; files: string[] }> {
  const names = new Map<string, string>();
  for (const file of built.files) {
    const stem = basename(file.path, ".js").replace(/-[A-Z0-9]{8}$/, "");
    names.set(basename(file.path), hashed(stem, "js", file.text));
  }
  const written: string[] = [];
  for (const file of built.files) {
    let text = file.text;
    for (const [from, to] of names) text = text.replaceAll(`"./${from}"`, `"./${basename(to)}"`);
    const target = names.get(basename(file.path)) as string;
    await writeFile(join(outDir, target), text);
    written.push(target);
  }
  const entry = names.get(built.entry);
  if (entry === undefined) throw new Error(`esbuild wrote no ${built.entry}`);
  return { entry, files: written };
}

/**
 * Bundles the panel and the worker into `<outDir>/assets/`, and the loader once for every page.
 */
export async function buildTryItScripts(outDir: string): Promise<TryItScripts> {
  await mkdir(join(outDir, assetDir), { recursive: true });
  const sandboxFiles = await writeSandboxFiles(outDir, join(pageDir, "sandbox-data.ts"));
  const [panel, worker, loader] = await Promise.all([
    bundle("panel.ts", "try-it").then((built) => writeHashed(outDir, built)),
    bundle("sandbox-worker.ts", "try-it-sandbox", {
      plugins: [sandboxFiles.plugin],
      define: {
        TRY_IT_SANDBOX_FILES: JSON.stringify({
          description: basename(sandboxFiles.description),
          data: basename(sandboxFiles.data),
        }),
      },
    }).then((built) => writeHashed(outDir, built)),
    buildLoader(),
  ]);
  return {
    panel: panel.entry,
    worker: worker.entry,
    loader,
    files: [...panel.files, ...worker.files, sandboxFiles.description, sandboxFiles.data],
  };
}

/**
 * The loader (`page/loader.ts`, which says when the panel starts), to be inlined: inline, it costs the
 * page no request of its own. It is the same for every page, which gives it its URLs as data.
 */
export async function buildLoader(): Promise<string> {
  const built = await bundle("loader.ts", "try-it-loader", {
    define: { TRY_IT_PAGE_ID: JSON.stringify(TRY_IT_PAGE_ID) },
  });
  const [file, ...more] = built.files;
  if (file === undefined || more.length > 0)
    throw new Error(`esbuild wrote ${built.files.length} loader files, not 1`);
  return file.text.trimEnd();
}

/**
 * Writes a reference's table of operations and puts the page's URLs (as JSON) and the loader into
 * its page (`page-config.ts` says how): after the page's
 * `load`, once the page is quiet and shows an operation (or the reader has moved), the panel module
 * is imported and started. Returns the page and the table's file.
 */
export async function addTryIt(
  outDir: string,
  versionDir: string,
  html: string,
  operations: readonly TryItOperation[],
  scripts: TryItScripts,
  rootPrefix: string,
): Promise<{ html: string; table: string }> {
  const text = JSON.stringify(operations);
  const table = hashed(`try-it-${versionDir}`, "json", text);
  await writeFile(join(outDir, table), text);
  const page: TryItPage = {
    panel: `${rootPrefix}${scripts.panel}`,
    config: { operations: `${rootPrefix}${table}`, worker: `${rootPrefix}${scripts.worker}` },
  };
  const end = html.lastIndexOf("</body>");
  if (end < 0) throw new Error(`${versionDir}/index.html has no </body>`);
  const elements = tryItElements(page, scripts.loader);
  return { html: `${html.slice(0, end)}${elements}${html.slice(end)}`, table };
}
