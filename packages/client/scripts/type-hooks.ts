/**
 * openapi-typescript's hooks that make the generated types say what the record says, where its
 * defaults would say more or less (see README, "What the types say"):
 *
 * - an answer field marked `x-known-values` becomes an open union of its page's values,
 *   `"FAR" | "NEAR" | (string & {})`: editors offer the values, any other string still fits;
 * - a request form lists the fields the record names and refuses others: its
 *   `additionalProperties: true` (the description stays open) gives no index signature;
 * - a request field with a `default` is optional, since the service fills it in
 *   (`defaultNonNullable` stays on, so answers keep their typing).
 *
 * Request forms are the schemas only request bodies reach; answers never share one with them.
 */
import type { OpenAPITSOptions, SchemaObject } from "openapi-typescript";
import ts from "typescript";

type Json = Record<string, unknown>;
type Hooks = Required<Pick<OpenAPITSOptions, "transform" | "postTransform" | "transformProperty">>;

const SCHEMA_REF = "#/components/schemas/";

/** Every `#/components/schemas/…` name `node` refers to, directly or through other schemas. */
function reachedSchemas(node: unknown, schemas: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) reachedSchemas(item, schemas, found);
  else if (node && typeof node === "object") {
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith(SCHEMA_REF)) {
      const name = ref.slice(SCHEMA_REF.length);
      if (!found.has(name)) {
        found.add(name);
        reachedSchemas(schemas[name], schemas, found);
      }
    }
    for (const value of Object.values(node)) reachedSchemas(value, schemas, found);
  }
  return found;
}

/** The schemas request bodies reach and nothing else does (parameters, answers). */
export function requestSchemas(document: Json): Set<string> {
  const components = (document.components ?? {}) as Record<string, Json>;
  const schemas = components.schemas ?? {};
  const requests = new Set<string>();
  const others = new Set<string>();
  reachedSchemas(components.requestBodies, schemas, requests);
  reachedSchemas(components.responses, schemas, others);
  reachedSchemas(components.parameters, schemas, others);
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const [key, value] of Object.entries(item)) {
      const operation = value as Json;
      if (key === "parameters") reachedSchemas(value, schemas, others);
      else if (operation && typeof operation === "object") {
        reachedSchemas(operation.requestBody, schemas, requests);
        reachedSchemas(operation.responses, schemas, others);
        reachedSchemas(operation.parameters, schemas, others);
      }
    }
  }
  for (const name of others) requests.delete(name);
  return requests;
}

/** `"A" | "B" | (string & {})`: the known values, and room for any other string. */
function openUnion(values: readonly string[]): ts.TypeNode {
  const anyOtherString = ts.factory.createParenthesizedType(
    ts.factory.createIntersectionTypeNode([
      ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
      ts.factory.createTypeLiteralNode([]),
    ]),
  );
  return ts.factory.createUnionTypeNode([
    ...values.map((value) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(value))),
    anyOtherString,
  ]);
}

/** The schema name of a pointer into `components.schemas`, and whether it points at the schema itself. */
function schemaOf(path: string | undefined): { name: string; whole: boolean } | undefined {
  if (!path?.startsWith(SCHEMA_REF)) return undefined;
  const [name = "", ...rest] = path.slice(SCHEMA_REF.length).split("/");
  return { name, whole: rest.length === 0 };
}

/**
 * The three hooks for one document (each version's bundle is generated on its own).
 */
export function typeHooks(document: Json): Hooks {
  const requests = requestSchemas(document);
  const schemas = ((document.components ?? {}) as Record<string, Json>).schemas ?? {};
  const closed = new Set(
    [...requests].filter((name) => {
      const schema = schemas[name] as SchemaObject | undefined;
      return schema !== undefined && "properties" in schema && schema.additionalProperties === true;
    }),
  );
  return {
    transform(schemaObject) {
      const known = (schemaObject as Json)["x-known-values"];
      if (!Array.isArray(known)) return undefined;
      if (!known.every((value): value is string => typeof value === "string") || "enum" in schemaObject) {
        throw new Error(
          `x-known-values must list strings on an open string field: ${JSON.stringify(schemaObject)}`,
        );
      }
      return openUnion(known);
    },
    postTransform(type, options) {
      const schema = schemaOf(options.path);
      if (!schema?.whole || !closed.has(schema.name) || !ts.isIntersectionTypeNode(type)) return undefined;
      const named = type.types.filter(
        (part) => !(ts.isTypeLiteralNode(part) && part.members.every(ts.isIndexSignatureDeclaration)),
      );
      const [only] = named;
      return named.length === 1 && only !== undefined ? only : undefined;
    },
    transformProperty(property, schemaObject, options) {
      const schema = schemaOf(options.path);
      if (schema === undefined || schema.whole || !requests.has(schema.name)) return undefined;
      if (typeof schemaObject !== "object" || !("default" in schemaObject) || property.questionToken) {
        return undefined;
      }
      return ts.factory.updatePropertySignature(
        property,
        property.modifiers,
        property.name,
        ts.factory.createToken(ts.SyntaxKind.QuestionToken),
        property.type,
      );
    },
  };
}
