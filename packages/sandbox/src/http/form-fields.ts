/**
 * Decoding of `application/x-www-form-urlencoded` text: query strings and form bodies. The service takes
 * the parameters of PUT and POST as form fields and a list as the field repeated (observed), so a field
 * given once becomes a string and a repeated one a list.
 */

/** Form text, decoded: the fields in order (for the validator) or the reason it cannot be decoded. */
export type DecodedForm = { readonly fields: URLSearchParams } | { readonly problem: string };

/**
 * Decodes form text strictly. `URLSearchParams` silently keeps a malformed escape such as `%zz` or
 * `%E9` (not UTF-8) as it is, which would hand the handler a value the client never meant; here such
 * text is refused with a message naming where it is.
 */
export function decodeForm(text: string, where: string): DecodedForm {
  if (text.includes("%")) {
    for (const pair of text.split("&")) {
      for (const part of pair.split("=", 2)) {
        try {
          decodeURIComponent(part.replaceAll("+", " "));
        } catch {
          const shown = part.length > 40 ? `${part.slice(0, 40)}…` : part;
          return {
            problem: `${where}: ${JSON.stringify(shown)} is not valid percent-encoding (each % must start an escape of two hex digits, and the escapes must spell UTF-8)`,
          };
        }
      }
    }
  }
  return { fields: new URLSearchParams(text) };
}

/**
 * The fields as an object: a name given once maps to its value, a repeated name to the list of its
 * values in order.
 */
export function formFieldsObject(fields: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const name of new Set(fields.keys())) {
    const values = fields.getAll(name);
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}
