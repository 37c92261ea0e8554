/**
 * The body stage of an operation: whether it may have one, its media type, reading it within the size
 * limit, parsing it and checking it against the operation's schema.
 */
import { decodeForm, formFieldsObject } from "./form-fields.js";
import { hasBody, parseContentType, readBody } from "./http-io.js";
import type { Operation } from "./openapi.js";
import type { Reply } from "./replies.js";
import { errorReply } from "./replies.js";
import { declaresFraming } from "./sent-request.js";
import type { OperationValidator, RequestProblem } from "./validator.js";

/**
 * Largest request body the sandbox reads, in bytes (1 MiB); larger ones get 413.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and checks the body of a request for `operation`: the parsed and typed value (`undefined` when
 * there is none), the reply that refuses it, or the rule it breaks (the pipeline answers that with the
 * page's own error where the page names one).
 *
 * @example
 * ```ts
 * import { bundledSpec } from "./bundled-spec.js";
 * import { bundledCompiler } from "./bundled-validators.js";
 * import { listOperations } from "./openapi.js";
 * import { operationBody } from "./request-body.js";
 * import { validatorsFor } from "./validator.js";
 *
 * const doc = bundledSpec();
 * const operation = listOperations(doc).find((op) => op.operationId === "submitAnswer_v2_0");
 * if (operation === undefined) throw new Error("submitAnswer_v2_0 is not in the description");
 * const validator = validatorsFor(doc, bundledCompiler).forOperation(operation);
 * const request = new Request("http://127.0.0.1:4040/api/2/answer/ref-1", {
 *   method: "PUT",
 *   headers: { "content-type": "application/x-www-form-urlencoded" },
 *   body: "answer=red",
 * });
 * const body = await operationBody(request, operation, validator);
 * if ("value" in body) console.log(body.value); // { answer: "red" }
 * ```
 */
export async function operationBody(
  request: Request,
  operation: Operation,
  validator: OperationValidator,
): Promise<{ value: unknown } | { reply: Reply } | { problem: RequestProblem }> {
  if (!hasBody(request)) {
    const missing = missingLength(request);
    if (missing) return { reply: missing };
    if (operation.requestBody?.required) {
      // A form with required fields sent without any field: it is the first field that is missing.
      if (validator.bodyMediaTypes.includes("application/x-www-form-urlencoded")) {
        const empty = validator.readBody("application/x-www-form-urlencoded", {});
        if ("problem" in empty && empty.problem.cause) return { problem: empty.problem };
      }
      return { reply: errorReply("invalid_request", `request body: required by ${operation.operationId}`) };
    }
    return { value: undefined };
  }
  if (!operation.requestBody) {
    return { reply: errorReply("invalid_request", `request body: ${operation.operationId} takes none`) };
  }
  const contentType = parseContentType(request.headers.get("content-type"));
  const accepted = validator.bodyMediaTypes;
  if (!contentType || !accepted.includes(contentType.mediaType)) {
    return {
      reply: errorReply(
        "unsupported_media_type",
        `Content-Type: must be ${accepted.join(" or ")} for ${operation.operationId}`,
      ),
    };
  }
  if (contentType.charset !== undefined && contentType.charset !== "utf-8") {
    return { reply: errorReply("unsupported_media_type", "Content-Type: charset must be utf-8") };
  }
  if (contentType.mediaType === "multipart/form-data" && contentType.boundary === undefined) {
    return {
      reply: errorReply("invalid_request", "Content-Type: multipart/form-data needs a boundary parameter"),
    };
  }
  const read = await readBody(request, MAX_BODY_BYTES);
  if (read.kind === "aborted") return { reply: errorReply("invalid_request", "request body: aborted") };
  if (read.kind === "too_large") {
    return {
      reply: errorReply("payload_too_large", `request body: larger than ${read.limit} bytes`, {
        headers: { connection: "close" },
      }),
    };
  }
  const parsed = parseBody(contentType.mediaType, read.bytes);
  if ("problem" in parsed) {
    return { reply: errorReply("invalid_request", parsed.problem, { fields: { parameter: "body" } }) };
  }
  // The sandbox does not read multipart parts, so there is nothing of them to check.
  if (contentType.mediaType === "multipart/form-data") return { value: parsed.value };
  const checked = validator.readBody(contentType.mediaType, parsed.value);
  return "problem" in checked ? { problem: checked.problem } : checked;
}

/**
 * A PUT or POST without a body must still say so with `Content-Length: 0` (the service's reference asks
 * for it on every PUT); one that carries neither that nor chunked encoding is refused with 411.
 */
function missingLength(request: Request): Reply | undefined {
  const method = request.method;
  if ((method !== "PUT" && method !== "POST") || declaresFraming(request)) return undefined;
  return errorReply(
    "length_required",
    `Content-Length: required on ${method}, also without a body (send Content-Length: 0)`,
  );
}

/** Decodes a body as UTF-8 text; `undefined` when it is not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function parseBody(mediaType: string, bytes: Uint8Array): { value: unknown } | { problem: string } {
  // Multipart parts may be binary (an uploaded file); their names are not shown, so nothing is parsed.
  if (mediaType === "multipart/form-data") return { value: undefined };
  const text = utf8Text(bytes);
  if (text === undefined) return { problem: "request body: not valid UTF-8" };
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return { problem: `request body: not valid JSON (${(error as Error).message})` };
    }
  }
  if (mediaType === "application/x-www-form-urlencoded") {
    const decoded = decodeForm(text, "request body");
    return "problem" in decoded ? decoded : { value: formFieldsObject(decoded.fields) };
  }
  return { value: text };
}
