import {
  listOperations,
  type OpenApiDocument,
  type OperationObject,
  operationParameters,
  resolveRef,
} from "./openapi-document.ts";

/** The words the "not shown" note starts with. */
export const undocumentedLead = "Not shown by the interface:";
/** The words the observed-facts note starts with (CONTRACTS §5). */
export const observedLead = "Observed in the deployed service, not stated by the interface:";
/** The words the sandbox note starts with. */
export const sandboxLead = "In the sandbox:";

/** One `x-observed` fact. */
export interface ObservedFact {
  source: string;
  note: string;
  /** The API version of the page, where it differs from the operation's. */
  version?: string;
}

/** Where the service's public reference lives: `REF …/x` names the page at this address plus `x`. */
export const REFERENCE_BASE = "https://www.drillster.com/info/developers/";

/** How the local sandbox answers operations, from `@drill-practice/sandbox`. */
export interface SandboxSupport {
  /** `SIMULATED_OPERATIONS`: operationId → what the simulation does. */
  simulated: Readonly<Record<string, string>>;
  /** Whether every operation can be given programmed responses (`PROGRAMMABLE_RESPONSES`). */
  programmable: boolean;
  /** `exampleAnsweredOperations()`: operationId → the example the sandbox answers instead of 501. */
  examples?: Readonly<Record<string, string>>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inline Markdown code spans (`x`) to `<code>`, the rest escaped. */
function inlineHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** An `x-undocumented` list, checked: a non-empty array of non-empty strings. */
export function readUndocumented(value: unknown, where: string): string[] {
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

function readObserved(value: unknown, where: string): ObservedFact {
  const record = value as Record<string, unknown> | null;
  if (typeof record !== "object" || record === null)
    throw new Error(`${where}: "x-observed" must be an object`);
  for (const field of ["source", "note"] as const) {
    if (typeof record[field] !== "string" || (record[field] as string).trim() === "") {
      throw new Error(`${where}: "x-observed".${field} must be a non-empty string`);
    }
  }
  const fact: ObservedFact = {
    source: (record.source as string).trim(),
    note: (record.note as string).trim(),
  };
  if (typeof record.version === "string" && record.version.trim() !== "")
    fact.version = record.version.trim();
  return fact;
}

/**
 * A fact's source with each reference page (`…/api/2/endpoints/get-user`) as a link to that page.
 */
export function sourceHtml(source: string): string {
  return source
    .split(/(…\/[A-Za-z0-9._~/-]+)/)
    .map((part, index) => {
      if (index % 2 === 0) return inlineHtml(part);
      const href = `${REFERENCE_BASE}${part.slice(2)}`;
      return `<a href="${escapeHtml(href)}">${escapeHtml(part)}</a>`;
    })
    .join("");
}

/** Where shared object schemas live: an operation's note stops at references to them. */
const SCHEMA_REF = "#/components/schemas/";

/**
 * Every `x-observed` fact about one operation: on the operation, its parameters, its request body
 * and its success answers, followed through `$ref`s, but not into the schemas they use: a schema's
 * facts concern every operation that shows the object (a group, a playable, an icon), so they are
 * shown once, on the schema ({@link schemaObservedFacts}). Facts with the same note are listed once.
 */
export function observedFacts(
  document: OpenApiDocument,
  path: string,
  operation: OperationObject,
): ObservedFact[] {
  const where = `${path} ${operation.operationId ?? ""}`.trim();
  const facts: ObservedFact[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 12 || typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      if (!record.$ref.startsWith(SCHEMA_REF)) visit(resolveRef(document, record), depth + 1);
      return;
    }
    if ("x-observed" in record) facts.push(readObserved(record["x-observed"], where));
    for (const [key, child] of Object.entries(record)) {
      // Examples are data, and code samples are ours: neither holds facts about the service.
      if (key === "x-observed" || key === "examples" || key === "example" || key === "x-codeSamples")
        continue;
      visit(child, depth + 1);
    }
  };
  if ("x-observed" in operation) facts.push(readObserved(operation["x-observed"], where));
  for (const parameter of operationParameters(document, path, operation)) visit(parameter, 0);
  visit(operation.requestBody, 0);
  // Error answers share one schema whose facts concern every operation; the errors page and the
  // overview carry those, so only success answers are searched here.
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, unknown>)) {
    if (status !== "default" && !status.startsWith("4") && !status.startsWith("5")) visit(response, 0);
  }
  const unique = new Map<string, ObservedFact>();
  for (const fact of facts) if (!unique.has(fact.note)) unique.set(fact.note, fact);
  return [...unique.values()];
}

/**
 * The `x-observed` facts of one schema (or security scheme): its own and those of its properties,
 * items and inline parts, not following `$ref`s (a referenced schema shows its own). Facts with the
 * same note are listed once.
 */
export function schemaObservedFacts(schema: unknown, where: string): ObservedFact[] {
  const facts: ObservedFact[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 12 || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (typeof record.$ref === "string") return;
    if ("x-observed" in record) facts.push(readObserved(record["x-observed"], where));
    for (const [key, child] of Object.entries(record)) {
      if (key === "x-observed" || key === "examples" || key === "example") continue;
      visit(child, depth + 1);
    }
  };
  visit(schema, 0);
  const unique = new Map<string, ObservedFact>();
  for (const fact of facts) if (!unique.has(fact.note)) unique.set(fact.note, fact);
  return [...unique.values()];
}

/**
 * The note on an operation's `x-undocumented` list: one sentence.
 */
export function undocumentedNoteHtml(items: readonly string[]): string {
  return `<div class="dp-note dp-note-unknown"><p><strong>${undocumentedLead}</strong> ${items.map(inlineHtml).join(", ")}.</p></div>`;
}

/**
 * The note on what was observed of the deployed service instead; one note however many facts.
 */
export function observedNoteHtml(facts: readonly ObservedFact[]): string {
  const items = facts.map((fact) => {
    const version = fact.version === undefined ? "" : `, a page of API ${escapeHtml(fact.version)}`;
    return `${inlineHtml(fact.note)} (source: ${sourceHtml(fact.source)}${version})`;
  });
  const body =
    items.length === 1
      ? `<p><strong>${observedLead}</strong> ${items[0]}</p>`
      : `<p><strong>${observedLead}</strong></p><ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul>`;
  return `<div class="dp-note dp-note-observed">${body}</div>`;
}

/**
 * The note on how the local sandbox answers the operation. A simulated operation's sentence is marked
 * (`dp-sandbox-behaviour`): the Try it panel shows it beside Send, read from here.
 */
export function sandboxNoteHtml(
  operationId: string,
  support: SandboxSupport,
  labels: ReadonlyMap<string, string>,
): string {
  const simulated = support.simulated[operationId];
  const programmable = support.programmable
    ? " You can also program its answers (<code>--responses</code>)."
    : "";
  const example = support.examples?.[operationId];
  const text =
    simulated !== undefined
      ? `simulated: <span class="dp-sandbox-behaviour">${inlineHtml(replaceOperationIds(simulated, labels))}</span>.${programmable}`
      : example !== undefined
        ? `not simulated, but it ${inlineHtml(example)}.${programmable}`
        : `not simulated: it answers <code>501</code> <code>not_simulated</code>${support.programmable ? " unless you program a response for it (<code>--responses</code>)" : ""}.`;
  return `<div class="dp-note dp-note-sandbox"><p><strong>${sandboxLead}</strong> ${text}</p></div>`;
}

/** Replaces operationIds in prose (`getQuestion_v2_0`) with what a reader knows: method and path. */
export function replaceOperationIds(text: string, labels: ReadonlyMap<string, string>): string {
  return text.replace(
    /`?\b([A-Za-z]+_v2_(?:1_1|[01])|getAuthorizationServerMetadata|exchangeToken)\b`?/g,
    (match, id: string) => {
      const label = labels.get(id);
      return label === undefined ? match : `\`${label}\``;
    },
  );
}

/** Lines of the spec's descriptions that only repeat what the note says. */
const repeatedLines = [
  /^Function listed for API [\d.]+: "[^"]*"\.$/,
  /^Request and response shapes, status codes and errors of this operation are not shown by the interface\.$/,
];

/** "GET test-question/{test_id}/{ticket} (function not given)" → "test-question/{test_id}/{ticket}". */
function readerSummary(summary: string | undefined): string | undefined {
  if (summary === undefined) return undefined;
  return summary
    .replace(/\s*\(function not given[^)]*\)\s*$/, "")
    .replace(/^(GET|PUT|POST|DELETE|PATCH)\s+/, "")
    .trim();
}

/** What {@link addOperationNotes} produced. */
export interface NotedDocument {
  document: OpenApiDocument;
  /** `METHOD path` of every operation with a "not shown" note. */
  noted: string[];
  /** `METHOD path` of every operation with an observed-facts note. */
  observed: string[];
}

const notShownRefs = new Set(["#/components/responses/NotShown", "#/components/responses/NotShownError"]);

/**
 * Redoc renders no vendor extensions, and the spec says "not shown" in several places per
 * operation. The rendered copy gets ONE block of notes at the top of each operation's
 * description: what the interface does not show (`x-undocumented`), what was observed instead
 * (`x-observed`, CONTRACTS §5) and what the sandbox does with it. Lines and responses that only
 * repeat the note are trimmed, summaries lose internal wording, and operationIds in prose become
 * method and path. The input is left untouched; the markers stay in the copy.
 */
export function addOperationNotes(
  input: OpenApiDocument,
  support: SandboxSupport,
  otherLabels: ReadonlyMap<string, string> = new Map(),
): NotedDocument {
  const document = structuredClone(input);
  const noted: string[] = [];
  const observed: string[] = [];
  const labels = new Map<string, string>(otherLabels);
  for (const { method, path, operation } of listOperations(document)) {
    if (operation.operationId) labels.set(operation.operationId, `${method.toUpperCase()} ${path}`);
  }
  for (const { method, path, operation } of listOperations(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    const notes: string[] = [];
    if ("x-undocumented" in operation) {
      notes.push(undocumentedNoteHtml(readUndocumented(operation["x-undocumented"], where)));
      noted.push(where);
    }
    const facts = observedFacts(document, path, operation);
    if (facts.length > 0) {
      notes.push(observedNoteHtml(facts));
      observed.push(where);
    }
    if (operation.operationId) notes.push(sandboxNoteHtml(operation.operationId, support, labels));

    const kept = (operation.description ?? "")
      .split("\n")
      .filter((line) => !repeatedLines.some((pattern) => pattern.test(line.trim())))
      .join("\n")
      .trim();
    const prose = replaceOperationIds(kept, labels);
    operation.description = [notes.join("\n"), prose].filter((part) => part !== "").join("\n\n");
    const summary = readerSummary(operation.summary);
    if (summary !== undefined) operation.summary = summary;

    // A response that only says "not shown" becomes one line without a placeholder body.
    const responses = operation.responses as Record<string, unknown> | undefined;
    for (const [status, response] of Object.entries(responses ?? {})) {
      const ref = (response as { $ref?: string }).$ref;
      if (ref !== undefined && notShownRefs.has(ref)) {
        (responses as Record<string, unknown>)[status] = {
          description: status === "default" ? "An error; not shown." : "Success; not shown.",
        };
      }
    }
  }
  const info = document.info;
  if ("x-undocumented" in info) {
    const items = readUndocumented(info["x-undocumented"], "info");
    const note = `<div class="dp-note dp-note-unknown"><p><strong>Not shown by the interface, for the whole API:</strong> ${items.map(inlineHtml).join("; ")}. Each operation's own note lists what else is missing there.</p></div>`;
    info.description = `${note}\n\n${tidyInfoProse(info.description ?? "")}`;
  }
  return { document, noted, observed };
}

/** The spec's overview names its own markers; readers see notes, not extensions. */
export function tidyInfoProse(text: string): string {
  return text
    .replace(/is marked with `x-undocumented` \(rendered as a note\)/g, "is said so in a note")
    .replace(/each marked with `x-observed`\s+and its source/g, "each said so in a note with its source")
    .replace(/`x-[a-zA-Z-]+`/g, "a note");
}

/**
 * `METHOD path` of every operation of the given documents, by operationId.
 */
export function operationLabels(documents: readonly OpenApiDocument[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const document of documents) {
    for (const { method, path, operation } of listOperations(document)) {
      if (operation.operationId) labels.set(operation.operationId, `${method.toUpperCase()} ${path}`);
    }
  }
  return labels;
}
