/**
 * Compiling schemas at run time with Ajv, for a description given as the `spec` option (tests of the
 * sandbox itself). Ajv compiles to code through `new Function`, which Workers forbid; the packaged
 * description never comes here: its validators are compiled ahead of time (`src/generated/spec-validators.ts`).
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { SpecInvalidError } from "../errors.js";
import type { OpenApiDocument } from "./openapi.js";
import type { SchemaCompiler } from "./validator.js";

/**
 * The ID the whole document is registered under; schemas are compiled as `$ref`s into it, so
 * `#/components/schemas/…` references inside resolve exactly as the description means them.
 */
export const SPEC_ID = "sandbox:openapi";

/**
 * Ajv's options for OpenAPI 3.1 schemas (JSON Schema 2020-12). Not strict: OpenAPI schemas carry
 * keywords JSON Schema does not know (example, discriminator, x-…).
 */
export const AJV_OPTIONS = { strict: false, allErrors: true, validateSchema: false } as const;

/** The `$ref` that names the schema at a JSON pointer of the registered document. */
export function schemaRef(pointer: string): string {
  return `${SPEC_ID}#${pointer.split("/").map(encodeURIComponent).join("/")}`;
}

/** A compiler of the schemas of `doc`, by JSON pointer. */
export function ajvCompiler(doc: OpenApiDocument): SchemaCompiler {
  const ajv = new Ajv2020.default(AJV_OPTIONS);
  addFormats.default(ajv);
  ajv.addSchema(doc as unknown as object, SPEC_ID);
  return (pointer) => {
    try {
      return ajv.compile({ $ref: schemaRef(pointer) });
    } catch (error) {
      throw new SpecInvalidError(`schema at ${pointer} cannot be compiled: ${(error as Error).message}`);
    }
  };
}
