/**
 * The validators of the packaged description, compiled ahead of time (no `new Function` at run time).
 */
import { SpecInvalidError } from "../errors.js";
import { VALIDATORS } from "../generated/spec-validators.js";
import type { SchemaCompiler, SchemaValidator } from "./validator.js";

const compiled = VALIDATORS as unknown as Readonly<Record<string, SchemaValidator>>;

/**
 * Looks a schema's validator up by JSON pointer; a pointer without one means the generated module does
 * not match the description (run the `generate` step).
 */
export const bundledCompiler: SchemaCompiler = (pointer) => {
  const validate = compiled[pointer];
  if (validate === undefined) {
    throw new SpecInvalidError(
      `schema at ${pointer} has no compiled validator; run \`pnpm --filter @drill-practice/sandbox generate\``,
    );
  }
  return validate;
};
