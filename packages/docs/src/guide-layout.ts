import { fillMarkers } from "./page-markers.ts";

const pageShape = /^<head>\n([\s\S]*?)\n<\/head>\n<main>\n([\s\S]*?)\n<\/main>\n$/;

/**
 * Puts a guide into the layout every guide shares (`site/layout.html`: doctype, icon, style
 * sheet, colour-mode script, site header), so a guide's file holds only what is its own: a
 * `<head>` with its title and description and its `<main>`, each placed line for line.
 */
export function layoutGuidePage(
  layout: string,
  page: string,
  shared: { "site-header": string; "color-mode": string },
  source: string,
): string {
  const parts = pageShape.exec(page);
  if (parts === null) {
    throw new Error(
      `${source}: a guide holds a <head>…</head> then a <main>…</main>, each on lines of their own`,
    );
  }
  return fillMarkers(
    layout,
    { ...shared, "page-head": parts[1] as string, "page-main": parts[2] as string },
    "site/layout.html",
  );
}
