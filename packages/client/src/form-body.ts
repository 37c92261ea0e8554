/**
 * Request bodies as the service takes them: the parameters of PUT and POST as
 * `application/x-www-form-urlencoded` form fields, a list as the field repeated
 * (`answer=a&answer=b`); only the drill upload is `multipart/form-data` (observed
 * in the deployed service; the spec marks both with `x-observed`).
 *
 * openapi-fetch serializes the body before it builds the `Request` and then sets
 * `Content-Type: application/json` unless told otherwise, and it knows nothing of
 * the spec's media types at run time. So the serializer turns a plain object into
 * `URLSearchParams`, and the client's `Request` class gives such a body the form
 * content type. Every other body keeps its own type: `FormData` (multipart, with
 * its boundary), a caller's `URLSearchParams`, and JSON when the caller's headers
 * ask for `application/json`.
 */
import { NO_CALLER_SIGNAL } from "./core/transport.js";
import { DrillInvalidParameterError } from "./errors.js";

/**
 * The media type of form bodies.
 *
 * @example
 * ```ts
 * import { FORM_CONTENT_TYPE } from "@drill-practice/client";
 *
 * new Request("https://drill.example/x", {
 *   method: "PUT",
 *   body: "answer=dog",
 *   headers: { "Content-Type": FORM_CONTENT_TYPE },
 * });
 * ```
 */
export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

type FormScalar = string | number | boolean;

/** What `fetch` takes as a body. */
type RequestBody = NonNullable<RequestInit["body"]>;

/**
 * Encodes a plain object as form fields: strings, numbers and booleans as
 * their text, a list as the field repeated once per element, `undefined` and
 * `null` left out. Anything else (a nested object, a list inside a list) has
 * no form encoding and is refused with a {@link DrillInvalidParameterError}
 * naming the field.
 *
 * @example
 * ```ts
 * import { encodeFormFields } from "@drill-practice/client";
 *
 * encodeFormFields({ answer: ["red", "green"], timeSpent: 4 }).toString();
 * // "answer=red&answer=green&timeSpent=4"
 * ```
 */
export function encodeFormFields(fields: Readonly<Record<string, unknown>>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        form.append(name, formText(`body.${name}[${index}]`, item));
      });
    } else {
      form.append(name, formText(`body.${name}`, value));
    }
  }
  return form;
}

function formText(field: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value as FormScalar);
  throw new DrillInvalidParameterError(
    field,
    `a form field takes a string, number or boolean (or a list of them), got ${
      Array.isArray(value) ? "a nested list" : value === null ? "null" : typeof value
    }`,
  );
}

/** Headers as openapi-fetch and `RequestInit` give them: a `Headers`, pairs, or a record. */
type AnyHeaders = Headers | readonly (readonly [string, string])[] | Readonly<Record<string, unknown>>;

function mediaTypeOf(headers: AnyHeaders | undefined): string | undefined {
  let value: unknown;
  if (headers instanceof Headers) value = headers.get("content-type");
  else if (Array.isArray(headers))
    value = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1];
  else if (headers !== undefined) {
    const record = headers as Readonly<Record<string, unknown>>;
    value = Object.keys(record).find((name) => name.toLowerCase() === "content-type");
    value = value === undefined ? undefined : record[value as string];
  }
  return typeof value === "string" ? value.split(";", 1)[0]?.trim().toLowerCase() : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The client's body serializer (openapi-fetch's `bodySerializer`): a plain
 * object becomes form fields (see {@link encodeFormFields}); with
 * `Content-Type: application/json` among the request's headers it becomes
 * JSON instead; `FormData`, `URLSearchParams`, `Blob`, byte buffers and strings
 * are sent as they are.
 */
export function serializeRequestBody(body: unknown, headers?: AnyHeaders): RequestBody {
  if (mediaTypeOf(headers) === "application/json") return JSON.stringify(body);
  if (
    typeof body === "string" ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof ReadableStream
  ) {
    return body as RequestBody;
  }
  if (isPlainObject(body)) return encodeFormFields(body);
  throw new DrillInvalidParameterError(
    "body",
    "expected an object of form fields, FormData, URLSearchParams or, with Content-Type: application/json, a JSON value",
  );
}

let formRequestClass: typeof Request | undefined;

/**
 * The `Request` class the client hands to openapi-fetch: a `Request` that
 * gives a `URLSearchParams` body exactly `Content-Type:
 * application/x-www-form-urlencoded`, replacing the JSON default openapi-fetch
 * puts on every body, and that marks a request made without a caller's
 * `signal` ({@link NO_CALLER_SIGNAL}), so that the transport gives it the
 * attempt's timeout signal alone. Built on first use, so that importing the
 * client needs no `Request` global.
 */
export function formAwareRequest(): typeof Request {
  formRequestClass ??= class FormAwareRequest extends Request {
    constructor(input: ConstructorParameters<typeof Request>[0], init?: RequestInit) {
      if (
        init?.body instanceof URLSearchParams &&
        mediaTypeOf(init.headers as AnyHeaders | undefined) !== FORM_CONTENT_TYPE
      ) {
        const headers = new Headers(init.headers);
        headers.set("content-type", FORM_CONTENT_TYPE);
        super(input, { ...init, headers });
      } else {
        super(input, init);
      }
      // Only a string URL: a Request given as input brings a signal of its own.
      if (init?.signal == null && typeof input === "string") {
        (this as { [NO_CALLER_SIGNAL]?: true })[NO_CALLER_SIGNAL] = true;
      }
    }
  };
  return formRequestClass;
}
