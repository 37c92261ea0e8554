import { readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** File types worth compressing; images in SVG are text too. */
export const compressibleExtensions = new Set([".html", ".css", ".js", ".json", ".svg", ".txt"]);

/**
 * Writes `<file>.br` and `<file>.gz` next to every compressible file, at the highest levels
 * (the cost is paid once at build, not per request). Returns the files written.
 *
 * @example
 * ```ts
 * import { precompress } from "./precompress.ts";
 *
 * await precompress("dist", ["index.html", "v2.1/index.html"]);
 * ```
 */
export async function precompress(root: string, files: readonly string[]): Promise<string[]> {
  const written: string[] = [];
  await Promise.all(
    files
      .filter((file) => compressibleExtensions.has(extname(file)))
      .map(async (file) => {
        const data = await readFile(join(root, file));
        const [br, gz] = await Promise.all([
          brotli(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
          gzipAsync(data, { level: 9 }),
        ]);
        await Promise.all([writeFile(join(root, `${file}.br`), br), writeFile(join(root, `${file}.gz`), gz)]);
        written.push(`${file}.br`, `${file}.gz`);
      }),
  );
  return written.sort();
}
