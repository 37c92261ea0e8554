/**
 * Remote images that Redoc's bundled script loads on its own: the "API docs by" credit in the
 * side bar. They are swapped for a local credit image so the page makes no request off-site.
 * If a Redoc update renames them, {@link localizeRedocAssets} fails the build rather than
 * letting the request slip through.
 */
const redocCreditImages = [
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg",
  "https://cdn.redoc.ly/redoc/logo-mini.svg",
] as const;

/**
 * File name of the local credit image, relative to the site root.
 *
 * @example
 * ```ts
 * import { copyFile } from "node:fs/promises";
 * import { join } from "node:path";
 * import { redocCreditFile } from "./offline-assets.ts";
 *
 * // A copy of the built site needs the image beside its pages.
 * await copyFile(join("dist", redocCreditFile), join("site-copy", redocCreditFile));
 * ```
 */
export const redocCreditFile = "redoc-credit.svg";

/**
 * Rewrites the remote assets Redoc's inline bundle would fetch at run time to files shipped with
 * the site. `rootPrefix` leads from the page to the site root (e.g. `"../"`).
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { localizeRedocAssets } from "./offline-assets.ts";
 *
 * const html = localizeRedocAssets(await readFile("dist/v2.1/index.html", "utf8"), "../");
 * ```
 */
export function localizeRedocAssets(html: string, rootPrefix: string): string {
  let result = html;
  for (const url of redocCreditImages) {
    if (!result.includes(url)) {
      throw new Error(
        `Redoc output no longer references ${url}; check the new Redoc version for remote assets ` +
          "and update src/offline-assets.ts",
      );
    }
    result = result.split(url).join(`${rootPrefix}${redocCreditFile}`);
  }
  return result;
}

/** A reference from markup or CSS to something outside the site. */
export interface RemoteReference {
  /** Where it was found, e.g. `<script src>` or `@import`. */
  kind: string;
  url: string;
}

const tagAttributes: { tag: string; attribute: string }[] = [
  { tag: "script", attribute: "src" },
  { tag: "link", attribute: "href" },
  { tag: "img", attribute: "src" },
  { tag: "iframe", attribute: "src" },
  { tag: "source", attribute: "src" },
  { tag: "video", attribute: "src" },
  { tag: "audio", attribute: "src" },
  { tag: "embed", attribute: "src" },
  { tag: "object", attribute: "data" },
];

function isRemote(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(url.trim());
}

/**
 * Finds everything in an HTML page or stylesheet that a browser would load from another origin
 * without a click: `src`/`href` of loading tags, CSS `@import` and `url(…)`. Plain links (`<a href>`)
 * are not loads and are not reported.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { findRemoteReferences } from "./offline-assets.ts";
 *
 * const remote = findRemoteReferences(await readFile("dist/index.html", "utf8"));
 * if (remote.length > 0) throw new Error(`remote loads: ${remote.map((r) => r.url).join(", ")}`);
 * ```
 */
export function findRemoteReferences(source: string): RemoteReference[] {
  const found: RemoteReference[] = [];
  for (const { tag, attribute } of tagAttributes) {
    const tagPattern = new RegExp(`<${tag}\\b[^>]*>`, "gi");
    const attributePattern = new RegExp(`\\s${attribute}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i");
    for (const match of source.matchAll(tagPattern)) {
      const value = attributePattern.exec(match[0]);
      const url = value?.[1] ?? value?.[2] ?? value?.[3];
      if (url !== undefined && isRemote(url)) found.push({ kind: `<${tag} ${attribute}>`, url });
    }
  }
  for (const match of source.matchAll(/@import\s+(?:url\()?\s*["']?([^"')\s;]+)/gi)) {
    const url = match[1];
    if (url !== undefined && isRemote(url)) found.push({ kind: "@import", url });
  }
  for (const match of source.matchAll(/url\(\s*["']?([^"')\s]+)["']?\s*\)/gi)) {
    const url = match[1];
    if (url !== undefined && isRemote(url)) found.push({ kind: "url()", url });
  }
  return found;
}
