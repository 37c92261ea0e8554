import { isRecord } from "@drill-practice/tooling/json-pointer";
import { listOperations, type OpenApiDocument } from "./openapi-document.ts";

/**
 * The shared error answers (their texts are generic) and the schema each answers: the service's
 * errors, and the token exchange's OAuth errors.
 */
const sharedErrors: Readonly<Record<string, string>> = {
  "#/components/responses/Error": "#/components/schemas/ErrorResponse",
  "#/components/responses/OAuthError": "#/components/schemas/OAuthError",
};

interface ErrorTable {
  ids: { id: string; status?: number }[];
  truncated?: boolean;
}

function readTable(value: unknown, where: string): ErrorTable {
  const ids = isRecord(value) ? value.ids : undefined;
  if (!Array.isArray(ids) || ids.length === 0)
    throw new Error(`${where}: "x-errors".ids must be a non-empty list`);
  return {
    ids: ids.map((entry, index) => {
      if (!isRecord(entry) || typeof entry.id !== "string" || entry.id === "")
        throw new Error(`${where}: "x-errors".ids[${index}] needs an id`);
      if (entry.status !== undefined && typeof entry.status !== "number")
        throw new Error(`${where}: "x-errors".ids[${index}].status must be a number`);
      return entry.status === undefined ? { id: entry.id } : { id: entry.id, status: entry.status };
    }),
    truncated: isRecord(value) && value.truncated === true,
  };
}

const code = (id: string) => `\`${id}\``;

/** The text of one error answer: the spec's own words, completed with any identifier they leave out. */
function describe(own: unknown, ids: string[], lead: string): string {
  const text = typeof own === "string" && own.trim() !== "" ? own.trim() : "";
  const missing = ids.filter((id) => !text.includes(code(id)));
  if (missing.length === 0 && text !== "") return text;
  const listed = `${lead}: ${missing.map(code).join(", ")}.`;
  return text === "" ? listed : `${text} ${listed}`;
}

function errorAnswer(
  description: string,
  id: string | undefined,
  schemaRef: string,
): Record<string, unknown> {
  const media: Record<string, unknown> = { schema: { $ref: schemaRef } };
  // Both spellings of the identifier, as the client reads them (ID: interface, id: reference pages);
  // an OAuth error has the reference's `id` only.
  if (id !== undefined)
    media.example = schemaRef === sharedErrors["#/components/responses/Error"] ? { ID: id, id } : { id };
  return { description, content: { "application/json": media } };
}

/**
 * Redoc ignores text written beside a `$ref`, so every error answer of an operation with an error
 * table (`x-errors`) would show the shared answer's generic text and its `query_missing` example.
 * This gives each such answer its own copy: the identifiers of that status code (those the page
 * lists without a code under `default`, saying so), and an example built from the first of them.
 * Operations without a table keep the shared answer. Returns a copy and the operations changed.
 */
export function showErrorTables(input: OpenApiDocument): { document: OpenApiDocument; shown: string[] } {
  const document = structuredClone(input);
  const shown: string[] = [];
  for (const { method, path, operation } of listOperations(document)) {
    if (!("x-errors" in operation)) continue;
    const where = `${method.toUpperCase()} ${path}`;
    const table = readTable(operation["x-errors"], where);
    const responses = (operation.responses ?? {}) as Record<string, unknown>;
    const uncoded = table.ids.filter((entry) => entry.status === undefined).map((entry) => entry.id);
    const uncodedLead = "Identifiers the reference page lists without a status code";
    for (const [status, response] of Object.entries(responses)) {
      if (!isRecord(response)) continue;
      const ids =
        status === "default"
          ? uncoded
          : table.ids.filter((entry) => String(entry.status) === status).map((entry) => entry.id);
      const schemaRef = typeof response.$ref === "string" ? sharedErrors[response.$ref] : undefined;
      if (schemaRef === undefined) {
        // An answer of its own (a success, or an error the spec words itself): its text gains the
        // identifiers it leaves out, the rest of it stays.
        if (ids.length > 0)
          responses[status] = {
            ...response,
            description: describe(
              response.description,
              ids,
              status === "default" ? uncodedLead : `Status ${status}`,
            ),
          };
        continue;
      }
      if (status === "default") {
        const own = typeof response.description === "string" ? response.description.trim() : "";
        const description =
          uncoded.length > 0
            ? describe(own, uncoded, uncodedLead)
            : own !== ""
              ? own
              : "Any other error. The identifiers of this operation's error table are listed under their status codes.";
        responses[status] = errorAnswer(description, uncoded[0] ?? table.ids[0]?.id, schemaRef);
        continue;
      }
      if (ids.length === 0) throw new Error(`${where}: the ${status} answer has no identifier in "x-errors"`);
      responses[status] = errorAnswer(
        describe(response.description, ids, `Status ${status}`),
        ids[0],
        schemaRef,
      );
    }
    // Identifiers without a code on an operation that has no catch-all answer get one to be shown in.
    if (uncoded.length > 0 && !("default" in responses))
      responses.default = errorAnswer(
        describe("", uncoded, uncodedLead),
        uncoded[0],
        sharedErrors["#/components/responses/Error"] as string,
      );
    const coded = new Set(Object.keys(responses));
    const lost = table.ids.filter((entry) => entry.status !== undefined && !coded.has(String(entry.status)));
    if (lost.length > 0) throw new Error(`${where}: no ${lost[0]?.status} answer for ${lost[0]?.id}`);
    shown.push(where);
  }
  return { document, shown };
}
