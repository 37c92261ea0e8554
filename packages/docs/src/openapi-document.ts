/** The HTTP methods an OpenAPI path item can hold operations for. */
export const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One of {@link httpMethods}. */
export type HttpMethod = (typeof httpMethods)[number];

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Lists every operation of a document in document order.
 *
 * @example
 * for (const { method, path, operation } of listOperations(bundle)) {
 *   console.log(method.toUpperCase(), path, operation.operationId);
 * }
 */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isRecord(item)) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (isRecord(operation)) entries.push({ method, path, operation: operation as OperationObject });
    }
  }
  return entries;
}

/**
 * Checks that a parsed JSON value looks like an OpenAPI 3.x document and narrows its type.
 * `source` names the file in the error so a broken bundle is easy to find.
 *
 * @example
 * const bundle = asOpenApiDocument(JSON.parse(text), "spec/dist/openapi-v2.1.json");
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
