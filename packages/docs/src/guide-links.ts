import { listOperations, type OpenApiDocument } from "./openapi-document.ts";

/**
 * Schemas that the prose of the references names but cannot show: only the token request's
 * `x-jwt-*` extensions reach them, so Redoc renders them nowhere. The authentication guide
 * explains each one; this maps a name to its section there.
 */
const GUIDE_SECTIONS: Readonly<Record<string, string>> = {
  ServiceAccountKeyFile: "key-file",
  AssertionHeader: "assertion",
  AssertionClaims: "assertion",
};

/** Where the guide is, seen from a reference page (`v2.1/index.html`). */
const GUIDE_PAGE = "../authentication.html";

const NAMED = new RegExp(`\`(${Object.keys(GUIDE_SECTIONS).join("|")})\``, "g");

function linked(text: string): string {
  return text.replace(NAMED, (_span, name: string) => `[\`${name}\`](${GUIDE_PAGE}#${GUIDE_SECTIONS[name]})`);
}

/**
 * Turns each mention of those schemas (as a code span) in the descriptions of tags, operations
 * and schemas into a link to the guide's section on it, so a reader told to "see
 * `AssertionClaims`" can. Returns a copy.
 */
export function linkGuideSchemas(input: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(input);
  for (const tag of document.tags ?? []) {
    if (typeof tag.description === "string") tag.description = linked(tag.description);
  }
  for (const { operation } of listOperations(document)) {
    if (typeof operation.description === "string") operation.description = linked(operation.description);
  }
  const components = document.components as { schemas?: Record<string, unknown> } | undefined;
  linkDescriptions(components?.schemas);
  return document;
}

/** Every `description` in schemas and their properties (the token request's `assertion` names two). */
function linkDescriptions(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) linkDescriptions(item);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(record)) {
    // Examples are data, not prose.
    if (key === "example" || key === "examples") continue;
    if (key === "description" && typeof child === "string") record[key] = linked(child);
    else linkDescriptions(child);
  }
}
