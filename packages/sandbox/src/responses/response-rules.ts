/**
 * Programmable responses: rules that make an operation answer what a test needs, simulated or not.
 * Every rule is checked against the description when it is loaded (operation, status, headers, body
 * schema), so a rule can never make the sandbox send what the description forbids; a set with one bad
 * rule is refused whole.
 */
import { ResponseRulesError, type ResponseRulesProblem } from "../errors.js";
import type { Operation } from "../http/openapi.js";
import { findResponse } from "../http/openapi.js";
import type { SpecValidators } from "../http/validator.js";

/**
 * A value a `when` condition compares with: the parameter as sent, compared as text (`3` matches `?n=3`).
 *
 * @example
 * ```ts
 * import { createSandbox, type ResponseRuleValue } from "@drill-practice/sandbox";
 *
 * const group: ResponseRuleValue = "group-1";
 * const sandbox = await createSandbox();
 * sandbox.setResponses([{ operationId: "getGroup_v2_1", when: { path: { group } }, status: 200, body: { id: group } }]);
 * ```
 */
export type ResponseRuleValue = string | number | boolean;

/**
 * One programmed response: when a request for `operationId` matches `when` (every named path and
 * query parameter equal to the given value; no `when` matches every request), the sandbox answers
 * with `status`, `headers` and `body` instead of running the operation.
 *
 * @example
 * ```ts
 * import { createSandbox, type ResponseRule } from "@drill-practice/sandbox";
 *
 * const rule: ResponseRule = {
 *   operationId: "getGroup_v2_1",
 *   when: { path: { group: "group-1" } },
 *   status: 200,
 *   body: { id: "group-1", name: "Year 9 Spanish" },
 * };
 * const sandbox = await createSandbox({ responses: [rule] });
 * ```
 */
export interface ResponseRule {
  readonly operationId: string;
  readonly when?: {
    readonly path?: Readonly<Record<string, ResponseRuleValue>>;
    readonly query?: Readonly<Record<string, ResponseRuleValue | readonly ResponseRuleValue[]>>;
  };
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The JSON body; leave it out for a response without content. */
  readonly body?: unknown;
}

/**
 * The `--responses` file: `{ "responses": [ rule, … ] }`, first matching rule wins.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { createSandbox, type ResponseRulesFile } from "@drill-practice/sandbox";
 *
 * const file: ResponseRulesFile = JSON.parse(await readFile("./responses.json", "utf8"));
 * const sandbox = await createSandbox({ responses: file }); // checked: a bad rule fails here
 * ```
 */
export interface ResponseRulesFile {
  readonly responses: readonly ResponseRule[];
}

/**
 * Where rules apply and how to give them, for documentation: every operation of the description is
 * programmable, from code, from a file and over the admin API.
 *
 * @example
 * ```ts
 * import { PROGRAMMABLE_RESPONSES } from "@drill-practice/sandbox";
 *
 * console.log(`every operation is programmable: option ${PROGRAMMABLE_RESPONSES.option}, CLI ${PROGRAMMABLE_RESPONSES.cliOption}`);
 * ```
 */
export const PROGRAMMABLE_RESPONSES = {
  operations: "all",
  option: "responses",
  cliOption: "--responses",
  adminPath: "/__sandbox/responses",
} as const;

/** A checked rule, ready to match requests. */
export interface LoadedRule {
  /** Position in the loaded set, starting at 0 (what the request log names). */
  readonly index: number;
  readonly rule: ResponseRule;
  readonly mediaType: string | undefined;
}

// Headers the server computes itself; a rule that sets them would produce a broken message.
const RESERVED_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is ResponseRuleValue {
  return (
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

function mediaTypeOf(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === "content-type") return value.split(";")[0]?.trim().toLowerCase();
  }
  return undefined;
}

function checkWhen(when: unknown, operation: Operation, at: string, problems: ResponseRulesProblem[]): void {
  if (when === undefined) return;
  if (!isPlainObject(when)) {
    problems.push({ path: at, message: "must be an object with optional `path` and `query`" });
    return;
  }
  for (const key of Object.keys(when)) {
    if (key !== "path" && key !== "query")
      problems.push({ path: `${at}.${key}`, message: "unknown key (allowed: path, query)" });
  }
  for (const location of ["path", "query"] as const) {
    const conditions = when[location];
    if (conditions === undefined) continue;
    if (!isPlainObject(conditions)) {
      problems.push({ path: `${at}.${location}`, message: "must be an object of parameter names to values" });
      continue;
    }
    const names = operation.parameters.filter((p) => p.in === location).map((p) => p.name);
    for (const [name, value] of Object.entries(conditions)) {
      const here = `${at}.${location}.${name}`;
      if (!names.includes(name)) {
        const known = names.length === 0 ? "it has none" : `it has ${names.join(", ")}`;
        problems.push({
          path: here,
          message: `${operation.operationId} has no ${location} parameter "${name}" (${known})`,
        });
        continue;
      }
      const ok =
        isScalar(value) ||
        (location === "query" && Array.isArray(value) && value.length > 0 && value.every(isScalar));
      if (!ok) {
        problems.push({
          path: here,
          message:
            location === "query"
              ? "must be a string, number or boolean, or a non-empty array of them"
              : "must be a string, number or boolean",
        });
      }
    }
  }
}

function checkRule(
  raw: unknown,
  at: string,
  operations: ReadonlyMap<string, Operation>,
  validators: SpecValidators,
  problems: ResponseRulesProblem[],
): boolean {
  const before = problems.length;
  if (!isPlainObject(raw)) {
    problems.push({ path: at, message: "must be an object { operationId, when?, status, headers?, body? }" });
    return false;
  }
  for (const key of Object.keys(raw)) {
    if (!["operationId", "when", "status", "headers", "body"].includes(key)) {
      problems.push({
        path: `${at}.${key}`,
        message: "unknown key (allowed: operationId, when, status, headers, body)",
      });
    }
  }
  const operation = typeof raw.operationId === "string" ? operations.get(raw.operationId) : undefined;
  if (typeof raw.operationId !== "string") {
    problems.push({
      path: `${at}.operationId`,
      message: "must be the operationId of an operation of the description",
    });
  } else if (!operation) {
    problems.push({
      path: `${at}.operationId`,
      message: `no operation of the description has operationId "${raw.operationId}"`,
    });
  }
  const status = raw.status;
  if (!(typeof status === "number" && Number.isInteger(status) && status >= 200 && status <= 599)) {
    problems.push({ path: `${at}.status`, message: "must be an integer HTTP status from 200 to 599" });
  }
  checkRuleHeaders(raw.headers, `${at}.headers`, problems);
  if (!operation) return false;
  checkWhen(raw.when, operation, `${at}.when`, problems);
  if (problems.length > before) return false;
  return checkRuleAnswer(raw, at, operation, validators, problems);
}

/** A rule's headers: valid names, none the sandbox sets itself, one-line string values. */
function checkRuleHeaders(headers: unknown, at: string, problems: ResponseRulesProblem[]): void {
  if (headers === undefined) return;
  if (!isPlainObject(headers)) {
    problems.push({ path: at, message: "must be an object of header names to string values" });
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    const here = `${at}.${name}`;
    if (!TOKEN.test(name)) problems.push({ path: here, message: "is not a valid header name" });
    else if (RESERVED_HEADERS.has(name.toLowerCase()))
      problems.push({ path: here, message: "is set by the sandbox itself" });
    else if (typeof value !== "string" || /[\r\n\0]/.test(value)) {
      problems.push({ path: here, message: "must be a string without line breaks" });
    }
  }
}

/** A well-formed rule's answer: a documented status, and a JSON body its response schema accepts. */
function checkRuleAnswer(
  raw: Record<string, unknown>,
  at: string,
  operation: Operation,
  validators: SpecValidators,
  problems: ResponseRulesProblem[],
): boolean {
  const status = raw.status as number;
  const documented = findResponse(operation, status);
  if (!documented) {
    const listed = operation.responses.map((r) => r.status).join(", ");
    problems.push({
      path: `${at}.status`,
      message: `status ${status} is not documented for ${operation.operationId} (documented: ${listed})`,
    });
    return false;
  }
  const headers = raw.headers as Record<string, string> | undefined;
  const hasBody = "body" in raw && raw.body !== undefined;
  const mediaType = hasBody ? (mediaTypeOf(headers) ?? "application/json") : undefined;
  if (mediaType !== undefined && mediaType !== "application/json" && !mediaType.endsWith("+json")) {
    problems.push({
      path: `${at}.headers.content-type`,
      message: "the sandbox sends rule bodies as JSON: use application/json or a +json media type",
    });
    return false;
  }
  const mismatch = validators.forOperation(operation).checkResponse(status, mediaType, raw.body);
  if (mismatch !== undefined) {
    problems.push({
      path: hasBody ? `${at}.body` : at,
      message: `breaks the description of ${operation.operationId}: ${mismatch}`,
    });
    return false;
  }
  return true;
}

/**
 * Checks a rule set (the parsed `--responses` file, or a list of rules) against the description and
 * returns the rules ready to match; throws {@link ResponseRulesError} listing every problem with its
 * JSON path when any rule is bad, so nothing of a refused set is applied.
 */
export function loadResponseRules(
  input: unknown,
  operations: ReadonlyMap<string, Operation>,
  validators: SpecValidators,
  source?: string,
): LoadedRule[] {
  const problems: ResponseRulesProblem[] = [];
  let list: unknown;
  let prefix = "$.responses";
  if (Array.isArray(input)) {
    list = input;
    prefix = "$";
  } else if (isPlainObject(input) && Array.isArray(input.responses)) {
    list = input.responses;
    for (const key of Object.keys(input)) {
      if (key !== "responses")
        problems.push({ path: `$.${key}`, message: "unknown key (allowed: responses)" });
    }
  } else {
    throw new ResponseRulesError(
      [{ path: "$", message: 'must be an object { "responses": [ … ] }' }],
      source,
    );
  }
  const loaded: LoadedRule[] = [];
  (list as unknown[]).forEach((raw, index) => {
    if (checkRule(raw, `${prefix}[${index}]`, operations, validators, problems)) {
      const rule = raw as ResponseRule;
      loaded.push({
        index,
        rule,
        mediaType:
          "body" in rule && rule.body !== undefined
            ? (mediaTypeOf(rule.headers) ?? "application/json")
            : undefined,
      });
    }
  });
  if (problems.length > 0) throw new ResponseRulesError(problems, source);
  return loaded;
}

function sameValue(expected: ResponseRuleValue, actual: string): boolean {
  return String(expected) === actual;
}

/**
 * The active rule set; the pipeline asks it, after authentication and validation, whether a rule
 * answers a request. Replacing the set is one assignment, so a request sees the old or the new set,
 * never half of each.
 */
export class ResponseBook {
  #rules: readonly LoadedRule[] = [];

  /** Makes `rules` the active set, dropping the previous one. */
  replace(rules: readonly LoadedRule[]): void {
    this.#rules = rules;
  }

  /** The active rules, in matching order. */
  list(): ResponseRule[] {
    return this.#rules.map((r) => r.rule);
  }

  /** The first rule for the operation whose conditions all hold, if any. */
  match(
    operationId: string,
    pathParams: Readonly<Record<string, string>>,
    query: URLSearchParams,
  ): LoadedRule | undefined {
    for (const loaded of this.#rules) {
      if (loaded.rule.operationId !== operationId) continue;
      const when = loaded.rule.when;
      const pathOk = Object.entries(when?.path ?? {}).every(([name, value]) => {
        const actual = pathParams[name];
        return actual !== undefined && sameValue(value, actual);
      });
      if (!pathOk) continue;
      const queryOk = Object.entries(when?.query ?? {}).every(([name, value]) => {
        const actual = query.getAll(name);
        if (Array.isArray(value)) {
          return actual.length === value.length && value.every((v, i) => sameValue(v, actual[i] as string));
        }
        return actual.length === 1 && sameValue(value as ResponseRuleValue, actual[0] as string);
      });
      if (queryOk) return loaded;
    }
    return undefined;
  }
}
