/**
 * Redoc's server-rendered page carries styled-components' styles twice over: once in a `<style>`
 * tag for the first paint, once in Redoc's script, which injects its whole theme again when it
 * hydrates. The theme is a global style of about 2,900 custom properties (210 kB, 25 kB
 * compressed), most of them for components a reference never shows. Before the script runs, the
 * page can only use what its own styles and markup reach, so the server copy keeps just that; the
 * script brings the rest. A page's first transfer is then about 15 kB lighter and paints the same.
 */

/** What {@link pruneServerStyles} left out of a page. */
export interface PrunedServerStyles {
  /** The page, its styled-components `<style>` tag trimmed. */
  html: string;
  /** Custom properties taken out of the theme's `:root` rule. */
  droppedProperties: number;
  /** Theme rules taken out because they only reach elements with classes the page does not have. */
  droppedRules: number;
}

const styleTag = /<style data-styled="true"[^>]*>([\s\S]*?)<\/style>/;
/** The marker styled-components writes after each group's rules; it rehydrates from these. */
const groupMarker = /data-styled\.g\d+\[id="([^"]+)"\]\{content:"[^"]*"\}\/\*!sc\*\//g;
const ruleEnd = "/*!sc*/";
const varReference = /var\(\s*(--[\w-]+)/g;

/** One global group's text, cut at its rules; the last piece is the group's marker. */
interface GlobalGroup {
  text: string;
  rules: string[];
}

/** The text of every `sc-global-…` group in the style tag, in order. */
function globalGroups(styles: string): GlobalGroup[] {
  const groups: GlobalGroup[] = [];
  let start = 0;
  for (const marker of styles.matchAll(groupMarker)) {
    const end = (marker.index ?? 0) + marker[0].length;
    if (marker[1]?.startsWith("sc-global-")) {
      const text = styles.slice(start, end);
      groups.push({
        text,
        rules: text.split(ruleEnd).map((rule, i, all) => (i < all.length - 1 ? rule + ruleEnd : rule)),
      });
    }
    start = end;
  }
  return groups;
}

/** Splits `text` at `separator` where it is outside brackets and strings. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (text.slice(start).trim() !== "") parts.push(text.slice(start));
  return parts;
}

/**
 * Whether a rule can match nothing in the page: every selector in its list names, below the
 * root, a class the markup does not have. Anything this cannot read (an at-rule, a pseudo-class
 * with arguments) is taken as reaching the page.
 */
function reachesNothing(rule: string, classes: ReadonlySet<string>): boolean {
  const selectors = rule.slice(0, rule.indexOf("{")).trim();
  if (selectors === "" || selectors.startsWith("@") || selectors.includes("(")) return false;
  return splitTopLevel(selectors, ",").every((selector) => {
    // Only the theme's rules hang below `:root`; the group's marker, for one, does not.
    if (!selector.trim().startsWith(":root")) return false;
    // Classes on the root itself (`:root.dark`) are set by the page's colour-mode script.
    const below = selector.trim().replace(/^:root(?:\.[\w-]+)*/, "");
    return [...below.matchAll(/\.([\w-]+)/g)].some((match) => !classes.has(match[1] as string));
  });
}

/** The custom properties `used` reaches through the declarations in `declared`, itself included. */
function reachable(used: Iterable<string>, declared: ReadonlyMap<string, string>): Set<string> {
  const reached = new Set<string>();
  const queue = [...used];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    for (const match of (declared.get(name) ?? "").matchAll(varReference)) queue.push(match[1] as string);
  }
  return reached;
}

/** The `:root{…}` rule of a group, with only the custom properties in `keep` (other declarations stay). */
function trimRoot(rule: string, keep: (name: string) => boolean): { rule: string; dropped: number } {
  const open = rule.indexOf("{");
  const close = rule.lastIndexOf("}");
  const declarations = splitTopLevel(rule.slice(open + 1, close), ";");
  const kept = declarations.filter((declaration) => {
    const name = declaration.slice(0, declaration.indexOf(":")).trim();
    return !name.startsWith("--") || keep(name);
  });
  return {
    rule: `${rule.slice(0, open + 1)}${kept.join(";")}${rule.slice(close)}`,
    dropped: declarations.length - kept.length,
  };
}

/** Every custom property a `:root{…}` rule declares, by name, with its declaration. */
function rootDeclarations(rules: readonly string[]): Map<string, string> {
  const declared = new Map<string, string>();
  for (const rule of rules.filter(isRootRule)) {
    for (const declaration of splitTopLevel(rule.slice(rule.indexOf("{") + 1, rule.lastIndexOf("}")), ";")) {
      const name = declaration.slice(0, declaration.indexOf(":")).trim();
      if (name.startsWith("--")) declared.set(name, declaration);
    }
  }
  return declared;
}

const isRootRule = (rule: string) => rule.slice(0, rule.indexOf("{")).trim() === ":root";

/**
 * Trims the theme in a Redoc page's server styles to what the page reaches before Redoc's script
 * runs: theme rules for classes the markup lacks go, and so do the `:root` custom properties that
 * no remaining style, inline style or markup refers to, directly or through another property.
 * Component rules and the markers styled-components rehydrates from are left as they are. Fails if
 * the page has no styled-components style tag or no global group, as after a change in Redoc.
 *
 * @example
 * ```ts
 * import { readFile, writeFile } from "node:fs/promises";
 * import { pruneServerStyles } from "./server-styles.ts";
 *
 * const page = "dist/v2.1.1/index.html";
 * const { html, droppedProperties } = pruneServerStyles(await readFile(page, "utf8"));
 * await writeFile(page, html);
 * console.log(`left ${droppedProperties} theme properties to Redoc's script`);
 * ```
 */
export function pruneServerStyles(html: string): PrunedServerStyles {
  const styles = styleTag.exec(html)?.[1];
  const groups = styles === undefined ? [] : globalGroups(styles);
  if (styles === undefined || groups.length === 0) {
    throw new Error(
      "the Redoc page has no styled-components style tag with a global group; check src/server-styles.ts against the new Redoc version",
    );
  }
  const markup = html.replace(/<(style|script)\b[^>]*>[\s\S]*?<\/\1>/g, "");
  const classes = new Set(
    [...markup.matchAll(/\bclass="([^"]*)"/g)].flatMap((m) => (m[1] as string).split(/\s+/)),
  );
  const kept = groups.map((group) => group.rules.filter((rule) => !reachesNothing(rule, classes)));
  const roots = kept.flat().filter(isRootRule);
  const declared = rootDeclarations(roots);
  // Everything else on the page may refer to a theme property: component rules, the site's own
  // styles, inline styles, the kept theme rules and the root rules' other declarations.
  let rest = html;
  for (const group of groups) rest = rest.replace(group.text, () => "");
  const elsewhere = [rest, ...kept.flat().filter((rule) => !isRootRule(rule))].join("\n");
  const rootOthers = roots.map((rule) => trimRoot(rule, () => false).rule).join("\n");
  const used = reachable(
    [...`${elsewhere}\n${rootOthers}`.matchAll(varReference)].map((m) => m[1] as string),
    declared,
  );
  let pruned = styles;
  let droppedProperties = 0;
  groups.forEach((group, i) => {
    const rules = (kept[i] as string[]).map((rule) => {
      if (!isRootRule(rule)) return rule;
      const trimmed = trimRoot(rule, (name) => used.has(name));
      droppedProperties += trimmed.dropped;
      return trimmed.rule;
    });
    pruned = pruned.replace(group.text, () => rules.join(""));
  });
  const droppedRules = groups.reduce(
    (n, group, i) => n + group.rules.length - (kept[i] as string[]).length,
    0,
  );
  return { html: html.replace(styles, () => pruned), droppedProperties, droppedRules };
}
