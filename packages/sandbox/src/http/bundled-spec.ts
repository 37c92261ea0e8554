/**
 * The packaged description, loaded as data (no file system needed).
 */
import { OPENAPI_DOCUMENT_TEXT } from "../generated/openapi-document.js";
import type { OpenApiDocument } from "./openapi.js";
import { asDocument } from "./openapi.js";

let bundled: OpenApiDocument | undefined;

/**
 * The packaged description (`openapi/openapi.json`, embedded as a module by the `generate` step),
 * parsed once per process: every sandbox of the process shares the same object, and so the validators
 * kept for it.
 */
export function bundledSpec(): OpenApiDocument {
  bundled ??= asDocument(JSON.parse(OPENAPI_DOCUMENT_TEXT), "openapi/openapi.json");
  return bundled;
}
