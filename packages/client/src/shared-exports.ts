/**
 * What every entry of the package exports besides its typed client factory
 * and its generated types: errors, `unwrap`, option types, helpers and
 * constants. None of it refers to generated types, so a one-version entry
 * re-exports it without loading the other version's types.
 */

export type {
  DrillApiVersion,
  DrillAuthContext,
  DrillClientAuth,
  DrillClientOptions,
} from "./client-types.js";
export { DrillError } from "./core/drill-error.js";
export { DRILL_ERROR_CODES, type DrillErrorCode, type DrillErrorCodeInfo } from "./core/error-codes.js";
export { DrillInvalidOptionError, DrillNetworkError, DrillTimeoutError } from "./core/errors.js";
export type { RetryableMethod, RetryContext, RetryOptions } from "./core/retry.js";
export {
  DrillApiError,
  DrillInvalidParameterError,
  type DrillOperation,
  DrillUnexpectedResponseError,
} from "./errors.js";
export { encodeFormFields, FORM_CONTENT_TYPE } from "./form-body.js";
export { encodePathParameters, QUERY_SERIALIZER } from "./serializers.js";
export { type SuccessData, unwrap } from "./unwrap.js";
export { USER_AGENT, VERSION } from "./version.js";
