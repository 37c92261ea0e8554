/**
 * Example answers: an operation the sandbox does not simulate, but whose success answer the description
 * types (from the service's public reference or the interface), answers an example of that answer
 * instead of 501: the page's own example where the description has one, otherwise a value built from
 * the schema. Every example is checked against the schema when the sandbox starts, and one that does not
 * validate is not used. The answer carries the header `Drill-Sandbox-Example`, so nobody mistakes it for
 * state. Before answering, the request is checked against the observed fields: a typed form body whose
 * required fields are missing is refused with 400 in the API's error shape.
 */

import { bundledSpec } from "../http/bundled-spec.js";
import { bundledCompiler } from "../http/bundled-validators.js";
import { SIMULATED_OPERATIONS } from "../http/handlers.js";
import type { JsonValue, OpenApiDocument, Operation } from "../http/openapi.js";
import { escapePointer, listOperations, pointerValue } from "../http/openapi.js";
import type { OperationHandler } from "../http/operation-handler.js";
import type { Reply } from "../http/replies.js";
import { errorReply } from "../http/replies.js";
import type { SpecValidators } from "../http/validator.js";
import { validatorsFor } from "../http/validator.js";

/** The paths of the API version the sandbox does not answer yet, examples included. */
const NOT_YET_SIMULATED_PREFIX = "/api/2.1.1/";

/**
 * The response header that marks an example answer. Its value says where the example comes from:
 * `page-example; name=<example>` (the reference page's example, kept as a fixture in the description)
 * or `built-from-schema; schema=<schema>` (a value built from the answer's schema), or `no-content`.
 *
 * @example
 * ```ts
 * import { EXAMPLE_HEADER } from "@drill-practice/sandbox";
 *
 * // Did this answer come from the reference page's example rather than from the sandbox's state?
 * function isExampleAnswer(res: Response): boolean {
 *   return res.headers.has(EXAMPLE_HEADER); // value e.g. "page-example; name=User_v2_0"
 * }
 * ```
 */
export const EXAMPLE_HEADER = "drill-sandbox-example";

/** Answer schemas that name nothing: the sandbox has no example of them to give. */
const OPEN_ANSWERS = new Set(["NotShown"]);

type Json = { [key: string]: JsonValue };

/** One operation's example answer, as prepared at start. */
export interface ExampleAnswer {
  readonly status: number;
  readonly body?: JsonValue;
  /** The value of {@link EXAMPLE_HEADER}. */
  readonly origin: string;
  /** What the support table says about it. */
  readonly summary: string;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s; the name of the last component passed through comes along. */
function deref(
  doc: OpenApiDocument,
  node: JsonValue | undefined,
): { node: JsonValue | undefined; name?: string } {
  let current = node;
  let name: string | undefined;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 20; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) return { node: undefined };
    name = ref.split("/").pop();
    current = pointerValue(doc, ref);
  }
  return name === undefined ? { node: current } : { node: current, name };
}

const FIXED_DATE = "2024-01-01T00:00:00Z";

function builtString(schema: Json): string {
  if (schema.format === "date-time") return FIXED_DATE;
  if (schema.format === "date") return FIXED_DATE.slice(0, 10);
  if (schema.format === "email") return "someone@example.com";
  if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
  return "example";
}

/**
 * A value for a schema: its `const`, first `examples` entry, `default` or first `enum` value where it
 * has one; otherwise every named property (objects), one item (arrays) or a plain value of its type.
 */
function build(doc: OpenApiDocument, raw: JsonValue | undefined, depth: number): JsonValue | undefined {
  const { node } = deref(doc, raw);
  if (!isObject(node) || depth > 8) return undefined;
  if ("const" in node) return node.const;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if ("default" in node) return node.default;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const parts = node[key];
    if (!Array.isArray(parts) || parts.length === 0) continue;
    if (key !== "allOf") return build(doc, parts[0], depth + 1);
    const merged: Json = {};
    for (const part of parts) {
      const value = build(doc, part, depth + 1);
      if (isObject(value)) Object.assign(merged, value);
    }
    return merged;
  }
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== "null") : node.type;
  switch (type) {
    case "object": {
      const out: Json = {};
      for (const [name, property] of Object.entries(isObject(node.properties) ? node.properties : {})) {
        const value = build(doc, property, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case "array": {
      const item = build(doc, node.items, depth + 1);
      return item === undefined ? [] : [item];
    }
    case "string":
      return builtString(node);
    case "integer":
    case "number":
      return typeof node.minimum === "number" ? node.minimum : 0;
    case "boolean":
      return false;
    default:
      return isObject(node.properties) ? build(doc, { ...node, type: "object" }, depth) : undefined;
  }
}

function successResponse(doc: OpenApiDocument, operation: Operation) {
  const item = pointerValue(doc, `/paths/${escapePointer(operation.path)}`);
  const raw = isObject(item) ? item[operation.method.toLowerCase()] : undefined;
  const responses = isObject(raw) && isObject(raw.responses) ? raw.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    if (/^2(?:XX|xx|\d\d)$/.test(status)) return { status, response: deref(doc, response).node };
  }
  return undefined;
}

/**
 * The example answer of one operation, or `undefined` when its success answer is not typed (or no
 * example of it validates).
 */
export function exampleAnswerOf(
  doc: OpenApiDocument,
  operation: Operation,
  validators: SpecValidators,
): ExampleAnswer | undefined {
  // API 2.1.1 answers 501 `not_simulated` until the sandbox simulates it (issue 46), examples or not.
  if (operation.path.startsWith(NOT_YET_SIMULATED_PREFIX)) return undefined;
  const found = successResponse(doc, operation);
  if (!found || !isObject(found.response)) return undefined;
  const status = /^\d+$/.test(found.status) ? Number(found.status) : 200;
  const content = isObject(found.response.content) ? found.response.content : {};
  const json = content["application/json"];
  if (json === undefined) {
    // A success the page states without a body (204): the answer is the status alone.
    if (status !== 204 || !("x-observed" in found.response)) return undefined;
    return { status, origin: "no-content", summary: "answers `204` without a body, as its page shows" };
  }
  if (!isObject(json)) return undefined;
  const { node: schema, name: schemaName } = deref(doc, json.schema);
  if (schema === undefined || (schemaName !== undefined && OPEN_ANSWERS.has(schemaName))) return undefined;
  const validator = validators.forOperation(operation);
  const valid = (body: JsonValue | undefined) =>
    body !== undefined && validator.checkResponse(status, "application/json", body) === undefined;

  const candidates: { body: JsonValue | undefined; origin: string; summary: string }[] = [];
  for (const [key, raw] of Object.entries(isObject(json.examples) ? json.examples : {})) {
    const { node, name } = deref(doc, raw);
    if (isObject(node) && "value" in node) {
      candidates.push({
        body: node.value,
        origin: `page-example; name=${name ?? key}`,
        summary: "answers the example of its reference page",
      });
    }
  }
  if ("example" in json) {
    candidates.push({
      body: json.example,
      origin: "page-example",
      summary: "answers the example of its reference page",
    });
  }
  const label = schemaName ?? "inline";
  candidates.push({
    body: build(doc, json.schema, 0),
    origin: `built-from-schema; schema=${label}`,
    summary: "answers an example built from its answer schema",
  });
  const chosen = candidates.find((c) => valid(c.body));
  if (!chosen || chosen.body === undefined) return undefined;
  return { status, body: chosen.body, origin: chosen.origin, summary: chosen.summary };
}

/** The request check: a typed form or JSON body whose required fields are missing is refused. */
function missingFields(operation: Operation, validators: SpecValidators, body: unknown): Reply | undefined {
  if (body !== undefined || !operation.requestBody) return undefined;
  const validator = validators.forOperation(operation);
  for (const mediaType of validator.bodyMediaTypes) {
    if (mediaType !== "application/x-www-form-urlencoded" && mediaType !== "application/json") continue;
    const problem = validator.validateBody(mediaType, {});
    if (problem) {
      return errorReply(
        "invalid_request",
        `${problem.message} (${operation.operationId} needs these fields)`,
        {
          fields: { parameter: problem.parameter },
        },
      );
    }
  }
  return undefined;
}

/**
 * Handlers that answer examples, for every operation of the description whose success answer is typed
 * and that `simulated` does not already answer.
 */
export function exampleAnswerHandlers(
  doc: OpenApiDocument,
  operations: readonly Operation[],
  validators: SpecValidators,
  simulated: ReadonlySet<string>,
): Map<string, OperationHandler> {
  const handlers = new Map<string, OperationHandler>();
  for (const operation of operations) {
    if (simulated.has(operation.operationId)) continue;
    const answer = exampleAnswerOf(doc, operation, validators);
    if (!answer) continue;
    handlers.set(operation.operationId, (request) => {
      const refused = missingFields(operation, validators, request.body);
      if (refused) return refused;
      const headers = { [EXAMPLE_HEADER]: answer.origin };
      // A copy per answer: a client must not be able to change the next caller's example.
      return answer.body === undefined
        ? { status: answer.status, headers }
        : { status: answer.status, body: structuredClone(answer.body), headers };
    });
  }
  return handlers;
}

/**
 * What the sandbox does for each operation it answers with an example, by operationId: the rows the
 * support table (README, docs) shows beside the simulated operations.
 */
export function exampleAnswerSupport(
  doc: OpenApiDocument,
  operations: readonly Operation[],
  validators: SpecValidators,
  simulated: ReadonlySet<string>,
): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const operation of operations) {
    if (simulated.has(operation.operationId)) continue;
    const answer = exampleAnswerOf(doc, operation, validators);
    if (answer)
      rows[operation.operationId] = `${answer.summary} (header \`Drill-Sandbox-Example\`); keeps no state`;
  }
  return rows;
}

/**
 * The operations the packaged description (or `spec`) lets the sandbox answer with an example, by
 * operationId, with what it answers: the rows of the support table beside `SIMULATED_OPERATIONS`.
 *
 * @example
 * ```ts
 * import { exampleAnsweredOperations } from "@drill-practice/sandbox";
 *
 * const rows = await exampleAnsweredOperations();
 * rows.getUser_v2_0; // "answers the example of its reference page (header `Drill-Sandbox-Example`); keeps no state"
 * ```
 */
export async function exampleAnsweredOperations(spec?: OpenApiDocument): Promise<Record<string, string>> {
  if (spec === undefined) return exampleAnswerRows(bundledSpec());
  const { ajvCompiler } = await import("../http/ajv-compiler.js");
  return exampleAnswerRows(spec, validatorsFor(spec, ajvCompiler(spec)));
}

/**
 * {@link exampleAnsweredOperations} for a document at hand (the README generator uses it); the packaged
 * description's own validators unless others are given.
 */
export function exampleAnswerRows(
  doc: OpenApiDocument,
  validators: SpecValidators = validatorsFor(doc, bundledCompiler),
): Record<string, string> {
  const simulated = new Set(Object.keys(SIMULATED_OPERATIONS));
  return exampleAnswerSupport(doc, listOperations(doc), validators, simulated);
}
