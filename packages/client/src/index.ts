/**
 * Typed client for the Drill Practice Service API 2.1.1 (the version the
 * service answers today) and the retired 2.1 and 2.0, built on openapi-fetch,
 * with the types generated from the OpenAPI description. Every 2.1 and 2.0
 * path and operation is marked `@deprecated` with the date it was switched off.
 *
 * This entry is typed with every version. `@drill-practice/client/v2.1.1`,
 * `@drill-practice/client/v2.1` and `@drill-practice/client/v2.0` export the
 * same runtime with the types of one version only (cheaper to type-check);
 * `@drill-practice/client/pagination` has the store pagination helpers.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * const beacons = await client.GET("/api/2.1.1/beacons");
 * const v21 = await client.GET("/api/2.1/version");
 * const v20 = await client.GET("/api/2/version");
 * ```
 *
 * @packageDocumentation
 */

export {
  createDrillClient,
  type DrillClient,
  type ThrowingDrillClient,
} from "./client.js";
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
export type { PathsForVersion, PathsV2_0, PathsV2_1, PathsV2_1_1, PathsWithPrefix } from "./paths.js";
export * from "./shared-exports.js";
