/**
 * The TypeScript blocks shown to readers: fenced ```ts blocks of every README and the
 * `<code class="language-ts">` blocks of the site's hand-written pages.
 *
 * A block may say how it is checked, in the Markdown as a comment on the line before its fence
 * (`<!-- snippet: type-check only: <why> -->`) and in HTML as `data-snippet` on its `<code>`:
 * - `type-check only: <why>`: compiled but never run (a Worker module, placeholders to fill in);
 * - `continues`: the next step of the block before it on the same page, which it is joined to.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One block as the reader sees it, and how the tests treat it. */
export interface Snippet {
  /** `file:line` of the block's first line. */
  origin: string;
  code: string;
  /** Why the block is compiled but not run; absent for a block that runs. */
  typeCheckOnly?: string;
}

const typeOnlyMarker = /^type-check only: (.+)$/;

function applyMarker(snippets: Snippet[], origin: string, code: string, marker: string | undefined): void {
  if (marker === "continues") {
    const previous = snippets.at(-1);
    if (previous === undefined) throw new Error(`${origin}: "continues" but no block before it`);
    previous.code = `${previous.code}\n${code}`;
    return;
  }
  const typeOnly = marker === undefined ? undefined : typeOnlyMarker.exec(marker)?.[1];
  if (marker !== undefined && typeOnly === undefined)
    throw new Error(`${origin}: unknown snippet marker "${marker}"`);
  snippets.push({ origin, code, ...(typeOnly === undefined ? {} : { typeCheckOnly: typeOnly }) });
}

/**
 * The ```ts and ```typescript blocks of a Markdown text.
 *
 * @example
 * ```ts
 * import { markdownSnippets } from "./snippets.ts";
 *
 * const fence = "`".repeat(3);
 * markdownSnippets(`${fence}ts\nconst a = 1;\n${fence}\n`, "README.md");
 * // [{ origin: "README.md:2", code: "const a = 1;\n" }]
 * ```
 */
export function markdownSnippets(text: string, file: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const match of text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)) {
    const before = text.slice(0, match.index);
    const line = before.split("\n").length + 1;
    const marker = /<!-- snippet: (.+?) -->\n$/.exec(before)?.[1];
    applyMarker(snippets, `${file}:${line}`, match[1] ?? "", marker);
  }
  return snippets;
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" };

/**
 * The `<pre><code class="language-ts">` blocks of an HTML page, markup removed and entities decoded.
 *
 * @example
 * ```ts
 * import { htmlSnippets } from "./snippets.ts";
 *
 * htmlSnippets('<pre><code class="language-ts">let a = 1 &lt; 2;</code></pre>', "index.html");
 * // [{ origin: "index.html:1", code: "let a = 1 < 2;\n" }]
 * ```
 */
export function htmlSnippets(html: string, file: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const match of html.matchAll(
    /<pre[^>]*>\s*<code class="language-ts"([^>]*)>([\s\S]*?)<\/code>\s*<\/pre>/g,
  )) {
    const line = html.slice(0, match.index).split("\n").length;
    const marker = /data-snippet="([^"]+)"/.exec(match[1] ?? "")?.[1];
    const code = (match[2] ?? "")
      .replace(/<[^>]+>/g, "")
      .replace(/&(#?\w+);/g, (whole, name: string) => entities[name] ?? whole);
    applyMarker(snippets, `${file}:${line}`, `${code}\n`, marker);
  }
  return snippets;
}

/** The language of every `<pre><code>` block of an HTML page (`undefined` where none is given). */
export function htmlCodeLanguages(html: string): (string | undefined)[] {
  return [...html.matchAll(/<pre[^>]*>\s*<code([^>]*)>/g)].map(
    (match) => /class="language-([\w-]+)"/.exec(match[1] ?? "")?.[1],
  );
}

/**
 * Every README.md of the repository, relative to `root`: outside dependencies and build output, and
 * outside `src/`, whose READMEs describe a package's internals to its maintainers.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { join } from "node:path";
 * import { markdownSnippets, readmeFiles } from "./snippets.ts";
 *
 * const root = "../..";
 * const snippets = readmeFiles(root).flatMap((file) => markdownSnippets(readFileSync(join(root, file), "utf8"), file));
 * ```
 */
export function readmeFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (
        entry.name.startsWith(".") ||
        ["node_modules", "dist", "coverage", "reports", "src"].includes(entry.name)
      )
        continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "README.md") found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** Every TypeScript block of the READMEs and of the site's guide pages (found in `pagesDir`). */
export function readerSnippets(root: string, pagesDir: string, pages: readonly string[]): Snippet[] {
  const snippets: Snippet[] = [];
  for (const file of readmeFiles(root)) {
    snippets.push(...markdownSnippets(readFileSync(join(root, file), "utf8"), file));
  }
  for (const page of pages) {
    const path = join(pagesDir, page);
    snippets.push(...htmlSnippets(readFileSync(path, "utf8"), relative(root, path)));
  }
  return snippets;
}
