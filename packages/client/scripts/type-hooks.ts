/**
 * openapi-typescript's hooks that make the generated types say what the record says, where its
 * defaults would say more or less (see README, "What the types say"):
 *
 * - an answer field marked `x-known-values` becomes an open union of its page's values,
 *   `"FAR" | "NEAR" | (string & Record<never, never>)`: editors offer the values, any other string
 *   still fits. The open member is not `string & {}`: `NonNullable<…>` (which is `T & {}`) folds that
 *   one into `string` and the values are lost, while this one survives it;
 * - a schema with named fields lists them and nothing else (`namedFieldsOnly`, applied to the
 *   document first): its `additionalProperties: true` (the description stays open, and the client
 *   accepts unknown fields at run time) gives no index signature, so a request form refuses a
 *   misspelt field and `group.nmae` on an answer does not compile;
 * - a request field with a `default` is optional, since the service fills it in
 *   (`defaultNonNullable` stays on, so answers keep their typing).
 *
 * Request forms are the schemas only request bodies reach; answers never share one with them.
 * An answer schema without named fields (`EmptyObject`) keeps its index signature: it names nothing.
 */
import type { OpenAPITSOptions } from "openapi-typescript";
import ts from "typescript";

type Json = Record<string, unknown>;
type Hooks = Required<Pick<OpenAPITSOptions, "transform" | "transformProperty">>;

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

/** `"A" | "B" | (string & Record<never, never>)`: the known values, and room for any other string. */
function openUnion(values: readonly string[]): ts.TypeNode {
  const never = ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
  const anyOtherString = ts.factory.createParenthesizedType(
    ts.factory.createIntersectionTypeNode([
      ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
      ts.factory.createTypeReferenceNode("Record", [never, never]),
    ]),
  );
  return ts.factory.createUnionTypeNode([
    ...values.map((value) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(value))),
    anyOtherString,
  ]);
}

/**
 * `Record<never, never>`: a request form that names no field (`EmptyForm`). openapi-typescript writes
 * `Record<string, never>`, whose keys are every string, so a misspelt field would only say "not
 * assignable to type 'never'"; with no key at all the client's check names the field instead.
 */
function emptyForm(): ts.TypeNode {
  const never = ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
  return ts.factory.createTypeReferenceNode("Record", [never, never]);
}

/** A request-only schema, after {@link namedFieldsOnly}, whose `properties` is empty and that admits nothing else. */
function isEmptyForm(schemaObject: unknown, path: string | undefined, requests: Set<string>): boolean {
  const schema = schemaOf(path);
  if (schema === undefined || !schema.whole || !requests.has(schema.name)) return false;
  const { properties, additionalProperties } = schemaObject as Json;
  return (
    typeof properties === "object" &&
    properties !== null &&
    Object.keys(properties).length === 0 &&
    additionalProperties === undefined
  );
}

/** The schema name of a pointer into `components.schemas`, and whether it points at the schema itself. */
function schemaOf(path: string | undefined): { name: string; whole: boolean } | undefined {
  if (!path?.startsWith(SCHEMA_REF)) return undefined;
  const [name = "", ...rest] = path.slice(SCHEMA_REF.length).split("/");
  return { name, whole: rest.length === 0 };
}

/** An object schema that names its fields and is open to others. */
function namesItsFields(schema: unknown): schema is Json {
  return (
    typeof schema === "object" &&
    schema !== null &&
    "properties" in schema &&
    (schema as Json).additionalProperties === true
  );
}

/**
 * A copy of `document` in which every object schema that names its fields, at any depth, drops its
 * `additionalProperties: true`: the types then list the named fields and no index signature. The
 * description itself stays open, and so does the client at run time.
 *
 * @example
 * ```ts
 * const typed = namedFieldsOnly(JSON.parse(await readFile(specPath, "utf8")));
 * await openapiTS(typed, { ...typeHooks(typed) });
 * ```
 */
export function namedFieldsOnly<T>(document: T): T {
  return JSON.parse(JSON.stringify(document), (_key, value: unknown) => {
    if (!namesItsFields(value)) return value;
    const { additionalProperties: _open, ...named } = value;
    return named;
  }) as T;
}

/**
 * The two hooks for one document, after {@link namedFieldsOnly} (each version's bundle is generated on its own).
 */
export function typeHooks(document: Json): Hooks {
  const requests = requestSchemas(document);
  return {
    transform(schemaObject, options) {
      if (isEmptyForm(schemaObject, options.path, requests)) return emptyForm();
      const known = (schemaObject as Json)["x-known-values"];
      if (!Array.isArray(known)) return undefined;
      if (!known.every((value): value is string => typeof value === "string") || "enum" in schemaObject) {
        throw new Error(
          `x-known-values must list strings on an open string field: ${JSON.stringify(schemaObject)}`,
        );
      }
      return openUnion(known);
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
