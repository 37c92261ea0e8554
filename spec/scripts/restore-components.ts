type Json = Record<string, unknown>;
type Components = Record<string, Record<string, unknown>>;

const REF = /^#\/components\/([^/]+)\/([^/]+)$/;

function refsOf(node: unknown, found: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      const match = key === "$ref" && typeof value === "string" ? REF.exec(value) : null;
      if (match) found.push([match[1] as string, match[2] as string]);
      else refsOf(value, found);
    }
  }
  return found;
}

/**
 * Returns a copy of a per-version bundle whose components are those of the full bundle, plus every
 * component they reference. Redocly's `filter-in` decorator, filtering operations by `tags`, also
 * filters any other node that has a key `tags`: a schema with a form field named `tags` lost all its
 * `properties` in the per-version bundles. Components are shared text, so the full bundle's copy
 * is the right one.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { restoreComponents } from "./restore-components.ts";
 *
 * const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, "utf8"));
 * const fixed = restoreComponents(read("dist/openapi-v2.1.json"), read("dist/openapi.json"));
 * ```
 */
export function restoreComponents(target: Json, full: Json): Json {
  const source = (full.components ?? {}) as Components;
  const kept = (target.components ?? {}) as Components;
  const components: Components = {};
  const pending: [string, string][] = [];
  for (const [kind, entries] of Object.entries(kept))
    for (const name of Object.keys(entries)) pending.push([kind, name]);
  pending.push(...refsOf(target.paths));
  while (pending.length > 0) {
    const [kind, name] = pending.pop() as [string, string];
    if (components[kind]?.[name] !== undefined) continue;
    const value = source[kind]?.[name] ?? kept[kind]?.[name];
    if (value === undefined)
      throw new Error(`spec bundle: component ${kind}/${name} is missing from the full bundle`);
    components[kind] = { ...components[kind], [name]: value };
    pending.push(...refsOf(value));
  }
  return { ...target, components };
}
