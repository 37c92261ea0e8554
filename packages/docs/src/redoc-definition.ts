import { escapeToken, isRecord } from "@drill-practice/tooling/json-pointer";
import { HTTP_METHODS } from "@drill-practice/tooling/operations";
import { type OpenApiDocument, pointerTarget } from "./openapi-document.ts";

/**
 * The vendor extensions Redoc 3 reads (its documented ones, and those its bundle looks up). Any
 * other `x-` key renders nowhere unless `showExtensions` is set, which the site does not do.
 */
const redocExtensions: ReadonlySet<string> = new Set([
  "x-additionalPropertiesName",
  "x-badges",
  "x-circular-ref",
  "x-code-samples",
  "x-codeSamples",
  "x-displayName",
  "x-enumDescriptions",
  "x-examples",
  "x-explicitMappingOnly",
  "x-extendedDiscriminator",
  "x-hideTryItPanel",
  "x-ignoredHeaderParameters",
  "x-logo",
  "x-nullable",
  "x-servers",
  "x-summary",
  "x-tagGroups",
  "x-tags",
  "x-traitTag",
  "x-webhooks",
]);

/** Values that are data (examples, defaults, allowed values): copied as they are. */
const dataKeys = new Set(["example", "examples", "default", "enum", "const", "x-codeSamples"]);

/**
 * Objects whose keys are names (a property, a header, a media type, a component), not fields:
 * a key there that starts with `x-` is a name and stays; their values are walked as usual.
 */
const nameMaps = new Set([
  "schemas",
  "responses",
  "requestBodies",
  "securitySchemes",
  "properties",
  "patternProperties",
  "$defs",
  "headers",
  "content",
  "encoding",
  "links",
  "callbacks",
  "variables",
  "mapping",
  "scopes",
]);

/**
 * `additionalProperties: true` beside named fields: Redoc shows it as a row "property name*
 * any additional property", which reads as a required field, while the client's types refuse
 * fields the page does not name. The description stays open; the page lists the named fields.
 */
function isOpenBesideNamedFields(key: string, child: unknown, schema: Record<string, unknown>): boolean {
  return key === "additionalProperties" && child === true && isRecord(schema.properties);
}

function withoutExtensions(value: unknown, keysAreNames = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutExtensions(item));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (keysAreNames) out[key] = withoutExtensions(child);
    else if (dataKeys.has(key)) out[key] = child;
    else if (isOpenBesideNamedFields(key, child, value)) continue;
    else if (!key.startsWith("x-") || redocExtensions.has(key)) {
      out[key] = withoutExtensions(child, nameMaps.has(key));
    }
  }
  return out;
}

function collectRefs(value: unknown, into: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") into.push(child);
      else collectRefs(child, into);
    }
  }
}

/**
 * The copy of a version's definition that its reference page inlines for Redoc, holding only
 * what Redoc renders. The docs build has already turned the spec's own markers (`x-undocumented`,
 * `x-observed`, …) into notes in the descriptions, so the raw markers are dropped, as are path
 * items without an operation (path-level parameters of the other version's paths) and components
 * nothing the page shows refers to. Security schemes stay: requirements name them, not `$ref`
 * them. An object schema that names its fields shows them only (no "any additional property"
 * row). The unmodified bundle is what the page offers for download.
 */
export function redocDefinition(input: OpenApiDocument): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(input.paths ?? {})) {
    if (HTTP_METHODS.some((method) => isRecord(item[method]))) paths[path] = item;
  }
  const document = withoutExtensions({ ...input, paths }) as OpenApiDocument;

  const components = isRecord(document.components) ? document.components : undefined;
  if (components === undefined) return document;
  const { components: _, ...rest } = document;
  const reached = new Set<string>();
  const pending: string[] = [];
  collectRefs(rest, pending);
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    // A reference into a component (`…/Schema/properties/id`) keeps the whole component.
    const component = ref.split("/").slice(0, 4).join("/");
    if (reached.has(component) || !component.startsWith("#/components/")) continue;
    reached.add(component);
    collectRefs(pointerTarget(document, component), pending);
  }
  const kept: Record<string, unknown> = {};
  for (const [section, entries] of Object.entries(components)) {
    if (section === "securitySchemes" || !isRecord(entries)) {
      kept[section] = entries;
      continue;
    }
    const used = Object.entries(entries).filter(([name]) =>
      reached.has(`#/components/${section}/${escapeToken(name)}`),
    );
    if (used.length > 0) kept[section] = Object.fromEntries(used);
  }
  return { ...document, components: kept };
}
