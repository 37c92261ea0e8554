import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { listOperations } from "@drill-practice/tooling/operations";

export interface InventoryEntry {
  version: "2.1" | "2.0" | null;
  group: string;
  method: string;
  listedPath: string;
  path: string;
  function: string | null;
  operationId: string;
  note?: string;
}

/**
 * An operation the interface does not list, stated beside one it does because its reference page
 * addresses the resource by a further path segment (inventory/observed-operations.json).
 */
export interface ObservedEntry {
  version: "2.1" | "2.0";
  method: string;
  path: string;
  operationId: string;
  /** The operationId of the interface's operation it stands beside. */
  beside: string;
  /** The reference page that shows the path. */
  page: string;
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: {
    name: string;
    in: string;
    style?: string;
    explode?: boolean;
    schema?: Record<string, unknown>;
  }[];
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
  "x-undocumented"?: string[];
}

export type OpenApiDocument = {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Record<string, unknown>> };
  tags: { name: string }[];
  "x-tagGroups": { name: string; tags: string[] }[];
} & Record<string, unknown>;

const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), "utf8");

export const inventory = (
  JSON.parse(read("../inventory/operations.json")) as { operations: InventoryEntry[] }
).operations;

export const observedOperations = (
  JSON.parse(read("../inventory/observed-operations.json")) as { operations: ObservedEntry[] }
).operations;

export function loadBundle(name: string): OpenApiDocument {
  return JSON.parse(read(`../dist/${name}`)) as OpenApiDocument;
}

/** Every operation of a bundle, with its path-level parameters merged in. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = (parameter: Record<string, unknown>) => {
    const ref = parameter.$ref;
    if (typeof ref !== "string") return parameter;
    const name = ref.replace("#/components/parameters/", "");
    return (document.components as unknown as { parameters: Record<string, Record<string, unknown>> })
      .parameters[name];
  };
  return listOperations<Omit<Operation, "method" | "path">>(document).map(
    ({ method, path, operation, pathParameters }) => ({
      ...operation,
      parameters: [...pathParameters, ...(operation.parameters ?? [])].map((p) =>
        resolve(p as Record<string, unknown>),
      ) as Operation["parameters"],
      method: method.toUpperCase(),
      path,
    }),
  );
}
