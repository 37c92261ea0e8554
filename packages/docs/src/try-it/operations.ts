/**
 * The Try it panel's table of a reference's operations, made at build time from the same bundle and
 * the same sample requests as the page's code samples, with each operation's faithfulness read from
 * the sandbox's own exports.
 */
import { type SampleRequest, sampleRequest } from "../code-samples.ts";
import {
  listOperations,
  type OpenApiDocument,
  type OperationObject,
  operationParameters,
  resolveRef,
} from "../openapi-document.ts";
import type { SampleValues } from "../sample-values.ts";
import type { Faithfulness, TryItField, TryItOperation } from "./protocol.ts";

/** What the sandbox exports about its answers (`SIMULATED_OPERATIONS`, `exampleAnsweredOperations`). */
export interface SandboxAnswers {
  simulated: Readonly<Record<string, string>>;
  examples: Readonly<Record<string, string>>;
}

interface Schema {
  type?: unknown;
  enum?: unknown[];
  items?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
}

function isArray(schema: Schema | undefined): boolean {
  const type = schema?.type;
  return type === "array" || (Array.isArray(type) && type.includes("array"));
}

function choices(document: OpenApiDocument, schema: Schema | undefined): string[] | undefined {
  const closed = isArray(schema)
    ? resolveRef<Schema | undefined>(document, schema?.items)?.enum
    : schema?.enum;
  return closed && closed.length > 0 ? closed.map(String) : undefined;
}

/**
 * The error identifiers the operation documents. Its error table (`x-errors`) when it has one: the
 * descriptions beside it also name warnings and fields. Otherwise the backquoted words of its own
 * error answers' descriptions, less the names of its fields (a shared error answer's description
 * speaks of the error shape, not of this operation, and is left out).
 */
function documentedErrorIds(
  operation: OperationObject,
  responses: Record<string, unknown>,
  fields: readonly TryItField[],
): string[] {
  const table = (operation["x-errors"] as { ids?: { id?: unknown }[] } | undefined)?.ids;
  if (table !== undefined) return table.flatMap(({ id }) => (typeof id === "string" ? [id] : []));
  const ids = new Set<string>();
  for (const [status, raw] of Object.entries(responses)) {
    const own = (raw as { description?: unknown }).description;
    if (!/^(4|5|default)/i.test(status) || typeof own !== "string") continue;
    for (const match of own.matchAll(/`([a-z][a-z0-9_]*)`/g)) ids.add(match[1] as string);
  }
  for (const field of fields) ids.delete(field.name);
  return [...ids];
}

function isNotShownRef(value: unknown): boolean {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === "string" && ref.endsWith("/NotShown");
}

/** Whether any documented success answer has a schema of its own (not the spec's `NotShown`). */
function successShape(
  document: OpenApiDocument,
  responses: Record<string, unknown>,
): TryItOperation["successShape"] {
  for (const [status, raw] of Object.entries(responses)) {
    if (!/^[23]/.test(status) || isNotShownRef(raw)) continue;
    const content = resolveRef<{ content?: Record<string, { schema?: unknown }> } | undefined>(
      document,
      raw,
    )?.content;
    const schemas = Object.values(content ?? {}).map((media) => media.schema);
    if (schemas.some((schema) => schema !== undefined && !isNotShownRef(schema))) return "schema";
  }
  return "not shown";
}

function formFields(document: OpenApiDocument, request: SampleRequest, requestBody: unknown): TryItField[] {
  const content = resolveRef<{ content?: Record<string, { schema?: unknown }> } | undefined>(
    document,
    requestBody,
  )?.content;
  const schema = resolveRef<Schema | undefined>(
    document,
    content?.["application/x-www-form-urlencoded"]?.schema,
  );
  const sampled = new Map<string, string>(
    request.body?.kind === "form" ? request.body.fields.map(([name, value]) => [name, value]) : [],
  );
  return Object.entries(schema?.properties ?? {}).map(([name, raw]) => {
    const property = resolveRef<Schema | undefined>(document, raw);
    const value = sampled.get(name);
    const field: TryItField = {
      name,
      in: "form",
      required: schema?.required?.includes(name) ?? false,
      repeated: isArray(property),
      values: value === undefined ? [] : [value],
    };
    const closed = choices(document, property);
    if (closed) field.choices = closed;
    return field;
  });
}

function faithfulness(operationId: string, answers: SandboxAnswers): Faithfulness {
  if (operationId in answers.simulated) return "simulated";
  if (operationId in answers.examples) return "example";
  return "not simulated";
}

/**
 * Every operation of `document` as the Try it panel shows it: its path and query parameters and form
 * fields (required, choices, repeatable), prefilled with the page's sample values, and how the
 * in-page sandbox answers it.
 */
export function tryItOperations(
  document: OpenApiDocument,
  values: SampleValues,
  answers: SandboxAnswers,
): TryItOperation[] {
  return listOperations(document).map((entry) => {
    const request = sampleRequest(document, entry, values);
    const fields: TryItField[] = [];
    for (const parameter of operationParameters(document, entry.path, entry.operation)) {
      if (parameter.in !== "path" && parameter.in !== "query") continue;
      const schema = resolveRef<Schema | undefined>(document, parameter.schema);
      const field: TryItField = {
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === "path" || parameter.required === true,
        repeated: parameter.in === "query" && isArray(schema),
        values: [],
      };
      if (parameter.in === "path") {
        const sampled = request.pathParams.find((p) => p.name === parameter.name)?.value;
        if (sampled && "literal" in sampled) field.values = [sampled.literal];
        if (sampled && "reader" in sampled) field.hint = sampled.reader.hint;
      } else {
        field.values = request.query.find((q) => q.name === parameter.name)?.values ?? [];
      }
      const closed = choices(document, schema);
      if (closed) field.choices = closed;
      fields.push(field);
    }
    let body: TryItOperation["body"] = "none";
    const sampledBody = request.body;
    if (sampledBody?.kind === "token") body = "token";
    if (sampledBody?.kind === "form" || sampledBody?.kind === "token") {
      fields.push(...formFields(document, request, entry.operation.requestBody));
      if (sampledBody.kind === "form") body = "form";
    }
    if (sampledBody?.kind === "json") body = { json: JSON.stringify(sampledBody.value, null, 2) };
    if (sampledBody?.kind === "unknown" || sampledBody?.kind === "form-unknown") {
      body = { notShown: "The interface does not show this request body; it is sent empty." };
    }
    if (sampledBody?.kind === "multipart") {
      body = {
        notShown: "An upload (multipart/form-data) whose parts are not shown; it is sent without a body.",
      };
    }
    const responses = (entry.operation.responses ?? {}) as Record<string, unknown>;
    // What a simulated operation does is not repeated here: the panel reads it from the page's note.
    return {
      operationId: request.operationId,
      method: entry.method,
      path: entry.path,
      fields,
      body,
      authenticated: request.authenticated,
      faithfulness: faithfulness(request.operationId, answers),
      statuses: Object.keys(responses),
      successShape: successShape(document, responses),
      errorIds: documentedErrorIds(entry.operation, responses, fields),
    };
  });
}
