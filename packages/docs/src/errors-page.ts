import { DRILL_ERROR_CODES } from "@drill-practice/client";
import { listOperations, type OpenApiDocument, resolveRef } from "./openapi-document.ts";
import { tokenEndpointErrors } from "./token-errors.ts";

/**
 * The SDK's error codes with their meaning and packages. This is the one line to change should
 * the table move: everything below reads `{ code: { meaning, packages } }`.
 */
export const sdkErrorCodes: Readonly<Record<string, { meaning: string; packages: readonly string[] }>> =
  DRILL_ERROR_CODES;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** One error ID the interface gives for the store search, with the example's summary. */
export interface StoreErrorId {
  id: string;
  meaning: string;
  operations: string[];
}

/**
 * The error IDs the interface shows, read from the examples of each operation's error answer
 * (today only the store search has any).
 */
export function storeErrorIds(documents: readonly OpenApiDocument[]): StoreErrorId[] {
  const byId = new Map<string, StoreErrorId>();
  for (const document of documents) {
    for (const { method, path, operation } of listOperations(document)) {
      const responses = (operation.responses ?? {}) as Record<string, unknown>;
      const error = resolveRef<
        { content?: Record<string, { examples?: Record<string, unknown> }> } | undefined
      >(document, responses.default);
      for (const media of Object.values(error?.content ?? {})) {
        for (const raw of Object.values(media.examples ?? {})) {
          const example = resolveRef<{ summary?: string; value?: { ID?: unknown } }>(document, raw);
          const id = example.value?.ID;
          if (typeof id !== "string") continue;
          const entry = byId.get(id) ?? { id, meaning: example.summary ?? "", operations: [] };
          const where = `${method.toUpperCase()} ${path}`;
          if (!entry.operations.includes(where)) entry.operations.push(where);
          byId.set(id, entry);
        }
      }
    }
  }
  return [...byId.values()];
}

/** One generated part of the errors page: a heading, a paragraph saying where the rows come from, and the table. */
function tableSection(
  heading: { id: string; title: string },
  intro: string,
  columns: readonly string[],
  cells: readonly string[][],
): string {
  return [
    `<h2 id="${heading.id}">${heading.title}</h2>`,
    `<p>${intro}</p>`,
    `<table><thead><tr>${columns.map((column) => `<th>${column}</th>`).join("")}</tr></thead><tbody>`,
    cells.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("\n"),
    "</tbody></table>",
  ].join("\n");
}

/**
 * The generated tables of the errors page: the interface's error IDs, the token endpoint's
 * errors as the sandbox answers them, and every SDK error code.
 */
export function renderErrorsPage(documents: readonly OpenApiDocument[]): string {
  const storeIds = storeErrorIds(documents);
  if (storeIds.length === 0)
    throw new Error("the spec shows no error IDs (examples of an error answer's ID)");
  return [
    tableSection(
      { id: "service-errors", title: "Error IDs of the service" },
      "The interface names one field of an error, <code>ID</code>, and gives its values for one operation only. Status codes of errors are not shown.",
      ["ID", "Meaning", "Operations"],
      storeIds.map((e) => [
        `<code>${escapeHtml(e.id)}</code>`,
        inline(e.meaning),
        e.operations.map((o) => `<code>${escapeHtml(o)}</code>`).join("<br>"),
      ]),
    ),
    tableSection(
      { id: "token-errors", title: 'Errors of the token endpoint <span class="badge">sandbox</span>' },
      "The interface does not show the token endpoint's error answers. The service's reference shows an OAuth error object with <code>id</code> and <code>description</code>; the sandbox answers those and, with the same values, RFC 6749's <code>error</code> and <code>error_description</code>. The identifiers and statuses below are the sandbox's: do not rely on them against the real service.",
      ["<code>error</code>", "Status", "When", "What to do"],
      tokenEndpointErrors.map((e) => [
        `<code>${escapeHtml(e.error)}</code>`,
        String(e.status),
        inline(e.when),
        inline(e.fix),
      ]),
    ),
    tableSection(
      { id: "sdk-errors", title: "Error codes of the SDK" },
      "Every error <code>@drill-practice/client</code> and <code>@drill-practice/auth</code> throw on purpose is a <code>DrillError</code> with one of these <code>code</code> values; switch on the code, not on the message.",
      ["<code>code</code>", "Meaning", "Thrown by"],
      Object.entries(sdkErrorCodes).map(([code, info]) => [
        `<code id="${escapeHtml(code)}">${escapeHtml(code)}</code>`,
        inline(info.meaning),
        info.packages.map((p) => `<code>@drill-practice/${escapeHtml(p)}</code>`).join(" "),
      ]),
    ),
  ].join("\n");
}
