/**
 * The Drill Practice Service API 2.0 on its own: the same client, errors and
 * helpers as `@drill-practice/client`, typed with the 2.0 paths plus token
 * exchange and discovery only. A project that uses one API version imports
 * this entry, and its type checks never load the other version's types.
 * Written for each version by `scripts/generate.ts` (`pnpm generate`): edit the
 * template there, not this file.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client/v2.0";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * const version = await client.GET("/api/2/version");
 * ```
 *
 * @packageDocumentation
 */

import type {
  DrillClient as AnyPathsClient,
  ThrowingDrillClient as AnyPathsThrowingClient,
} from "./client-types.js";
import type { paths } from "./generated/openapi-v2.0.js";
import { createVersionClient, type DrillVersionClientOptions } from "./version-client.js";

/**
 * The types openapi-typescript generates from the API 2.0 bundle
 * (`spec/dist/openapi-v2.0.json`): `paths` (the 2.0 paths, token exchange and
 * discovery), `components` and `operations`.
 *
 * @example
 * ```ts
 * import type { components, operations, paths } from "@drill-practice/client/v2.0";
 *
 * type VersionResponse = paths["/api/2/version"]["get"]["responses"];
 * type ErrorAnswer = components["responses"]["Error"];
 * type VersionAnswers = operations["getVersion_v2_0"]["responses"];
 * ```
 */
export type { components, operations, paths } from "./generated/openapi-v2.0.js";
export * from "./generated/schemas-v2.0.js";
export * from "./shared-exports.js";
export type { DrillVersionClientOptions } from "./version-client.js";

/**
 * An API 2.0 client in openapi-fetch's `{ data, error, response }` mode.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillClient } from "@drill-practice/client/v2.0";
 *
 * const client: DrillClient = createDrillClient({ baseUrl: "https://drill.example" });
 * const { data, error } = await client.GET("/api/2/store", { params: { query: { query: "spanish" } } });
 * ```
 */
export type DrillClient<P extends object = paths> = AnyPathsClient<P>;

/**
 * An API 2.0 client whose calls resolve to the success body and reject with
 * `DrillApiError` for a non-2xx status; `raw` is the same client in
 * `{ data, error }` mode.
 *
 * @example
 * ```ts
 * import { createDrillClient, type ThrowingDrillClient } from "@drill-practice/client/v2.0";
 *
 * const client: ThrowingDrillClient = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * await client.GET("/api/2/version");
 * ```
 */
export type ThrowingDrillClient<P extends object = paths> = AnyPathsThrowingClient<P>;

/**
 * Creates a client for API 2.0: the same client as the all-versions
 * `createDrillClient` (timeouts, retries, auth, `throwOnError`), typed with
 * the 2.0 paths, token exchange and discovery only.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client/v2.0";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * const { data, error } = await client.GET("/api/2/version");
 * // client.GET("/api/2.1/version") does not compile: that is the other version
 * ```
 */
export function createDrillClient(
  options: DrillVersionClientOptions<"2.0"> & { throwOnError: true },
): ThrowingDrillClient;
export function createDrillClient(
  options: DrillVersionClientOptions<"2.0"> & { throwOnError?: false },
): DrillClient;
export function createDrillClient(
  options: DrillVersionClientOptions<"2.0">,
): DrillClient | ThrowingDrillClient;
export function createDrillClient(
  options: DrillVersionClientOptions<"2.0">,
): DrillClient | ThrowingDrillClient {
  return createVersionClient("2.0", options) as DrillClient | ThrowingDrillClient;
}
