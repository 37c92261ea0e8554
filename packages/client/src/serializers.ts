/**
 * How parameters become a URL. Query arrays go out as repeated keys
 * (`?drill=a&drill=b`), the way the spec's `style: form, explode: true`
 * parameters are defined. Path parameters are encoded as one segment each.
 */
import type { QuerySerializerOptions } from "openapi-fetch";
import { DrillInvalidParameterError } from "./errors.js";

/**
 * Query serialization of the client: arrays as repeated keys, objects as
 * `deepObject`, reserved characters percent-encoded.
 *
 * @example
 * ```ts
 * import { createQuerySerializer } from "openapi-fetch";
 * import { QUERY_SERIALIZER } from "@drill-practice/client";
 *
 * createQuerySerializer(QUERY_SERIALIZER)({ drill: ["a", "b"] }); // "drill=a&drill=b"
 * ```
 */
export const QUERY_SERIALIZER: Readonly<QuerySerializerOptions> = Object.freeze({
  array: Object.freeze({ style: "form", explode: true } as const),
  object: Object.freeze({ style: "deepObject", explode: true } as const),
  allowReserved: false,
});

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * Replaces each `{name}` in `url` with the percent-encoded value of that path
 * parameter, one segment per value: `/` inside an ID becomes `%2F` rather than
 * a new segment, and spaces, `+`, `@` and non-ASCII characters are encoded too.
 *
 * Values that URL parsers would drop or collapse (empty, `.` and `..`) and
 * missing values are refused with a {@link DrillInvalidParameterError}: sent
 * as they are, the request would reach a different resource.
 *
 * @example
 * ```ts
 * import { encodePathParameters } from "@drill-practice/client";
 *
 * encodePathParameters("/api/2.1/user/{user}/email-address/{email}", { user: "u 1", email: "a+b@x.org" });
 * // "/api/2.1/user/u%201/email-address/a%2Bb%40x.org"
 * ```
 */
export function encodePathParameters(url: string, parameters: Record<string, unknown> | undefined): string {
  return url.replace(PLACEHOLDER, (_placeholder, name: string) => encodeSegment(name, parameters?.[name]));
}

function encodeSegment(name: string, value: unknown): string {
  if (value === undefined || value === null) {
    throw new DrillInvalidParameterError(name, "the path parameter is required");
  }
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    throw new DrillInvalidParameterError(name, `expected a string or number, got ${describe(value)}`);
  }
  const text = String(value);
  if (text === "") {
    throw new DrillInvalidParameterError(name, "must not be empty");
  }
  if (text === "." || text === "..") {
    throw new DrillInvalidParameterError(name, `"${text}" cannot be sent as a path segment`);
  }
  try {
    return encodeURIComponent(text);
  } catch {
    throw new DrillInvalidParameterError(name, "contains a lone UTF-16 surrogate");
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
