/**
 * Image keys (`iconKey`, `coverKey`) name uploads, and the sandbox simulates no upload: every key is
 * refused by name, so a form that sends one is never answered as if the image were set.
 */
import { refuse } from "./family.js";

/** Refuses the first of `fields` the form sends, as `invalid_<field>`. */
export function refuseImageKeys<F extends string>(
  body: { readonly [K in F]?: unknown } | undefined,
  fields: readonly F[],
) {
  for (const field of fields) {
    if (body?.[field] !== undefined) {
      refuse({ kind: "invalid", field }, `form field "${field}": the sandbox holds no uploaded image`, field);
    }
  }
}
