import { listOperations } from "@drill-practice/tooling/operations";

type Json = Record<string, unknown>;

/** Tags used by at least one operation of the document. */
export function usedTags(document: Json): Set<string> {
  const used = new Set<string>();
  for (const { operation } of listOperations<{ tags?: string[] }>(document)) {
    for (const tag of operation.tags ?? []) used.add(tag);
  }
  return used;
}

/**
 * Returns a copy of an OpenAPI document without the tags, and `x-tagGroups`
 * entries, that no operation uses (a per-version bundle keeps only its own).
 */
export function pruneUnusedTags(document: Json): Json {
  const used = usedTags(document);
  const tags = ((document.tags ?? []) as { name: string }[]).filter((tag) => used.has(tag.name));
  const groups = ((document["x-tagGroups"] ?? []) as { name: string; tags: string[] }[])
    .map((group) => ({ ...group, tags: group.tags.filter((tag) => used.has(tag)) }))
    .filter((group) => group.tags.length > 0);
  return { ...document, tags, "x-tagGroups": groups };
}
