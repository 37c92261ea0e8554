import { createHash } from "node:crypto";

/** The directory, relative to the site root, of assets whose names carry a content hash. */
export const assetDir = "assets";

/**
 * A fingerprinted asset: `assets/<name>.<hash>.<ext>` (a name may have dots: `try-it-v2.1`); its
 * content never changes under that name.
 */
export const fingerprintedAsset = /^assets\/[\w.-]+\.[0-9a-f]{16}\.\w+$/;

/** What {@link splitRedocBundle} took out of a page. */
export interface SplitPage {
  /** The page with an `import` of the shared bundle in place of the inlined one. */
  html: string;
  /** The bundle's file, relative to the site root (`assets/redoc.<hash>.js`). */
  file: string;
  /** The bundle's source. */
  source: string;
}

const moduleOpen = '<script type="module">';
const bundleEnd = "export{RedocStandalone,hydrate,init};";

/**
 * `redocly build-docs --inlineBundle` puts Redoc's 2 MB module into every page. This moves it
 * into one file named by its content hash, shared by both references and cacheable for good,
 * and leaves a small module in the page that imports it and hydrates the page's own definition.
 * A `modulepreload` in the head starts the download before the parser reaches the body.
 * `rootPrefix` leads from the page to the site root. Fails if Redoc's output changes shape.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { splitRedocBundle } from "./shared-redoc.ts";
 *
 * const pageHtml = await readFile("dist/v2.1/index.html", "utf8");
 * const { html, file, source } = splitRedocBundle(pageHtml, "../");
 * ```
 */
export function splitRedocBundle(html: string, rootPrefix: string): SplitPage {
  const start = html.indexOf(moduleOpen);
  const end = start < 0 ? -1 : html.indexOf(bundleEnd, start);
  if (start < 0 || end < 0) {
    throw new Error(
      "Redoc's page no longer has its bundle as one inline module ending in " +
        `"${bundleEnd}"; check src/shared-redoc.ts against the new Redoc version`,
    );
  }
  const source = `${html.slice(start + moduleOpen.length, end + bundleEnd.length).trim()}\n`;
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const file = `${assetDir}/redoc.${hash}.js`;
  const url = `${rootPrefix}${file}`;
  const page = `${html.slice(0, start)}${moduleOpen}import { hydrate } from "${url}";${html.slice(end + bundleEnd.length)}`;
  const head = page.indexOf("</head>");
  if (head < 0) throw new Error("the reference page has no </head>");
  const withPreload = `${page.slice(0, head)}<link rel="modulepreload" href="${url}">\n${page.slice(head)}`;
  return { html: withPreload, file, source };
}
