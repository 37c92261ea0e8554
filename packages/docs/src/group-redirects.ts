import type { OpenApiDocument } from "./openapi-document.ts";
import { type ApiVersion, apiVersions } from "./site-header.ts";

/** A page at `<dir>/index.html` that forwards to a group of a reference. */
export interface GroupRedirect {
  dir: string;
  target: string;
  html: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Redoc links each side-menu group to `/<tag>` (e.g. `/v2.1-store`) and handles the click itself,
 * so the link works in place but is a 404 when opened in a new tab. One small page per tag at that
 * path forwards to the group in its reference. A tag both versions share (the token exchange)
 * forwards to the newest version. A tag named like a guide (`authentication`, beside
 * `authentication.html`) leaves that path to the guide: its page forwards there, so that
 * `/authentication` is the guide on every host, and the guide links to the reference.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { groupRedirects } from "./group-redirects.ts";
 * import { asOpenApiDocument } from "./openapi-document.ts";
 * import { apiVersions } from "./site-header.ts";
 *
 * const bundles = await Promise.all(
 *   apiVersions.map(async (version) => {
 *     const path = `../../spec/dist/${version.bundle}`;
 *     return { version, bundle: asOpenApiDocument(JSON.parse(await readFile(path, "utf8")), path) };
 *   }),
 * );
 * const pages = groupRedirects(bundles, ["authentication.html"]);
 * ```
 */
export function groupRedirects(
  bundles: readonly { version: ApiVersion; bundle: OpenApiDocument }[],
  guideFiles: readonly string[] = [],
): GroupRedirect[] {
  const byTag = new Map<string, ApiVersion>();
  for (const version of apiVersions) {
    const bundle = bundles.find((entry) => entry.version.id === version.id)?.bundle;
    for (const group of bundle?.["x-tagGroups"] ?? []) {
      for (const tag of group.tags) if (!byTag.has(tag)) byTag.set(tag, version);
    }
  }
  return [...byTag].map(([tag, version]) => {
    // Redoc links a group by its tag as a URL path segment; ours are already slugs, and any
    // other name is made one the same simple way (lower case, runs of other characters as "-").
    const slug = /^[\w.-]+$/.test(tag) ? tag : tag.toLowerCase().replace(/[^\w.]+/g, "-");
    const guide = guideFiles.includes(`${slug}.html`);
    const target = guide ? `../${slug}.html` : `../${version.dir}/index.html#/${slug}`;
    const title = guide ? `The ${slug} guide` : `API ${version.id} reference`;
    const label = guide ? `Go to the ${slug} guide` : `Go to the ${tag} operations of API ${version.id}`;
    const html = [
      "<!DOCTYPE html>",
      '<html lang="en"><head><meta charset="utf-8">',
      `<title>${escapeHtml(title)} · Drill Practice API</title>`,
      `<meta http-equiv="refresh" content="0; url=${escapeHtml(target)}">`,
      `<link rel="canonical" href="${escapeHtml(target)}">`,
      `</head><body><p><a href="${escapeHtml(target)}">${escapeHtml(label)}</a></p></body></html>`,
      "",
    ].join("\n");
    return { dir: slug, target, html };
  });
}
