/**
 * The Try it configuration a reference page carries as data, right before its loader: the build
 * writes both elements, the loader reads the configuration, and the tests and the bench find the
 * page's URLs (or leave the panel out) by these marks instead of by the shape of minified code.
 */
import type { TryItConfig } from "./page/panel.ts";

/** A page's panel module and the panel's configuration, relative to the page. */
export interface TryItPage {
  panel: string;
  config: TryItConfig;
}

/** The `id` of the page's configuration, a `<script type="application/json">`, which the loader reads. */
export const TRY_IT_PAGE_ID = "try-it-page";

const configOpen = `<script type="application/json" id="${TRY_IT_PAGE_ID}">`;
const loaderOpen = '<script type="module" data-try-it-loader>';
const close = "</script>";

/**
 * The configuration and the loader as the page gets them, one element a line. The JSON has every `<`
 * as `\u003c` (which `JSON.parse` reads back as `<`), so no `</script>` or `<!--` in a URL can end
 * or hide the element.
 */
export function tryItElements(page: TryItPage, loader: string): string {
  const json = JSON.stringify(page).replaceAll("<", "\\u003c");
  return `${configOpen}${json}${close}\n${loaderOpen}${loader}${close}\n`;
}

/**
 * Where `open`'s element starts in `html` (the page `name`), its content, and where it ends (with the
 * line break after it).
 */
function element(html: string, name: string, open: string): { start: number; content: string; end: number } {
  const start = html.indexOf(open);
  const contentEnd = start < 0 ? -1 : html.indexOf(close, start);
  if (contentEnd < 0) throw new Error(`${name} has no ${open}`);
  const after = contentEnd + close.length;
  const end = html[after] === "\n" ? after + 1 : after;
  return { start, content: html.slice(start + open.length, contentEnd), end };
}

/**
 * The configuration a built page (named `name` in errors) carries; throws when the page has none.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { join } from "node:path";
 * import { readTryItPage } from "./page-config.ts";
 *
 * const html = await readFile("dist/v2.1/index.html", "utf8");
 * const { config } = readTryItPage(html, "v2.1/index.html");
 * // The URLs are relative to the page.
 * const table = await readFile(join("dist/v2.1", config.operations), "utf8");
 * ```
 */
export function readTryItPage(html: string, name: string): TryItPage {
  return JSON.parse(element(html, name, configOpen).content) as TryItPage;
}

/**
 * The page without its Try it configuration and loader, as if the build had added no panel; throws
 * when either is missing, so a page is never compared with itself.
 *
 * @example
 * ```ts
 * import { readFile, writeFile } from "node:fs/promises";
 * import { withoutTryIt } from "./page-config.ts";
 *
 * const html = await readFile("dist/v2.1/index.html", "utf8");
 * await writeFile("dist/v2.1/without-try-it.html", withoutTryIt(html, "v2.1/index.html"));
 * ```
 */
export function withoutTryIt(html: string, name: string): string {
  let page = html;
  for (const open of [configOpen, loaderOpen]) {
    const found = element(page, name, open);
    page = `${page.slice(0, found.start)}${page.slice(found.end)}`;
  }
  return page;
}
