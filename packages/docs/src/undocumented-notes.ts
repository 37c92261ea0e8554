import { listOperations, type OpenApiDocument } from "./openapi-document.ts";

/** The words every visible note starts with; tests and readers can search for them. */
export const undocumentedNoteLead = "Not shown by the service interface:";

/**
 * Renders the Markdown note for an operation's `x-undocumented` list: a blockquote that
 * Redoc shows at the top of the operation's description.
 *
 * @example
 * undocumentedNote(["request body", "status codes"]);
 * // "> **Not shown by the service interface:** request body, status codes."
 */
export function undocumentedNote(items: readonly string[]): string {
  return `> **${undocumentedNoteLead}** ${items.join(", ")}.`;
}

function readUndocumented(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new Error(`${where}: "x-undocumented" must be a non-empty array of strings`);
  }
  return value.map((item, index) => {
    if (typeof item !== "string" || item.trim() === "") {
      throw new Error(`${where}: "x-undocumented"[${index}] must be a non-empty string`);
    }
    return item.trim();
  });
}

/** What {@link addUndocumentedNotes} produced. */
export interface NotedDocument {
  /** A deep copy of the input with the notes prepended; the input is left untouched. */
  document: OpenApiDocument;
  /** `METHOD path` of every operation that received a note, in document order. */
  noted: string[];
  /** Whether the document's `info` carried the marker and received a note too. */
  notedInfo: boolean;
}

function prependNote(description: string | undefined, note: string): string {
  const text = description?.trim() ?? "";
  // A second pass over an already noted copy must not stack notes.
  if (text.startsWith(note)) return text;
  return text === "" ? note : `${note}\n\n${text}`;
}

/**
 * Redoc does not render unknown vendor extensions, so the `x-undocumented` markers would be
 * invisible in the reference. This copies the document and prepends a visible note to the
 * `description` of every operation that carries the marker, and to the document's own
 * description when `info` carries one; the markers themselves stay in place.
 *
 * @example
 * const { document, noted } = addUndocumentedNotes(bundle);
 * console.log(`${noted.length} operations carry a note`);
 */
export function addUndocumentedNotes(input: OpenApiDocument): NotedDocument {
  const document = structuredClone(input);
  const noted: string[] = [];
  for (const { method, path, operation } of listOperations(document)) {
    if (!("x-undocumented" in operation)) continue;
    const where = `${method.toUpperCase()} ${path}`;
    const note = undocumentedNote(readUndocumented(operation["x-undocumented"], where));
    operation.description = prependNote(operation.description, note);
    noted.push(where);
  }
  const notedInfo = "x-undocumented" in document.info;
  if (notedInfo) {
    const note = undocumentedNote(readUndocumented(document.info["x-undocumented"], "info"));
    document.info.description = prependNote(document.info.description, note);
  }
  return { document, noted, notedInfo };
}
