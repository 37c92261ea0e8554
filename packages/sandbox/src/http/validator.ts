/**
 * Request and response validation against the OpenAPI description with Ajv validators (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1 schemas). Where a schema's validator comes from is the
 * {@link SchemaCompiler}'s business: compiled ahead of time for the packaged description
 * (`bundled-validators.ts`), compiled by Ajv at run time for another one (`ajv-compiler.ts`).
 */

import type { ErrorObject } from "ajv/dist/2020.js";
import type { JsonValue, OpenApiDocument, Operation, OperationParameter } from "./openapi.js";
import { findResponse, pointerValue, unescapePointer } from "./openapi.js";

/** A compiled schema: Ajv's validate function (its `errors` filled after a failed call). */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Gives the validator of the schema at a JSON pointer of the document. */
export type SchemaCompiler = (pointer: string) => SchemaValidator;

/** JSON type of a parameter, as its schema declares it (`undefined` where it declares no single type). */
export type Kind = "string" | "integer" | "number" | "boolean" | "array" | "object";

/** A decimal number as a query string may spell it: optional minus, digits, fraction, exponent. */
/** The form media type, whose array fields travel exploded (one field per value). */
const FORM = "application/x-www-form-urlencoded";
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** One rule a request broke, named for the client: which parameter or body field, and what rule. */
export interface RequestProblem {
  /** The parameter name, or `body` (with a JSON pointer appended for body fields). */
  readonly parameter: string;
  readonly message: string;
  /**
   * Set when the rule broken is one a reference page names an error for: a required parameter or
   * field left out (`missing`), or a value outside the allowed set (`not_in_set`).
   */
  readonly cause?: { readonly rule: "missing" | "not_in_set"; readonly field: string };
}

/** The parts of a request that validation looks at, already split out of the raw HTTP request. */
export interface RequestInput {
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Parameters after validation, converted to the types their schemas declare (query arrays as arrays,
 * integers as numbers).
 */
export interface ValidatedParams {
  readonly path: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly header: Record<string, unknown>;
}

interface CompiledParameter {
  readonly parameter: OperationParameter;
  readonly kind: Kind | undefined;
  readonly itemKind: Kind | undefined;
  readonly validate: SchemaValidator | undefined;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function coerce(raw: string, kind: Kind | undefined): unknown {
  if ((kind === "integer" || kind === "number") && DECIMAL.test(raw)) return Number(raw);
  if (kind === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

/**
 * Whether a numeric parameter's digits name a number too large to hold exactly: converting it would
 * silently give a different value (or Infinity), so it is refused with a message that says why.
 */
export function isOverlongNumber(raw: string, kind: Kind | undefined): boolean {
  if (kind !== "integer" && kind !== "number") return false;
  if (!DECIMAL.test(raw)) return false;
  const value = Number(raw);
  return kind === "integer" ? !Number.isSafeInteger(value) && /^-?\d+$/.test(raw) : !Number.isFinite(value);
}

/** Turns Ajv errors into one readable sentence: `<where>: <rule>` for each error, joined by `; `. */
export function describeErrors(where: string, errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return `${where}: invalid`;
  const parts = new Set<string>();
  for (const error of errors) {
    // An `if`/`anyOf` wrapper error repeats what its branches already said.
    if (error.keyword === "if" || error.keyword === "anyOf" || error.keyword === "oneOf") {
      if (errors.length > 1) continue;
    }
    const at = error.instancePath === "" ? where : `${where} at ${error.instancePath}`;
    let rule = error.message ?? "is invalid";
    if (error.keyword === "additionalProperties")
      rule = `must not have property "${error.params.additionalProperty}"`;
    if (error.keyword === "enum")
      rule = `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    if (error.keyword === "const") rule = `must be ${JSON.stringify(error.params.allowedValue)}`;
    parts.add(`${at}: ${rule}`);
  }
  return [...parts].join("; ");
}

/**
 * Validators for one operation: parameters and request body, compiled at start; response schemas,
 * compiled on first use (only response validation mode needs them).
 */
export class OperationValidator {
  readonly operation: Operation;
  readonly #owner: SpecValidators;
  readonly #params: CompiledParameter[];
  readonly #bodies: Map<string, SchemaValidator | undefined>;
  /** Form fields typed as lists, with the kind of their items (to convert each item as a scalar field). */
  readonly #formArrays: Map<string, Kind | undefined>;
  readonly #formKinds: Map<string, Kind>;

  constructor(owner: SpecValidators, operation: Operation) {
    this.operation = operation;
    this.#owner = owner;
    this.#params = operation.parameters.map((parameter) => {
      const kind = owner.kindOf(parameter.schema);
      // Only read for arrays; for other schemas it is whatever their (absent) `items` declare.
      const itemKind = owner.itemKindOf(parameter.schema);
      const validate =
        parameter.schemaPointer === undefined ? undefined : owner.compile(parameter.schemaPointer);
      return { parameter, kind, itemKind, validate };
    });
    this.#bodies = new Map(
      (operation.requestBody?.content ?? []).map((m) => [
        m.mediaType,
        m.schemaPointer === undefined ? undefined : owner.compile(m.schemaPointer),
      ]),
    );
    const form = operation.requestBody?.content.find((m) => m.mediaType === FORM);
    this.#formArrays = new Map(
      form?.schemaPointer === undefined ? [] : owner.arrayFields(form.schemaPointer),
    );
    this.#formKinds = new Map(
      form?.schemaPointer === undefined ? [] : owner.scalarFieldKinds(form.schemaPointer),
    );
  }

  /** Media types the operation accepts as request body (lower case, without parameters). */
  get bodyMediaTypes(): string[] {
    return [...this.#bodies.keys()];
  }

  /**
   * Checks path, query and header parameters. Unknown query parameters are refused so that a typo in a
   * client shows up at once instead of being silently ignored.
   */
  validateParams(input: RequestInput): ValidatedParams | { problems: RequestProblem[] } {
    const problems: RequestProblem[] = [];
    const out: ValidatedParams = { path: {}, query: {}, header: {} };
    const known = new Set<string>();
    for (const { parameter, kind, itemKind, validate } of this.#params) {
      const label = `${parameter.in} parameter "${parameter.name}"`;
      let raw: string[];
      if (parameter.in === "query") {
        known.add(parameter.name);
        raw = input.query.getAll(parameter.name);
      } else if (parameter.in === "path") {
        const value = input.pathParams[parameter.name];
        raw = value === undefined ? [] : [value];
      } else if (parameter.in === "header") {
        const value = input.headers[parameter.name];
        raw = value === undefined ? [] : Array.isArray(value) ? value : [value];
      } else {
        continue; // Cookie parameters: the description has none, and the sandbox sets no cookies.
      }
      if (raw.length === 0) {
        if (parameter.required)
          problems.push({
            parameter: parameter.name,
            message: `${label}: is required`,
            cause: { rule: "missing", field: parameter.name },
          });
        continue;
      }
      const overlong = raw.find((item) => isOverlongNumber(item, kind === "array" ? itemKind : kind));
      if (overlong !== undefined) {
        problems.push({
          parameter: parameter.name,
          message: `${label}: too long to be a number (${overlong.length} characters; at most ${Number.MAX_SAFE_INTEGER} is exact)`,
        });
        continue;
      }
      let value: unknown;
      if (kind === "array") {
        const items = parameter.explode ? raw : raw.flatMap((r) => r.split(","));
        if (!parameter.explode && raw.length > 1) {
          problems.push({
            parameter: parameter.name,
            message: `${label}: give the values comma-separated, once`,
          });
          continue;
        }
        value = items.map((item) => coerce(item, itemKind));
      } else {
        if (raw.length > 1) {
          problems.push({ parameter: parameter.name, message: `${label}: must not be repeated` });
          continue;
        }
        value = coerce(raw[0] as string, kind);
      }
      if (validate && !validate(value)) {
        const notInSet = validate.errors?.some((e) => e.keyword === "enum" || e.keyword === "const");
        problems.push({
          parameter: parameter.name,
          message: describeErrors(label, validate.errors),
          ...(notInSet ? { cause: { rule: "not_in_set" as const, field: parameter.name } } : {}),
        });
        continue;
      }
      out[parameter.in][parameter.name] = value;
    }
    for (const name of new Set(input.query.keys())) {
      if (!known.has(name)) {
        problems.push({
          parameter: name,
          message: `query parameter "${name}": not defined for ${this.operation.operationId}`,
        });
      }
    }
    return problems.length > 0 ? { problems } : out;
  }

  /** Checks a parsed request body against the schema of its media type. */
  validateBody(mediaType: string, body: unknown): RequestProblem | undefined {
    const read = this.readBody(mediaType, body);
    return "problem" in read ? read.problem : undefined;
  }

  /**
   * Checks a parsed request body and gives it as the handlers receive it: form fields converted to the
   * types their schema declares (a field declared as a list is a list even when sent once; booleans and
   * numbers are values, not strings). Done once per request; handlers never parse a field again.
   */
  readBody(mediaType: string, body: unknown): { value: unknown } | { problem: RequestProblem } {
    const value = mediaType === FORM ? this.#typedForm(body) : body;
    const validate = this.#bodies.get(mediaType);
    if (!validate || validate(value)) return { value };
    const errors = validate.errors ?? [];
    const missing = errors.find((e) => e.keyword === "required");
    const notInSet = errors.find((e) => e.keyword === "enum" || e.keyword === "const");
    const cause = missing
      ? { rule: "missing" as const, field: String(missing.params.missingProperty) }
      : notInSet && /^\/[^/]+$/.test(notInSet.instancePath)
        ? {
            rule: "not_in_set" as const,
            field: unescapePointer(notInSet.instancePath.slice(1)),
          }
        : undefined;
    return {
      problem: {
        parameter: "body",
        message: describeErrors("request body", validate.errors),
        ...(cause ? { cause } : {}),
      },
    };
  }

  /** Form fields as their schema types them: exploded lists as lists, booleans and numbers converted. */
  #typedForm(body: unknown): unknown {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
    const fields = { ...(body as Record<string, unknown>) };
    for (const [name, itemKind] of this.#formArrays) {
      const raw = fields[name];
      const items = typeof raw === "string" ? [raw] : raw;
      if (Array.isArray(items))
        fields[name] = items.map((item) => (typeof item === "string" ? coerce(item, itemKind) : item));
    }
    for (const [name, kind] of this.#formKinds) {
      const raw = fields[name];
      if (typeof raw === "string") fields[name] = coerce(raw, kind);
    }
    return fields;
  }

  /**
   * Checks a response about to be sent. Returns a description of the mismatch, or `undefined` when the
   * response conforms.
   */
  checkResponse(status: number, mediaType: string | undefined, body: unknown): string | undefined {
    const documented = findResponse(this.operation, status);
    if (!documented) return `status ${status} is not documented for ${this.operation.operationId}`;
    // 204 and 304 carry no content by definition (RFC 9110), whatever the description lists.
    if ((status === 204 || status === 304) && mediaType === undefined) return undefined;
    if (documented.content.length === 0) {
      return mediaType === undefined
        ? undefined
        : `status ${status} is documented without a body, but one was sent`;
    }
    if (mediaType === undefined) return `status ${status} is documented with a body, but none was sent`;
    const media = documented.content.find((m) => m.mediaType === mediaType);
    if (!media) {
      const allowed = documented.content.map((m) => m.mediaType).join(", ");
      return `content type ${mediaType} is not documented for status ${status} (documented: ${allowed})`;
    }
    if (media.schemaPointer === undefined) return undefined;
    // Compiled on first use; the owner keeps it for every later response.
    const validate = this.#owner.compile(media.schemaPointer);
    if (validate(body)) return undefined;
    return describeErrors("response body", validate.errors);
  }
}

/**
 * All validators for one OpenAPI document. Compiling is the slow part, so one instance per document is
 * kept for the whole process (see {@link validatorsFor}).
 */
export class SpecValidators {
  readonly #doc: OpenApiDocument;
  readonly #compile: SchemaCompiler;
  readonly #compiled = new Map<string, SchemaValidator>();
  readonly #operations = new Map<Operation, OperationValidator>();

  constructor(doc: OpenApiDocument, compile: SchemaCompiler) {
    this.#doc = doc;
    this.#compile = compile;
  }

  /** Compiles (once) the schema at a JSON pointer of the document. */
  compile(pointer: string): SchemaValidator {
    let validate = this.#compiled.get(pointer);
    if (!validate) {
      validate = this.#compile(pointer);
      this.#compiled.set(pointer, validate);
    }
    return validate;
  }

  /** The validator of one operation, built on first request and kept. */
  forOperation(operation: Operation): OperationValidator {
    let v = this.#operations.get(operation);
    if (!v) {
      v = new OperationValidator(this, operation);
      this.#operations.set(operation, v);
    }
    return v;
  }

  /** The JSON type a (possibly `$ref`) schema declares, for converting query strings. */
  kindOf(schema: JsonValue | undefined): Kind | undefined {
    const resolved = this.#deref(schema);
    if (!isObject(resolved)) return undefined;
    const type = resolved.type;
    if (typeof type === "string") return type as Kind;
    if (Array.isArray(type)) {
      const nonNull = type.filter((t) => t !== "null");
      if (nonNull.length === 1) return nonNull[0] as Kind;
    }
    return undefined;
  }

  /** The top-level properties that the (possibly `$ref`) object schema at a pointer types as arrays, with their items' kind. */
  arrayFields(pointer: string): [string, Kind | undefined][] {
    const resolved = this.#deref({ $ref: `#${pointer}` });
    const properties = isObject(resolved) ? resolved.properties : undefined;
    if (!isObject(properties)) return [];
    return Object.keys(properties)
      .filter((name) => this.kindOf(properties[name]) === "array")
      .map((name) => [name, this.itemKindOf(properties[name])]);
  }

  /** Top-level properties of an object schema typed as boolean, integer or number, with that type. */
  scalarFieldKinds(pointer: string): [string, Kind][] {
    const resolved = this.#deref({ $ref: `#${pointer}` });
    const properties = isObject(resolved) ? resolved.properties : undefined;
    if (!isObject(properties)) return [];
    return Object.keys(properties).flatMap((name): [string, Kind][] => {
      const kind = this.kindOf(properties[name]);
      return kind === "boolean" || kind === "integer" || kind === "number" ? [[name, kind]] : [];
    });
  }

  /** The JSON type of an array schema's items. */
  itemKindOf(schema: JsonValue | undefined): Kind | undefined {
    const resolved = this.#deref(schema);
    return isObject(resolved) ? this.kindOf(resolved.items) : undefined;
  }

  #deref(schema: JsonValue | undefined): JsonValue | undefined {
    let current = schema;
    for (let hops = 0; hops < 20 && isObject(current) && typeof current.$ref === "string"; hops++) {
      const ref: string = current.$ref;
      if (!ref.startsWith("#/")) return undefined;
      current = pointerValue(this.#doc, ref);
    }
    return current;
  }
}

const cache = new WeakMap<OpenApiDocument, SpecValidators>();

/** The process-wide validators for a document (built on first call, with `compile`). */
export function validatorsFor(doc: OpenApiDocument, compile: SchemaCompiler): SpecValidators {
  let validators = cache.get(doc);
  if (!validators) {
    validators = new SpecValidators(doc, compile);
    cache.set(doc, validators);
  }
  return validators;
}
