/**
 * Every example in the bundle is a fixture: each payload of a response or request body (inline, or a
 * component under `components/examples/` by `$ref`) and each `examples` value of a schema validates
 * against the schema it illustrates, with Ajv in the JSON Schema 2020-12 dialect of OpenAPI 3.1. A
 * schema that rejects its page's own example fails here.
 */
import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { loadBundle } from "./spec-fixtures.ts";

const DOCUMENT_ID = "spec:openapi";
type Node = Record<string, unknown>;

interface Sample {
  /** JSON pointer of the example inside the bundle. */
  where: string;
  /** JSON pointer of the schema it must satisfy. */
  schema: string;
  value: unknown;
  /** Name of the component example it comes from, when it is one. */
  component?: string;
}

const escapeSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

function at(document: Node, pointer: string): unknown {
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as Node | undefined)?.[key], document);
}

/** Follows a local `$ref` to the pointer of what it names. */
function follow(document: Node, pointer: string): string {
  let current = pointer;
  for (let hops = 0; hops < 10; hops++) {
    const ref = (at(document, current) as Node | undefined)?.$ref;
    if (typeof ref !== "string") return current;
    if (!ref.startsWith("#/")) throw new Error(`${current}: only local $refs are expected, got ${ref}`);
    current = ref.slice(1);
  }
  throw new Error(`${pointer}: $ref chain too long`);
}

/** The example payloads of every media type object (responses and request bodies, components too). */
function mediaSamples(document: Node): Sample[] {
  const samples: Sample[] = [];
  const visitMedia = (mediaPointer: string) => {
    const media = at(document, mediaPointer) as Node;
    if (media.schema === undefined) return;
    const schema = `${mediaPointer}/schema`;
    if ("example" in media) samples.push({ where: `${mediaPointer}/example`, schema, value: media.example });
    for (const name of Object.keys((media.examples ?? {}) as Node)) {
      const target = follow(document, `${mediaPointer}/examples/${escapeSegment(name)}`);
      const example = at(document, target) as Node;
      if ("externalValue" in example) throw new Error(`${target}: external examples are not expected`);
      const component = /^\/components\/examples\/([^/]+)$/.exec(target)?.[1];
      samples.push({
        where:
          target === `${mediaPointer}/examples/${escapeSegment(name)}`
            ? target
            : `${mediaPointer}/examples/${escapeSegment(name)} → ${target}`,
        schema,
        value: example.value,
        ...(component ? { component } : {}),
      });
    }
  };
  const visitContent = (holder: string) => {
    const node = at(document, holder) as Node | undefined;
    if (!node || typeof node.$ref === "string") return;
    for (const mediaType of Object.keys((node.content ?? {}) as Node))
      visitMedia(`${holder}/content/${escapeSegment(mediaType)}`);
  };
  for (const [path, item] of Object.entries(document.paths as Node)) {
    for (const [method, operation] of Object.entries(item as Node)) {
      if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue;
      const op = `/paths/${escapeSegment(path)}/${method}`;
      visitContent(`${op}/requestBody`);
      for (const status of Object.keys((operation as Node).responses as Node))
        visitContent(`${op}/responses/${status}`);
    }
  }
  const components = document.components as Record<string, Node>;
  for (const kind of ["responses", "requestBodies"]) {
    for (const name of Object.keys(components[kind] ?? {}))
      visitContent(`/components/${kind}/${escapeSegment(name)}`);
  }
  return samples;
}

/** The `examples` (and `example`) values of every schema and property under `components/schemas`. */
function schemaSamples(document: Node): Sample[] {
  const samples: Sample[] = [];
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${pointer}/${i}`);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const schema = node as Node;
    if (Array.isArray(schema.examples)) {
      for (const [i, value] of schema.examples.entries())
        samples.push({ where: `${pointer}/examples/${i}`, schema: pointer, value });
    }
    if ("example" in schema)
      samples.push({ where: `${pointer}/example`, schema: pointer, value: schema.example });
    for (const [key, child] of Object.entries(schema)) {
      // Vendor extensions are prose, `examples`/`example` are data, not schemas.
      if (key.startsWith("x-") || key === "examples" || key === "example") continue;
      visit(child, `${pointer}/${escapeSegment(key)}`);
    }
  };
  const schemas = (document.components as Record<string, Node>).schemas ?? {};
  for (const [name, schema] of Object.entries(schemas))
    visit(schema, `/components/schemas/${escapeSegment(name)}`);
  return samples;
}

function validatorFor(document: Node) {
  // Not strict: OpenAPI schemas carry keywords JSON Schema does not know (discriminator, x-…).
  const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (sample: Sample): string | undefined => {
    const ref = `${DOCUMENT_ID}#${sample.schema.split("/").map(encodeURIComponent).join("/")}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    if (validate(sample.value)) return undefined;
    return ajv.errorsText(validate.errors, { dataVar: "example" });
  };
}

describe.each(["openapi.json", ...API_VERSIONS.map((version) => version.bundle)])(
  "examples of %s",
  (file) => {
    const document = loadBundle(file) as unknown as Node;
    const media = mediaSamples(document);
    const inSchemas = schemaSamples(document);
    const check = validatorFor(document);
    /** Each sample its schema refuses, as "where: problem". */
    const failuresOf = (samples: typeof media) =>
      samples.flatMap((s) => {
        const problem = check(s);
        return problem === undefined ? [] : [`${s.where}: ${problem}`];
      });

    it("validates every example of a response or request body against its schema", () => {
      expect(media.length).toBeGreaterThan(0);
      expect(failuresOf(media)).toEqual([]);
    });

    it("validates every example value a schema gives against that schema", () => {
      expect(inSchemas.length).toBeGreaterThan(0);
      expect(failuresOf(inSchemas)).toEqual([]);
    });

    it("uses every component example somewhere, so each one is checked against a schema", () => {
      const used = new Set(media.flatMap((s) => (s.component ? [s.component] : [])));
      const defined = Object.keys(((document.components as Record<string, Node>).examples ?? {}) as Node);
      expect(defined.filter((name) => !used.has(name))).toEqual([]);
    });
  },
);

describe("the example check", () => {
  const document = {
    openapi: "3.1.0",
    paths: {
      "/x": {
        get: {
          responses: {
            "2XX": {
              description: "ok",
              content: {
                "application/json": {
                  schema: { $ref: "#/components/schemas/User" },
                  examples: { page: { $ref: "#/components/examples/User" } },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string" }, age: { type: "integer", examples: [3, "three"] } },
        },
      },
      examples: { User: { summary: "page", value: { id: 7 } }, Unused: { value: {} } },
    },
  } as Node;

  it("fails a schema that rejects its page's own example, naming where", () => {
    const check = validatorFor(document);
    const [sample] = mediaSamples(document);
    expect(sample?.component).toBe("User");
    expect(check(sample as Sample)).toMatch(/example\/id must be string/);
    const problems = schemaSamples(document).map((s) => [s.where, check(s)]);
    expect(problems).toEqual([
      ["/components/schemas/User/properties/age/examples/0", undefined],
      ["/components/schemas/User/properties/age/examples/1", "example must be integer"],
    ]);
  });
});
