/**
 * Typed client for the Drill Practice Service API 2.1 and 2.0, built on
 * openapi-fetch, with the types generated from the OpenAPI description.
 *
 * @packageDocumentation
 */

export {
  createDrillClient,
  type DrillAuthContext,
  type DrillClient,
  type DrillClientAuth,
  type DrillClientOptions,
  type ThrowingDrillClient,
} from "./client.js";
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
/**
 * The types openapi-typescript generates from the spec:
 *
 * - `paths`: every path of both versions plus token exchange and discovery;
 *   `paths[path][method]` is an operation.
 * - `components`: the reusable parts (`schemas`, `parameters`, `responses`, …);
 *   the schema aliases such as `Drillable` point here.
 * - `operations`: every operation by its operationId, e.g. `operations["searchStore_v2_0"]`.
 *
 * @example
 * ```ts
 * import type { components, operations, paths } from "@drill-practice/client";
 *
 * type StoreQuery = NonNullable<paths["/api/2/store"]["get"]["parameters"]["query"]>;
 * type SearchField = components["parameters"]["StoreSearchField"][number]; // "NAME" | "DESCRIPTION" | …
 * type QuestionParams = operations["getQuestions_v2_0"]["parameters"]["query"];
 * const fields: SearchField[] = ["NAME"];
 * const query: StoreQuery = { query: "verbs", searchField: fields };
 * const params: QuestionParams = { drill: ["a", "b"] };
 * ```
 */
export type { components, operations, paths } from "./generated/openapi.js";
export * from "./generated/schemas.js";
export {
  type PaginateStoreOptions,
  paginateStore,
  paginateStorePages,
  type StorePage,
  type StoreSearchClient,
  type StoreSearchParams,
} from "./pagination.js";
export type { DrillApiVersion, PathsForVersion, PathsV2_0, PathsV2_1, PathsWithPrefix } from "./paths.js";
export { encodePathParameters, QUERY_SERIALIZER } from "./serializers.js";
export { type SuccessData, unwrap } from "./unwrap.js";
export { USER_AGENT, VERSION } from "./version.js";
