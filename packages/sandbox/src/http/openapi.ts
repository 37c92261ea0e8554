/**
 * Reads an OpenAPI 3.1 document into the sandbox's list of operations. Only the parts the sandbox acts
 * on are typed; everything else is carried along untouched.
 */
import { SpecInvalidError } from "../errors.js";

/** A JSON value as parsed from the OpenAPI document. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A parsed OpenAPI document (the fields the sandbox reads; the rest stays as JSON).
 *
 * @example
 * ```ts
 * import { createSandbox, type OpenApiDocument } from "@drill-practice/sandbox";
 *
 * const spec: OpenApiDocument = { openapi: "3.1.0", info: { title: "A cut-down description", version: "1" }, paths: {} };
 * const sandbox = await createSandbox({ spec });
 * ```
 */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, JsonValue>>;
  readonly components?: Readonly<Record<string, JsonValue>>;
  readonly security?: JsonValue;
  readonly [key: string]: JsonValue | undefined;
}

/**
 * HTTP methods an OpenAPI path item may define, in the order `Allow` lists them.
 */
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"] as const;

/** One HTTP method an OpenAPI path item may define. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Where a parameter is sent. */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** A parameter of one operation, with the JSON pointer of its schema in the document. */
export interface OperationParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  /** JSON pointer (without `#`) of the parameter's schema inside the document. */
  readonly schemaPointer: string | undefined;
  readonly schema: JsonValue | undefined;
  /** For query arrays: `true` means repeated keys (`?a=1&a=2`), `false` comma-separated. */
  readonly explode: boolean;
}

/** One media type an operation accepts as request body or sends as response. */
export interface MediaTypeSchema {
  readonly mediaType: string;
  readonly schemaPointer: string | undefined;
}

/** A documented response of one operation. */
export interface OperationResponse {
  /** `"200"`, `"4XX"` or `"default"`, as written in the document. */
  readonly status: string;
  readonly content: readonly MediaTypeSchema[];
}

/** Everything the sandbox needs to know about one operation of the description. */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template, e.g. `/api/2.1/question/{drill}`. */
  readonly path: string;
  readonly parameters: readonly OperationParameter[];
  readonly requestBody:
    | { readonly required: boolean; readonly content: readonly MediaTypeSchema[] }
    | undefined;
  readonly responses: readonly OperationResponse[];
  /** Names of the security schemes that must be satisfied; empty when the operation is public. */
  readonly security: readonly string[];
  /** The `x-undocumented` list: what the interface does not show about this operation. */
  readonly undocumented: readonly string[];
  /**
   * The `x-errors` list: the error identifiers the operation's reference page names, with the page's
   * status where it gives one.
   */
  readonly errors: readonly PageErrorId[];
}

/** One error identifier of a reference page's error table, with the page's status where given. */
export interface PageErrorId {
  readonly id: string;
  readonly status?: number;
}

/** Checks the outline of a parsed document (an object with `openapi` 3.1.x and `paths`). */
export function asDocument(value: unknown, source: string): OpenApiDocument {
  if (!isObject(value)) throw new SpecInvalidError(`${source}: not a JSON object`);
  if (typeof value.openapi !== "string" || !value.openapi.startsWith("3.1")) {
    throw new SpecInvalidError(`${source}: field openapi must be a 3.1.x version string`);
  }
  if (!isObject(value.paths)) throw new SpecInvalidError(`${source}: field paths must be an object`);
  return value as unknown as OpenApiDocument;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One JSON pointer token for a key (`~` and `/` escaped): the sandbox's one writer of pointers. */
export function escapePointer(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The key a JSON pointer token names: the sandbox's one reader of pointer tokens. */
export function unescapePointer(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * What a JSON pointer (`/paths/…`, or a `$ref`'s `#/components/…`, whose tokens may be
 * percent-encoded) points at in the document, or `undefined` when nothing is there.
 */
export function pointerValue(doc: OpenApiDocument, pointer: string): JsonValue | undefined {
  const fragment = pointer.startsWith("#");
  let target: JsonValue | undefined = doc as unknown as JsonValue;
  for (const raw of pointer.slice(fragment ? 2 : 1).split("/")) {
    const token = unescapePointer(fragment ? decodeURIComponent(raw) : raw);
    target = isObject(target) ? target[token] : Array.isArray(target) ? target[Number(token)] : undefined;
  }
  return target;
}

/**
 * Follows OpenAPI `$ref`s (local ones, `#/…`) until an object without `$ref`, returning it with its JSON
 * pointer. Schemas are not resolved here: Ajv follows their `$ref`s itself.
 */
function resolve(doc: OpenApiDocument, value: JsonValue | undefined, pointer: string) {
  let current = value;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith("#/") || hops > 20) {
      throw new SpecInvalidError(`${at}: unsupported or circular $ref ${JSON.stringify(ref)}`);
    }
    at = ref.slice(1);
    const target = pointerValue(doc, at);
    if (target === undefined) throw new SpecInvalidError(`${pointer}: $ref ${ref} points nowhere`);
    current = target;
  }
  return { value: current, pointer: at };
}

function mediaTypes(content: JsonValue | undefined, pointer: string): MediaTypeSchema[] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const mediaPointer = `${pointer}/${escapePointer(mediaType)}`;
    const schema = isObject(media) && media.schema !== undefined ? `${mediaPointer}/schema` : undefined;
    return { mediaType: mediaType.toLowerCase(), schemaPointer: schema };
  });
}

function securityNames(value: JsonValue | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  // Any one requirement object satisfies; an empty object (or an empty list) makes the operation public.
  if (value.length === 0 || value.some((r) => isObject(r) && Object.keys(r).length === 0)) return [];
  const names = new Set<string>();
  for (const requirement of value)
    if (isObject(requirement)) for (const n of Object.keys(requirement)) names.add(n);
  return [...names];
}

/**
 * Lists every operation of the document, with parameters merged from the path item and the operation
 * and every OpenAPI `$ref` (parameters, request bodies, responses) resolved.
 */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  const seen = new Set<string>();
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const itemPointer = `/paths/${escapePointer(path)}`;
    const { value: item, pointer: itemAt } = resolve(doc, rawItem, itemPointer);
    if (!isObject(item)) throw new SpecInvalidError(`${itemPointer}: path item must be an object`);
    for (const method of HTTP_METHODS) {
      const raw = item[method.toLowerCase()];
      if (raw === undefined) continue;
      const opPointer = `${itemAt}/${method.toLowerCase()}`;
      if (!isObject(raw)) throw new SpecInvalidError(`${opPointer}: operation must be an object`);
      const operationId = raw.operationId;
      if (typeof operationId !== "string" || operationId === "") {
        throw new SpecInvalidError(`${opPointer}: operationId is required by the sandbox`);
      }
      if (seen.has(operationId))
        throw new SpecInvalidError(`${opPointer}: duplicate operationId ${operationId}`);
      seen.add(operationId);
      const undocumented = Array.isArray(raw["x-undocumented"])
        ? raw["x-undocumented"].filter((x): x is string => typeof x === "string")
        : [];
      operations.push({
        operationId,
        method,
        path,
        parameters: operationParameters(doc, [
          [item.parameters, `${itemAt}/parameters`],
          [raw.parameters, `${opPointer}/parameters`],
        ]),
        requestBody: requestBodyOf(doc, raw.requestBody, `${opPointer}/requestBody`),
        responses: responsesOf(doc, raw.responses, `${opPointer}/responses`),
        security: securityNames(raw.security) ?? securityNames(doc.security) ?? [],
        undocumented,
        errors: pageErrors(raw["x-errors"]),
      });
    }
  }
  return operations;
}

/** The path item's and the operation's parameters, resolved; the operation's replace the path's. */
function operationParameters(
  doc: OpenApiDocument,
  lists: readonly (readonly [JsonValue | undefined, string])[],
): OperationParameter[] {
  const parameters = new Map<string, OperationParameter>();
  for (const [list, listPointer] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      const { value: p, pointer } = resolve(doc, entry, `${listPointer}/${index}`);
      if (!isObject(p) || typeof p.name !== "string" || typeof p.in !== "string") {
        throw new SpecInvalidError(`${pointer}: parameter needs name and in`);
      }
      const location = p.in as ParameterLocation;
      const name = location === "header" ? p.name.toLowerCase() : p.name;
      parameters.set(`${location}:${name}`, {
        name,
        in: location,
        required: p.required === true || location === "path",
        schemaPointer: p.schema === undefined ? undefined : `${pointer}/schema`,
        schema: p.schema,
        explode: p.explode === undefined ? (p.style ?? "form") === "form" : p.explode === true,
      });
    });
  }
  return [...parameters.values()];
}

function requestBodyOf(
  doc: OpenApiDocument,
  raw: JsonValue | undefined,
  at: string,
): Operation["requestBody"] {
  if (raw === undefined) return undefined;
  const { value: body, pointer } = resolve(doc, raw, at);
  if (!isObject(body)) throw new SpecInvalidError(`${pointer}: request body must be an object`);
  return { required: body.required === true, content: mediaTypes(body.content, `${pointer}/content`) };
}

function responsesOf(doc: OpenApiDocument, raw: JsonValue | undefined, at: string): OperationResponse[] {
  if (!isObject(raw)) return [];
  return Object.entries(raw).map(([status, entry]) => {
    const { value: response, pointer } = resolve(doc, entry, `${at}/${status}`);
    const content = isObject(response) ? mediaTypes(response.content, `${pointer}/content`) : [];
    return { status: status.toUpperCase() === "DEFAULT" ? "default" : status.toUpperCase(), content };
  });
}

/**
 * Finds the documented response for a status: the exact code first, then its range (`4XX`), then
 * `default`.
 */
export function findResponse(operation: Operation, status: number): OperationResponse | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    operation.responses.find((r) => r.status === exact) ??
    operation.responses.find((r) => r.status === range) ??
    operation.responses.find((r) => r.status === "default")
  );
}

/** The `x-errors` extension of an operation as a list; anything malformed is left out. */
function pageErrors(raw: JsonValue | undefined): PageErrorId[] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [];
  const ids = raw.ids;
  if (!Array.isArray(ids)) return [];
  return ids.flatMap((entry): PageErrorId[] => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return [];
    if (typeof entry.id !== "string") return [];
    return [typeof entry.status === "number" ? { id: entry.id, status: entry.status } : { id: entry.id }];
  });
}
