/**
 * The spec README's generated tables about API 2.1.1, rendered from the full bundle: which
 * reference page each 2.1.1 operation is traced to, and which 2.1 operations have no 2.1.1
 * counterpart (found as the "Migrating to 2.1.1" page finds them), with what the record shows
 * for each (`inventory/without-2.1.1-page.json`, kept by hand). `test/version-tables.test.ts`
 * fails when the README is stale; `pnpm --filter @drill-practice/spec readme:tables` rewrites it.
 */
import { readFileSync } from "node:fs";
import { CURRENT_API_VERSION } from "@drill-practice/tooling/api-versions";
import { markdownTable, replaceBlock } from "@drill-practice/tooling/markdown-blocks";
import { listOperations } from "@drill-practice/tooling/operations";
import { migration } from "../../scripts/spec-diff/migration.ts";

/** The command named in the README's markers. */
export const TABLES_COMMAND = "pnpm --filter @drill-practice/spec readme:tables";

type Doc = Record<string, unknown>;
interface Marked {
  operationId: string;
  "x-observed"?: { source?: string };
}

/** The hand-kept notes: what the record shows for a 2.1 operation without a 2.1.1 page. */
export function withoutPageNotes(): Record<string, string> {
  const file = new URL("../inventory/without-2.1.1-page.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { notes: Record<string, string> }).notes;
}

/** Page → operation: every operation of the current version with the source of its own marker. */
export function renderPagesTable(full: Doc): string {
  const rows = listOperations<Marked>(full)
    .filter(({ path }) => path.startsWith(CURRENT_API_VERSION.prefix))
    .map(({ method, path, operation }) => [
      operation["x-observed"]?.source ?? "(no marker)",
      `\`${method.toUpperCase()} ${path}\``,
      `\`${operation.operationId}\``,
    ])
    .sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`, "en"));
  return markdownTable(["Page (or other evidence)", "Operation", "operationId"], rows);
}

/** The 2.1 operations whose path has no 2.1.1 counterpart, with the hand-kept notes. */
export function renderWithoutPageTable(full: Doc, notes: Record<string, string>): string {
  const rows = migration(full, "2.1", CURRENT_API_VERSION.id)
    .entries.filter((entry) => entry.to === undefined)
    .map(({ from }) => [
      `\`${from.method} ${from.path}\``,
      `\`${from.operationId}\``,
      notes[from.operationId] ?? "not recorded yet",
    ]);
  return markdownTable(["2.1 operation", "operationId", "What the record shows"], rows);
}

/**
 * The README with both tables brought up to date.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { updateVersionTables, withoutPageNotes } from "./version-tables.ts";
 *
 * const full = JSON.parse(readFileSync("dist/openapi.json", "utf8"));
 * const readme = updateVersionTables(readFileSync("README.md", "utf8"), full, withoutPageNotes());
 * ```
 */
export function updateVersionTables(readme: string, full: Doc, notes: Record<string, string>): string {
  const pages = replaceBlock(readme, "v2.1.1-pages", TABLES_COMMAND, renderPagesTable(full));
  return replaceBlock(pages, "v2.1-without-page", TABLES_COMMAND, renderWithoutPageTable(full, notes));
}
