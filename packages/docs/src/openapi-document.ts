import { isRecord, pointerTarget } from "@drill-practice/tooling/json-pointer";
import { type HttpMethod, listOperations as walkOperations } from "@drill-practice/tooling/operations";

/** The parts of an OpenAPI operation object the docs build reads or rewrites. */
export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: unknown[];
  "x-undocumented"?: unknown;
  [key: string]: unknown;
}

/** The parts of an OpenAPI 3.x document the docs build reads; everything else is passed through untouched. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  paths?: Record<string, Record<string, unknown>>;
  tags?: { name: string; [key: string]: unknown }[];
  "x-tagGroups"?: { name: string; tags: string[] }[];
  [key: string]: unknown;
}

/** An operation together with where it sits in the document. */
export interface OperationEntry {
  method: HttpMethod;
  path: string;
  operation: OperationObject;
}

/**
 * What a local JSON pointer (`#/components/schemas/a~1b`) points at in a document, or
 * `undefined` when nothing is there (the tooling's one reader of pointers).
 */
export { pointerTarget };

/**
 * Lists every operation of a document in document order.
 */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  return walkOperations<OperationObject>(document).map(({ method, path, operation }) => ({
    method,
    path,
    operation,
  }));
}

/**
 * Checks that a parsed JSON value looks like an OpenAPI 3.x document and narrows its type.
 * `source` names the file in the error so a broken bundle is easy to find.
 */
export function asOpenApiDocument(value: unknown, source: string): OpenApiDocument {
  if (!isRecord(value)) throw new Error(`${source}: expected a JSON object at the top level`);
  if (typeof value.openapi !== "string" || !value.openapi.startsWith("3.")) {
    throw new Error(`${source}: field "openapi" must be a 3.x version string`);
  }
  const info = value.info;
  if (!isRecord(info) || typeof info.title !== "string" || typeof info.version !== "string") {
    throw new Error(`${source}: field "info" must have string "title" and "version"`);
  }
  if (value.paths !== undefined && !isRecord(value.paths)) {
    throw new Error(`${source}: field "paths" must be an object`);
  }
  return value as OpenApiDocument;
}

/** A parameter object after `$ref` resolution. */
export interface ParameterObject {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  style?: string;
  explode?: boolean;
  [key: string]: unknown;
}

/**
 * Follows a local `$ref` (`#/components/…`) to its target; anything else is returned as is.
 * Chains of references are followed up to a small bound so a cycle fails instead of looping.
 */
export function resolveRef<T = unknown>(document: OpenApiDocument, value: unknown): T {
  let current = value;
  for (let depth = 0; depth < 16; depth++) {
    if (!isRecord(current) || typeof current.$ref !== "string") return current as T;
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new Error(`only local references are supported, got ${ref}`);
    const target = pointerTarget(document, ref);
    if (target === undefined) throw new Error(`unresolved reference ${ref}`);
    current = target;
  }
  throw new Error("reference chain longer than 16 steps (a cycle?)");
}

/**
 * The parameters of an operation with those of its path item, resolved, the operation's taking
 * precedence (OpenAPI's rule: same `name` and `in`).
 */
export function operationParameters(
  document: OpenApiDocument,
  path: string,
  operation: OperationObject,
): ParameterObject[] {
  const item = document.paths?.[path];
  const shared = Array.isArray(item?.parameters) ? (item.parameters as unknown[]) : [];
  const own = operation.parameters ?? [];
  const byKey = new Map<string, ParameterObject>();
  for (const raw of [...shared, ...own]) {
    const parameter = resolveRef<ParameterObject>(document, raw);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}
