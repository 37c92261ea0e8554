/**
 * The "Migrating to 2.1.1" page: each 2.1 operation and its 2.1.1 counterpart (the same call, a
 * changed one and how, or no 2.1.1 page), then the operations new in 2.1.1. Built from the
 * bundles with the spec diff's own comparison (`scripts/spec-diff/migration.ts`), so it says
 * what the description says and nothing else.
 */

import { hasOperations } from "@drill-practice/tooling/operations";
import {
  isUnchanged,
  type Migration,
  type MigrationEntry,
  migration,
} from "../../../scripts/spec-diff/migration.ts";
import type { OpenApiDocument } from "./openapi-document.ts";

type Doc = Record<string, unknown>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/**
 * One description holding every version's operations, from the per-version bundles the site is
 * built from (their shared components are the same objects of the one description).
 */
export function mergedDescription(bundles: readonly OpenApiDocument[]): Doc {
  const paths: Record<string, unknown> = {};
  const components: Record<string, Record<string, unknown>> = {};
  for (const bundle of bundles) {
    const doc = bundle as unknown as { paths?: Record<string, object>; components?: Record<string, Doc> };
    // A per-version bundle keeps the other versions' paths as empty items: they must not hide one.
    for (const [path, item] of Object.entries(doc.paths ?? {})) if (hasOperations(item)) paths[path] = item;
    for (const [kind, entries] of Object.entries(doc.components ?? {})) {
      components[kind] = { ...components[kind], ...entries };
    }
  }
  return { paths, components };
}

const call = (operation: { method: string; path: string; operationId: string }) =>
  `<code>${escapeHtml(`${operation.method} ${operation.path}`)}</code> (<code>${escapeHtml(operation.operationId)}</code>)`;

function changedItem(entry: MigrationEntry): string {
  const changes = entry.changes;
  if (changes === undefined || entry.to === undefined) return "";
  const parts: string[] = [];
  if (changes.path) parts.push(`<li>Path: now <code>${escapeHtml(entry.to.path)}</code>.</li>`);
  const groups = [
    ["Parameters", changes.parameters],
    ["Form fields", changes.fields],
    ["Answer", changes.answer],
    ["Errors", changes.errors],
  ] as const;
  for (const [title, lines] of groups) {
    if (lines.length === 0) continue;
    parts.push(`<li>${title}:<ul>${lines.map((line) => `<li>${inline(line)}</li>`).join("")}</ul></li>`);
  }
  return `<li>${call(entry.from)} → ${call(entry.to)}<ul>${parts.join("")}</ul></li>`;
}

function list(items: readonly string[], empty: string): string {
  return items.length === 0 ? `<p>${empty}</p>` : `<ul class="migration-list">${items.join("")}</ul>`;
}

/** The page's body from a computed migration. */
export function renderMigration(move: Migration): string {
  const same = move.entries.filter(isUnchanged);
  const changed = move.entries.filter((entry) => entry.to !== undefined && !isUnchanged(entry));
  const missing = move.entries.filter((entry) => entry.to === undefined);
  return [
    `<p class="migration-summary">${move.entries.length} operations of API ${move.from}: ${same.length} the same in ${move.to}, ` +
      `${changed.length} changed, ${missing.length} without a ${move.to} page; ${move.added.length} new in ${move.to}.</p>`,
    `<h2 id="changed">Changed in ${move.to}</h2>`,
    list(changed.map(changedItem), "None."),
    `<h2 id="same">The same apart from the version prefix</h2>`,
    list(
      same.map((entry) => (entry.to ? `<li>${call(entry.from)} → ${call(entry.to)}</li>` : "")),
      "None.",
    ),
    `<h2 id="no-page">Without a ${move.to} page</h2>`,
    `<p>No reference page of ${move.to} was found for these, so the description has no ${move.to} operation for them; the spec README's table "2.1 operations without a 2.1.1 page" says what the record does show.</p>`,
    list(
      missing.map((entry) => `<li>${call(entry.from)}</li>`),
      "None.",
    ),
    `<h2 id="new">New in ${move.to}</h2>`,
    list(
      move.added.map((operation) => `<li>${call(operation)}</li>`),
      "None.",
    ),
  ].join("\n");
}

/**
 * The body of the migration page, from the site's bundles.
 *
 * @example
 * ```ts
 * import { migrationPage } from "./migration-page.ts";
 *
 * const body = migrationPage([]); // "<p class=\"migration-summary\">0 operations of API 2.1: …"
 * ```
 */
export function migrationPage(bundles: readonly OpenApiDocument[]): string {
  return renderMigration(migration(mergedDescription(bundles), "2.1", "2.1.1"));
}
