/**
 * The request validator on its own, against small hand-written descriptions: which parameter values and
 * bodies it accepts (converted to the types their schemas declare), and for refused ones the exact
 * problem a client author reads — which parameter or field, and which rule.
 */
import { describe, expect, it } from "vitest";
import { SpecInvalidError } from "../../src/errors.js";
import { ajvCompiler } from "../../src/http/ajv-compiler.js";
import type { JsonValue, OpenApiDocument, Operation, OperationParameter } from "../../src/http/openapi.js";
import { listOperations } from "../../src/http/openapi.js";
import type { RequestInput } from "../../src/http/validator.js";
import { describeErrors, isOverlongNumber, SpecValidators, validatorsFor } from "../../src/http/validator.js";

const MAX = Number.MAX_SAFE_INTEGER;

/** A description with one GET operation `getThing` at `/things/{id}` taking `parameters`. */
function describing(
  parameters: JsonValue[],
  schemas: Record<string, JsonValue> = {},
  extra: Record<string, JsonValue> = {},
): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "validator test", version: "1" },
    paths: {
      "/things/{id}": {
        get: {
          operationId: "getThing",
          parameters,
          responses: {
            "200": {
              description: "the thing",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/Thing" } },
                "application/xml": {},
              },
            },
            "204": { description: "nothing" },
            default: {
              description: "error",
              content: { "application/json": { schema: { type: "object", required: ["message"] } } },
            },
          },
        },
        put: {
          operationId: "putThing",
          requestBody: {
            content: {
              "application/x-www-form-urlencoded": { schema: { $ref: "#/components/schemas/Answer" } },
              "multipart/form-data": {},
            },
          },
          responses: {
            "201": { description: "stored" },
            "204": { description: "already stored", content: { "application/json": {} } },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" }, size: { type: "integer" } },
        },
        Answer: {
          type: "object",
          required: ["answer"],
          properties: {
            answer: { type: "string", minLength: 1 },
            mode: { const: "exact" },
            level: { enum: ["1", "2", "3"] },
          },
          additionalProperties: false,
        },
        ...schemas,
      },
    },
    ...extra,
  };
}

function operation(doc: OpenApiDocument, operationId: string): Operation {
  const found = listOperations(doc).find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

function getThing(parameters: JsonValue[], schemas: Record<string, JsonValue> = {}) {
  const doc = describing(parameters, schemas);
  return new SpecValidators(doc, ajvCompiler(doc)).forOperation(operation(doc, "getThing"));
}

/** The validator of `postThing`, the one operation of a description, taking `content` as its request body. */
function postThing(content: Record<string, JsonValue>, schemas: Record<string, JsonValue> = {}) {
  const post = {
    operationId: "postThing",
    requestBody: { content },
    responses: { "201": { description: "stored" } },
  };
  const doc = describing([], schemas, { paths: { "/things": { post } } });
  return new SpecValidators(doc, ajvCompiler(doc)).forOperation(operation(doc, "postThing"));
}

function input(query = "", more: Partial<RequestInput> = {}): RequestInput {
  return { pathParams: {}, query: new URLSearchParams(query), headers: {}, ...more };
}

const q = (name: string, schema: JsonValue, more: Record<string, JsonValue> = {}): JsonValue => ({
  name,
  in: "query",
  schema,
  ...more,
});

/** The validated query parameters, or the problems' messages. */
function queryOf(v: ReturnType<typeof getThing>, query: string): Record<string, unknown> | string[] {
  const result = v.validateParams(input(query));
  return "problems" in result ? result.problems.map((p) => p.message) : result.query;
}

describe("numbers in query parameters", () => {
  const v = () => getThing([q("n", { type: "number" })]);

  it("takes an optional minus, a fraction and an exponent with or without sign", () => {
    const accepted = {
      "42": 42,
      "-7": -7,
      "0.5": 0.5,
      "-1.25": -1.25,
      "2e3": 2000,
      "2E+3": 2000,
      "25e-1": 2.5,
      "1.5e10": 15_000_000_000,
    };
    for (const [raw, value] of Object.entries(accepted)) {
      expect(queryOf(v(), `n=${encodeURIComponent(raw)}`), raw).toEqual({ n: value });
    }
  });

  it("refuses anything else as not a number, garbage before or after included", () => {
    for (const raw of [
      "1.",
      ".5",
      "+1",
      "--1",
      "1e",
      "1e+",
      "e3",
      "12abc",
      "abc12",
      "1,5",
      "0x10",
      "Infinity",
    ]) {
      expect(queryOf(v(), `n=${encodeURIComponent(raw)}`), raw).toEqual([
        'query parameter "n": must be number',
      ]);
    }
  });

  it("converts integers and checks their bounds, naming each broken rule", () => {
    const ints = getThing([
      q("page", { type: "integer", minimum: 1 }),
      q("size", { type: "integer", maximum: 50 }),
    ]);
    expect(queryOf(ints, "page=3&size=-20")).toEqual({ page: 3, size: -20 });
    expect(queryOf(ints, "page=1.5")).toEqual(['query parameter "page": must be integer']);
    expect(queryOf(ints, "page=three")).toEqual(['query parameter "page": must be integer']);
    // Both are reported, each naming its parameter.
    const result = ints.validateParams(input("page=0&size=51"));
    expect(result).toEqual({
      problems: [
        { parameter: "page", message: 'query parameter "page": must be >= 1' },
        { parameter: "size", message: 'query parameter "size": must be <= 50' },
      ],
    });
  });

  it("takes a nullable type as its non-null type, and leaves a choice of types as given", () => {
    const v2 = getThing([
      q("n", { type: ["integer", "null"] }),
      q("either", { type: ["integer", "string"] }),
    ]);
    expect(queryOf(v2, "n=5&either=5")).toEqual({ n: 5, either: "5" });
  });

  it("leaves a string parameter's digits and words as strings", () => {
    const v2 = getThing([q("s", { type: "string" })]);
    expect(queryOf(v2, "s=42")).toEqual({ s: "42" });
    expect(queryOf(v2, "s=true")).toEqual({ s: "true" });
  });
});

describe("numbers too long to be exact", () => {
  it("refuses integer digits beyond the largest exact integer, saying how long they were", () => {
    const v = getThing([q("n", { type: "integer" })]);
    expect(queryOf(v, `n=${MAX}`)).toEqual({ n: MAX });
    expect(queryOf(v, `n=-${MAX}`)).toEqual({ n: -MAX });
    const over = String(MAX + 1); // 9007199254740992, one past the exact range
    expect(queryOf(v, `n=${over}`)).toEqual([
      `query parameter "n": too long to be a number (${over.length} characters; at most ${MAX} is exact)`,
    ]);
    const digits = "9".repeat(20);
    expect(queryOf(v, `n=-${digits}`)).toEqual([
      `query parameter "n": too long to be a number (21 characters; at most ${MAX} is exact)`,
    ]);
    // An exponent naming an integer that a number holds exactly (10^20 = 2^20 * 5^20) is converted.
    expect(queryOf(v, "n=1e20")).toEqual({ n: 10 ** 20 });
  });

  it("refuses a number parameter only when it overflows to infinity", () => {
    const v = getThing([q("x", { type: "number" })]);
    expect(queryOf(v, `x=${"9".repeat(20)}`)).toEqual({ x: 1e20 });
    expect(queryOf(v, "x=1e400")).toEqual([
      `query parameter "x": too long to be a number (5 characters; at most ${MAX} is exact)`,
    ]);
  });

  it("checks every item of an integer array", () => {
    const v = getThing([q("ids", { type: "array", items: { type: "integer" } })]);
    const long = "1".repeat(17);
    expect(queryOf(v, `ids=1&ids=${long}`)).toEqual([
      `query parameter "ids": too long to be a number (17 characters; at most ${MAX} is exact)`,
    ]);
  });

  it("isOverlongNumber: only well-formed numbers of numeric kinds", () => {
    expect(isOverlongNumber("99999999999999999999", "integer")).toBe(true);
    expect(isOverlongNumber("99999999999999999999", "string")).toBe(false);
    expect(isOverlongNumber("99999999999999999999", undefined)).toBe(false);
    expect(isOverlongNumber("1e20", "integer")).toBe(false);
    expect(isOverlongNumber("12", "integer")).toBe(false);
    for (const raw of ["1e400", "-1e400", "1.5e+400", "2.25E400"])
      expect(isOverlongNumber(raw, "number"), raw).toBe(true);
    for (const raw of ["1e308", "99999999999999999999", "x1e400", "1e400x", "Infinity", "abc"]) {
      expect(isOverlongNumber(raw, "number"), raw).toBe(false);
    }
  });
});

describe("booleans", () => {
  it('takes exactly "true" and "false"', () => {
    const v = getThing([q("flag", { type: "boolean" })]);
    expect(queryOf(v, "flag=true")).toEqual({ flag: true });
    expect(queryOf(v, "flag=false")).toEqual({ flag: false });
    for (const raw of ["yes", "TRUE", "1", ""]) {
      expect(queryOf(v, `flag=${raw}`), raw).toEqual(['query parameter "flag": must be boolean']);
    }
  });
});

describe("arrays", () => {
  const items = { type: "array", items: { type: "integer" } };

  it("reads repeated keys when exploded", () => {
    const v = getThing([q("ids", items)]);
    expect(queryOf(v, "ids=1&ids=20&ids=-3")).toEqual({ ids: [1, 20, -3] });
    expect(queryOf(v, "ids=5")).toEqual({ ids: [5] });
  });

  it("reads one comma-separated value when not exploded, and refuses it repeated", () => {
    const v = getThing([q("ids", items, { explode: false })]);
    expect(queryOf(v, "ids=1,20,3")).toEqual({ ids: [1, 20, 3] });
    expect(queryOf(v, "ids=7")).toEqual({ ids: [7] });
    expect(v.validateParams(input("ids=1&ids=2"))).toEqual({
      problems: [
        { parameter: "ids", message: 'query parameter "ids": give the values comma-separated, once' },
      ],
    });
  });

  it("converts items by their own type, also through $refs", () => {
    const v = getThing(
      [
        q("flags", { type: "array", items: { type: "boolean" } }, { explode: false }),
        q("ids", { $ref: "#/components/schemas/Ids" }),
      ],
      { Ids: { type: "array", items: { $ref: "#/components/schemas/Id" } }, Id: { type: "integer" } },
    );
    expect(queryOf(v, "flags=true,false&ids=4&ids=5")).toEqual({ flags: [true, false], ids: [4, 5] });
  });

  it("names the item that breaks an enum, listing the allowed values", () => {
    const v = getThing([q("tags", { type: "array", items: { type: "string", enum: ["a", "b"] } })]);
    expect(queryOf(v, "tags=a&tags=c")).toEqual(['query parameter "tags" at /1: must be one of "a", "b"']);
  });

  it("refuses a repeated parameter that is not an array", () => {
    const v = getThing([q("s", { type: "string" })]);
    expect(queryOf(v, "s=a&s=b")).toEqual(['query parameter "s": must not be repeated']);
  });
});

describe("strings, presence and unknown names", () => {
  it("names pattern, length, enum and const rules", () => {
    const v = getThing([
      q("code", { type: "string", pattern: "^[A-Z]{3}$" }),
      q("name", { type: "string", minLength: 2, maxLength: 4 }),
      q("order", { type: "string", enum: ["asc", "desc"] }),
      q("v", { const: "v1" }),
    ]);
    expect(queryOf(v, "code=EUR&name=ab&order=desc&v=v1")).toEqual({
      code: "EUR",
      name: "ab",
      order: "desc",
      v: "v1",
    });
    expect(queryOf(v, "code=eur&name=a&order=up&v=v2")).toEqual([
      'query parameter "code": must match pattern "^[A-Z]{3}$"',
      'query parameter "name": must NOT have fewer than 2 characters',
      'query parameter "order": must be one of "asc", "desc"',
      'query parameter "v": must be "v1"',
    ]);
    expect(queryOf(v, "name=abcde")).toEqual([
      'query parameter "name": must NOT have more than 4 characters',
    ]);
  });

  it("requires required parameters and leaves out absent optional ones", () => {
    const v = getThing([q("q", { type: "string" }, { required: true }), q("opt", { type: "string" })]);
    expect(queryOf(v, "q=dog")).toEqual({ q: "dog" });
    expect(v.validateParams(input(""))).toEqual({
      problems: [
        {
          parameter: "q",
          message: 'query parameter "q": is required',
          cause: { rule: "missing", field: "q" },
        },
      ],
    });
  });

  it("refuses query parameters the operation does not define", () => {
    const v = getThing([q("q", { type: "string" })]);
    expect(v.validateParams(input("q=a&limit=5&limit=6"))).toEqual({
      problems: [{ parameter: "limit", message: 'query parameter "limit": not defined for getThing' }],
    });
  });

  it("does not look for cookie parameters: the sandbox sets no cookies", () => {
    const v = getThing([{ name: "session", in: "cookie", required: true, schema: { type: "string" } }]);
    const result = v.validateParams(input("", { headers: { cookie: "session=abc" } }));
    expect(result).toEqual({ path: {}, query: {}, header: {} });
  });

  it("takes any value for a parameter described without a schema", () => {
    const v = getThing([
      { name: "filter", in: "query", content: { "application/json": { schema: { type: "object" } } } },
    ]);
    expect(queryOf(v, `filter=${encodeURIComponent('{"a":1}')}`)).toEqual({ filter: '{"a":1}' });
  });
});

describe("path and header parameters", () => {
  const v = () =>
    getThing([
      { name: "id", in: "path", schema: { type: "integer", minimum: 1 } },
      { name: "X-Trace", in: "header", required: true, schema: { type: "string", pattern: "^[0-9a-f]{8}$" } },
      { name: "x-retries", in: "header", schema: { type: "integer" } },
    ]);

  it("converts path and header values by their schemas", () => {
    const result = v().validateParams(
      input("", { pathParams: { id: "7" }, headers: { "x-trace": "deadbeef", "x-retries": "3" } }),
    );
    expect(result).toEqual({ path: { id: 7 }, query: {}, header: { "x-trace": "deadbeef", "x-retries": 3 } });
    const optionalAbsent = v().validateParams(
      input("", { pathParams: { id: "7" }, headers: { "x-trace": "0badcafe" } }),
    );
    expect(optionalAbsent).toEqual({ path: { id: 7 }, query: {}, header: { "x-trace": "0badcafe" } });
  });

  it("names a missing path parameter and a missing required header", () => {
    expect(v().validateParams(input(""))).toEqual({
      problems: [
        {
          parameter: "id",
          message: 'path parameter "id": is required',
          cause: { rule: "missing", field: "id" },
        },
        {
          parameter: "x-trace",
          message: 'header parameter "x-trace": is required',
          cause: { rule: "missing", field: "x-trace" },
        },
      ],
    });
  });

  it("checks header values and refuses a repeated header", () => {
    const bad = v().validateParams(
      input("", { pathParams: { id: "0" }, headers: { "x-trace": "not-hex!" } }),
    );
    expect(bad).toEqual({
      problems: [
        { parameter: "id", message: 'path parameter "id": must be >= 1' },
        { parameter: "x-trace", message: 'header parameter "x-trace": must match pattern "^[0-9a-f]{8}$"' },
      ],
    });
    const twice = v().validateParams(
      input("", { pathParams: { id: "1" }, headers: { "x-trace": ["deadbeef", "deadbeef"] } }),
    );
    expect(twice).toEqual({
      problems: [{ parameter: "x-trace", message: 'header parameter "x-trace": must not be repeated' }],
    });
  });
});

describe("schemas behind $refs", () => {
  it("follows $refs, with ~1 and ~0 escapes, to find the type", () => {
    const v = getThing(
      [
        q("a", { $ref: "#/components/schemas/per~1cent" }),
        q("b", { $ref: "#/components/schemas/tilde~0int" }),
      ],
      {
        "per/cent": { $ref: "#/components/schemas/Num" },
        Num: { type: "number" },
        "tilde~int": { type: "integer" },
      },
    );
    expect(queryOf(v, "a=12.5&b=3")).toEqual({ a: 12.5, b: 3 });
  });

  /** An operation built by hand, so that the schema is only read for its type, never compiled. */
  function uncompiled(schema: JsonValue, schemas: Record<string, JsonValue>) {
    const doc = describing([], schemas);
    const parameter: OperationParameter = {
      name: "n",
      in: "query",
      required: false,
      schemaPointer: undefined,
      schema,
      explode: true,
    };
    const op: Operation = { ...operation(doc, "getThing"), parameters: [parameter] };
    return new SpecValidators(doc, ajvCompiler(doc)).forOperation(op);
  }

  it("follows a chain of 20 $refs, and takes a longer one as circular", () => {
    const chain = (length: number) => {
      const schemas: Record<string, JsonValue> = { [`R${length}`]: { type: "integer" } };
      for (let i = 1; i < length; i++) schemas[`R${i}`] = { $ref: `#/components/schemas/R${i + 1}` };
      return uncompiled({ $ref: "#/components/schemas/R1" }, schemas);
    };
    expect(queryOf(chain(20), "n=5")).toEqual({ n: 5 });
    expect(queryOf(chain(21), "n=5")).toEqual({ n: "5" });
  });

  it("stops at a circular $ref and passes the value as given", () => {
    const v = uncompiled(
      { $ref: "#/components/schemas/Loop1" },
      { Loop1: { $ref: "#/components/schemas/Loop2" }, Loop2: { $ref: "#/components/schemas/Loop1" } },
    );
    expect(queryOf(v, "n=5")).toEqual({ n: "5" });
  });

  it("does not follow a $ref outside the document", () => {
    // Read from the document's root, "./components/schemas/Int" would name the integer schema.
    const v = uncompiled({ $ref: "./components/schemas/Int" }, { Int: { type: "integer" } });
    expect(queryOf(v, "n=5")).toEqual({ n: "5" });
    const local = uncompiled({ $ref: "#/components/schemas/Int" }, { Int: { type: "integer" } });
    expect(queryOf(local, "n=5")).toEqual({ n: 5 });
  });

  it("refuses a description whose parameter schema points nowhere, naming where", () => {
    const doc = describing([q("n", { $ref: "#/x-nothing/Int" })], {}, { "x-nothing": null });
    const validators = new SpecValidators(doc, ajvCompiler(doc));
    const build = () => validators.forOperation(operation(doc, "getThing"));
    expect(build).toThrow(SpecInvalidError);
    expect(build).toThrow(
      /^schema at \/paths\/~1things~1\{id\}\/get\/parameters\/0\/schema cannot be compiled: ./,
    );
  });
});

describe("how errors read", () => {
  it("joins several rules of one value with '; ', leaving out anyOf, oneOf and if wrappers", () => {
    const v = getThing([
      q("any", {
        anyOf: [
          { type: "string", pattern: "^[A-Z]+$" },
          { type: "string", maxLength: 1 },
        ],
      }),
      q("one", {
        oneOf: [
          { type: "string", minLength: 5 },
          { type: "string", pattern: "^x" },
        ],
      }),
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, not a promise.
      q("cond", { type: "string", if: { pattern: "^x" }, then: { minLength: 3 } }),
    ]);
    expect(queryOf(v, "any=abc")).toEqual([
      'query parameter "any": must match pattern "^[A-Z]+$"; query parameter "any": must NOT have more than 1 characters',
    ]);
    expect(queryOf(v, "one=ab")).toEqual([
      'query parameter "one": must NOT have fewer than 5 characters; query parameter "one": must match pattern "^x"',
    ]);
    expect(queryOf(v, "cond=xy")).toEqual(['query parameter "cond": must NOT have fewer than 3 characters']);
    expect(queryOf(v, "cond=ab")).toEqual({ cond: "ab" });
  });

  it("keeps a wrapper error that stands alone", () => {
    // Both branches match: the only error is oneOf's own.
    const v = getThing([q("one", { oneOf: [{ type: "string" }, { type: "string", pattern: "^x" }] })]);
    expect(queryOf(v, "one=xyz")).toEqual(['query parameter "one": must match exactly one schema in oneOf']);
  });

  it("describeErrors: says 'invalid' without details and 'is invalid' for an error without message", () => {
    expect(describeErrors('header parameter "a"', null)).toBe('header parameter "a": invalid');
    expect(describeErrors('header parameter "a"', undefined)).toBe('header parameter "a": invalid');
    expect(describeErrors('header parameter "a"', [])).toBe('header parameter "a": invalid');
    const bare = { keyword: "x-custom", instancePath: "/2", schemaPath: "#/x-custom", params: {} };
    expect(describeErrors("request body", [bare])).toBe("request body at /2: is invalid");
    const lone = { ...bare, instancePath: "", keyword: "anyOf", message: "must match a schema in anyOf" };
    expect(describeErrors("request body", [lone])).toBe("request body: must match a schema in anyOf");
  });
});

describe("request bodies", () => {
  const put = () => {
    const doc = describing([]);
    return new SpecValidators(doc, ajvCompiler(doc)).forOperation(operation(doc, "putThing"));
  };

  it("lists the media types the operation takes, none for an operation without a body", () => {
    expect(put().bodyMediaTypes).toEqual(["application/x-www-form-urlencoded", "multipart/form-data"]);
    expect(getThing([]).bodyMediaTypes).toEqual([]);
  });

  it("accepts a conforming body and any body of a media type without schema", () => {
    expect(
      put().validateBody("application/x-www-form-urlencoded", { answer: "dog", level: "2" }),
    ).toBeUndefined();
    expect(put().validateBody("multipart/form-data", { anything: 1 })).toBeUndefined();
  });

  it("names each broken rule of a body as a rule of the request body", () => {
    const form = "application/x-www-form-urlencoded";
    // A missing field and a value outside the allowed set carry their cause, for the pages' own errors.
    expect(put().validateBody(form, {})).toEqual({
      parameter: "body",
      message: "request body: must have required property 'answer'",
      cause: { rule: "missing", field: "answer" },
    });
    expect(put().validateBody(form, { answer: "dog", extra: "y" })).toEqual({
      parameter: "body",
      message: 'request body: must not have property "extra"',
    });
    expect(put().validateBody(form, { answer: "", mode: "fuzzy", level: "5" })).toEqual({
      parameter: "body",
      message:
        'request body at /answer: must NOT have fewer than 1 characters; request body at /mode: must be "exact"; ' +
        'request body at /level: must be one of "1", "2", "3"',
      cause: { rule: "not_in_set", field: "mode" },
    });
  });
});

describe("a value outside the allowed set, named as such", () => {
  /** The problems of one query, whole: messages and causes. */
  const problems = (schema: JsonValue, query: string) => {
    const result = getThing([q("v", schema)]).validateParams(input(query));
    return "problems" in result ? result.problems : result;
  };
  const notInSet = { rule: "not_in_set", field: "v" };

  it("gives a parameter outside its enum or const the cause not_in_set, naming the parameter", () => {
    expect(problems({ enum: ["asc", "desc"] }, "v=up")).toEqual([
      { parameter: "v", message: 'query parameter "v": must be one of "asc", "desc"', cause: notInSet },
    ]);
    expect(problems({ const: "v1" }, "v=v2")).toEqual([
      { parameter: "v", message: 'query parameter "v": must be "v1"', cause: notInSet },
    ]);
  });

  it("keeps that cause when the value breaks another rule as well", () => {
    expect(problems({ type: "string", minLength: 3, enum: ["asc", "desc"] }, "v=up")).toEqual([
      {
        parameter: "v",
        // Ajv checks enum, a rule of any type, before the string rules.
        message:
          'query parameter "v": must be one of "asc", "desc"; query parameter "v": must NOT have fewer than 3 characters',
        cause: notInSet,
      },
    ]);
  });

  it("gives no cause for other broken rules", () => {
    expect(problems({ type: "string", pattern: "^[a-z]+$" }, "v=UP")).toEqual([
      { parameter: "v", message: 'query parameter "v": must match pattern "^[a-z]+$"' },
    ]);
    expect(problems({ type: "integer" }, "v=up")).toEqual([
      { parameter: "v", message: 'query parameter "v": must be integer' },
    ]);
  });
});

describe("which body field a problem names", () => {
  /** The problem of a JSON body against `schema`, or `undefined` when the body conforms. */
  const problemOf = (schema: JsonValue, body: unknown) =>
    postThing({ "application/json": { schema } }).validateBody("application/json", body);
  const level = { enum: ["1", "2"] };

  it("names a top-level field outside its set, its name unescaped from the error's path", () => {
    const schema = { type: "object", properties: { level, "a/b": level, "t~x": level, "~1": level } };
    for (const field of ["level", "a/b", "t~x", "~1"]) {
      expect(problemOf(schema, { [field]: "3" })?.cause, field).toEqual({ rule: "not_in_set", field });
    }
    expect(problemOf(schema, { "a/b": "3" })?.message).toBe('request body at /a~1b: must be one of "1", "2"');
  });

  it("names no field for a value deeper down or for the whole body", () => {
    const nested = { type: "object", properties: { options: { type: "object", properties: { level } } } };
    expect(problemOf(nested, { options: { level: "3" } })).toEqual({
      parameter: "body",
      message: 'request body at /options/level: must be one of "1", "2"',
    });
    const items = { type: "object", properties: { levels: { type: "array", items: level } } };
    expect(problemOf(items, { levels: ["1", "3"] })).toEqual({
      parameter: "body",
      message: 'request body at /levels/1: must be one of "1", "2"',
    });
    expect(problemOf({ const: "yes" }, "no")).toEqual({
      parameter: "body",
      message: 'request body: must be "yes"',
    });
  });

  it("names a missing required field before a value outside its set", () => {
    const schema = { type: "object", required: ["answer"], properties: { level } };
    expect(problemOf(schema, { level: "3" })?.cause).toEqual({ rule: "missing", field: "answer" });
  });
});

describe("form bodies, typed by their schema", () => {
  const FORM = "application/x-www-form-urlencoded";
  /** Every kind of field a form schema may declare; the body schema is reached through two $refs. */
  const schemas: Record<string, JsonValue> = {
    Fields: { $ref: "#/components/schemas/FieldsV1" },
    FieldsV1: {
      type: "object",
      properties: {
        count: { type: "integer" },
        done: { type: "boolean" },
        weight: { type: "number" },
        ids: { type: "array", items: { type: "integer" } },
        tags: { type: "array", items: { type: "string" } },
        note: { type: "string" },
        limit: { $ref: "#/components/schemas/Limit" },
      },
    },
    Limit: { type: ["integer", "null"] },
  };
  const form = () => postThing({ [FORM]: { schema: { $ref: "#/components/schemas/Fields" } } }, schemas);
  const read = (body: unknown) => form().readBody(FORM, body);

  it("converts integer, boolean and number fields and every item of a list, leaving strings as sent", () => {
    const sent = {
      count: "3",
      done: "true",
      weight: "2.5",
      ids: ["4", "-5"],
      tags: ["7"],
      note: "12",
      limit: "10",
    };
    expect(read(sent)).toEqual({
      value: { count: 3, done: true, weight: 2.5, ids: [4, -5], tags: ["7"], note: "12", limit: 10 },
    });
    expect(read({ done: "false" })).toEqual({ value: { done: false } });
  });

  it("reads a list field sent once as a list of one, and adds no field that was not sent", () => {
    expect(read({ ids: "4", tags: "a" })).toEqual({ value: { ids: [4], tags: ["a"] } });
    expect(read({})).toEqual({ value: {} });
  });

  it("refuses text that is not of the field's type, naming the field", () => {
    const refused = {
      count: "request body at /count: must be integer",
      done: "request body at /done: must be boolean",
      weight: "request body at /weight: must be number",
    };
    for (const [field, message] of Object.entries(refused)) {
      expect(read({ [field]: "three" }), field).toEqual({ problem: { parameter: "body", message } });
    }
    expect(read({ ids: ["4", "x"] })).toEqual({
      problem: { parameter: "body", message: "request body at /ids/1: must be integer" },
    });
  });

  it("refuses a scalar field that comes as a list (sent more than once) instead of picking a value", () => {
    for (const count of [["1", "2"], ["1"]]) {
      expect(read({ count }), String(count)).toEqual({
        problem: { parameter: "body", message: "request body at /count: must be integer" },
      });
    }
  });

  it("converts only the items that are text: a value already typed stays, a list inside the list is refused", () => {
    expect(read({ ids: [4, "5"], count: 6, done: true })).toEqual({
      value: { ids: [4, 5], count: 6, done: true },
    });
    expect(read({ ids: [["6"]] })).toEqual({
      problem: { parameter: "body", message: "request body at /ids/0: must be integer" },
    });
  });

  it("gives a body that is not a set of fields to the schema as it is", () => {
    for (const body of ["count=3", 3, null, ["3"]]) {
      expect(read(body), JSON.stringify(body)).toEqual({
        problem: { parameter: "body", message: "request body: must be object" },
      });
    }
  });

  it("passes the fields as sent when the form's schema lists no properties, or there is no schema", () => {
    const bare = postThing({ [FORM]: { schema: { type: "object" } } });
    expect(bare.readBody(FORM, { count: "3", ids: "4" })).toEqual({ value: { count: "3", ids: "4" } });
    const open = postThing({ [FORM]: {} });
    expect(open.readBody(FORM, { count: "3" })).toEqual({ value: { count: "3" } });
  });

  it("types form fields by the form's own schema, and never converts a JSON body", () => {
    const both = postThing(
      {
        "application/json": { schema: { $ref: "#/components/schemas/Coded" } },
        [FORM]: { schema: { $ref: "#/components/schemas/Counted" } },
      },
      {
        Counted: { type: "object", properties: { code: { type: "integer" } } },
        Coded: { type: "object", properties: { code: { type: "string" } } },
      },
    );
    expect(both.readBody(FORM, { code: "7" })).toEqual({ value: { code: 7 } });
    expect(both.readBody("application/json", { code: "007" })).toEqual({ value: { code: "007" } });
    expect(both.readBody("application/json", { code: 7 })).toEqual({
      problem: { parameter: "body", message: "request body at /code: must be string" },
    });
    const jsonOnly = postThing(
      { "application/json": { schema: { $ref: "#/components/schemas/Fields" } } },
      schemas,
    );
    expect(jsonOnly.readBody("application/json", { count: "3", ids: "4" })).toEqual({
      problem: {
        parameter: "body",
        message: "request body at /count: must be integer; request body at /ids: must be array",
      },
    });
  });
});

describe("responses", () => {
  const doc = () => describing([]);
  const check = (operationId: string, status: number, mediaType: string | undefined, body?: unknown) => {
    const d = doc();
    return new SpecValidators(d, ajvCompiler(d))
      .forOperation(operation(d, operationId))
      .checkResponse(status, mediaType, body);
  };

  it("accepts what the description documents", () => {
    expect(check("getThing", 200, "application/json", { name: "a", size: 2 })).toBeUndefined();
    expect(check("getThing", 200, "application/xml", "<thing/>")).toBeUndefined();
    expect(check("getThing", 204, undefined)).toBeUndefined();
    expect(check("getThing", 404, "application/json", { message: "no" })).toBeUndefined();
    expect(check("putThing", 201, undefined)).toBeUndefined();
  });

  it("takes 204 and 304 without content, whatever the description lists for them", () => {
    // 304 falls to `default`, which lists a JSON body; putThing's 204 lists one too.
    expect(check("getThing", 304, undefined)).toBeUndefined();
    expect(check("putThing", 204, undefined)).toBeUndefined();
    expect(check("getThing", 500, undefined)).toBe("status 500 is documented with a body, but none was sent");
  });

  it("names the mismatch", () => {
    expect(check("putThing", 418, undefined)).toBe("status 418 is not documented for putThing");
    expect(check("putThing", 201, "application/json", {})).toBe(
      "status 201 is documented without a body, but one was sent",
    );
    expect(check("getThing", 204, "application/json", {})).toBe(
      "status 204 is documented without a body, but one was sent",
    );
    expect(check("getThing", 200, undefined)).toBe("status 200 is documented with a body, but none was sent");
    expect(check("getThing", 200, "text/plain", "a")).toBe(
      "content type text/plain is not documented for status 200 (documented: application/json, application/xml)",
    );
    expect(check("getThing", 200, "application/json", { name: 5 })).toBe(
      "response body at /name: must be string",
    );
  });
});

describe("caching", () => {
  it("builds validators once per document, per operation and per schema", () => {
    const doc = describing([q("n", { type: "integer" })]);
    const other = describing([]);
    expect(validatorsFor(doc, ajvCompiler(doc))).toBe(validatorsFor(doc, ajvCompiler(doc)));
    expect(validatorsFor(other, ajvCompiler(other))).not.toBe(validatorsFor(doc, ajvCompiler(doc)));
    const op = operation(doc, "getThing");
    const validators = validatorsFor(doc, ajvCompiler(doc));
    expect(validators.forOperation(op)).toBe(validators.forOperation(op));
    expect(validators.compile("/components/schemas/Thing")).toBe(
      validators.compile("/components/schemas/Thing"),
    );
    expect(validators.forOperation(op).validateParams(input("n=4"))).toEqual({
      path: {},
      query: { n: 4 },
      header: {},
    });
  });
});
