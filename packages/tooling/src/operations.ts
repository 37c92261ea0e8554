/**
 * The walk over an OpenAPI description's operations that the spec's scripts and tests, the client's
 * generator and the docs build share: every path item, every HTTP method it can hold, in one order.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { listOperations } from "@drill-practice/tooling/operations";
 *
 * const document = JSON.parse(await readFile("spec/dist/openapi.json", "utf8")) as { paths?: unknown };
 * const ids = listOperations<{ operationId?: string }>(document).map(({ operation }) => operation.operationId);
 * ```
 */

import { isRecord } from "./json-pointer.js";

/**
 * The HTTP methods an OpenAPI path item can hold operations for, in the order the walk visits them.
 *
 * @example
 * ```ts
 * import { HTTP_METHODS } from "@drill-practice/tooling/operations";
 *
 * const pathItem: Record<string, unknown> = { get: {}, parameters: [], summary: "Version" };
 * Object.keys(pathItem).filter((key) => (HTTP_METHODS as readonly string[]).includes(key)); // ["get"]
 * ```
 */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * One of {@link HTTP_METHODS}.
 *
 * @example
 * ```ts
 * import type { HttpMethod } from "@drill-practice/tooling/operations";
 *
 * const takesBody = (method: HttpMethod): boolean => method === "put" || method === "post" || method === "patch";
 * ```
 */
export type HttpMethod = (typeof HTTP_METHODS)[number];

const METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);

/**
 * Whether a path item's key is an operation's method (not `parameters`, `summary` or an extension).
 *
 * @example
 * ```ts
 * import { isHttpMethod } from "@drill-practice/tooling/operations";
 *
 * Object.keys({ get: {}, parameters: [] }).filter(isHttpMethod); // ["get"]
 * ```
 */
export function isHttpMethod(key: string): key is HttpMethod {
  return METHOD_SET.has(key);
}

/**
 * An operation together with where it sits in the description, and the parameters its path item shares.
 *
 * @example
 * ```ts
 * import { listOperations, type OperationAt } from "@drill-practice/tooling/operations";
 *
 * const label = ({ method, path }: OperationAt<unknown>): string => `${method.toUpperCase()} ${path}`;
 * listOperations({ paths: { "/api/2/drills": { get: {} } } }).map(label); // ["GET /api/2/drills"]
 * ```
 */
export interface OperationAt<Operation> {
  readonly path: string;
  readonly method: HttpMethod;
  readonly operation: Operation;
  /** The path item's own `parameters` (shared by its operations), or an empty list. */
  readonly pathParameters: readonly unknown[];
}

/**
 * Every operation of a description, path by path in document order, then by {@link HTTP_METHODS}.
 *
 * @example
 * ```ts
 * import { listOperations } from "@drill-practice/tooling/operations";
 *
 * const document = { paths: { "/api/2.1/version": { get: { operationId: "getVersion_v2_1" } } } };
 * listOperations<{ operationId: string }>(document).map(({ method, path, operation }) => `${method} ${path} ${operation.operationId}`);
 * // ["get /api/2.1/version getVersion_v2_1"]
 * ```
 */
export function listOperations<Operation = Record<string, unknown>>(document: {
  readonly paths?: unknown;
}): OperationAt<Operation>[] {
  const found: OperationAt<Operation>[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, unknown>)) {
    if (!isRecord(item)) continue;
    const pathItem = item;
    const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      found.push({ path, method, operation: operation as Operation, pathParameters });
    }
  }
  return found;
}

/**
 * Whether a path item holds at least one operation.
 *
 * @example
 * ```ts
 * import { hasOperations } from "@drill-practice/tooling/operations";
 *
 * hasOperations({ get: {} }); // true
 * hasOperations({ parameters: [] }); // false
 * ```
 */
export function hasOperations(pathItem: object): boolean {
  return HTTP_METHODS.some((method) => method in pathItem);
}
