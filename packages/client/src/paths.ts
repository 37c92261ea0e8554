import type { DrillApiVersion } from "./client-types.js";
import type { paths } from "./generated/openapi.js";

/** Paths outside `/api/`: token exchange and discovery, shared by both versions. */
type SharedPath<K> = K extends `/api/${string}` ? never : K;

/**
 * The paths under `prefix` plus the token exchange and discovery paths.
 *
 * @example
 * ```ts
 * import type { PathsWithPrefix } from "@drill-practice/client";
 *
 * type StorePaths = PathsWithPrefix<"/api/2.1/store">; // the 2.1 store paths, token and discovery
 * ```
 */
export type PathsWithPrefix<Prefix extends string> = {
  [K in keyof paths as K extends `${Prefix}${string}` ? K : SharedPath<K>]: paths[K];
};

/**
 * The API 2.1.1 paths (`/api/2.1.1/…`, the version the service answers today)
 * plus token exchange and discovery. Give it to {@link createDrillClient} to
 * keep a client to version 2.1.1.
 *
 * @example
 * ```ts
 * import { createDrillClient, type PathsV2_1_1 } from "@drill-practice/client";
 *
 * const client = createDrillClient<PathsV2_1_1>({ baseUrl: "https://drill.example" });
 * await client.GET("/api/2.1.1/beacons");
 * // client.GET("/api/2.1/beacons") does not compile
 * ```
 */
export type PathsV2_1_1 = PathsWithPrefix<"/api/2.1.1/">;

/**
 * The API 2.1 paths (`/api/2.1/…`) plus token exchange and discovery. Give it
 * to {@link createDrillClient} to keep a client to version 2.1.
 *
 * @example
 * ```ts
 * import { createDrillClient, type PathsV2_1 } from "@drill-practice/client";
 *
 * const client = createDrillClient<PathsV2_1>({ baseUrl: "https://drill.example" });
 * await client.GET("/api/2.1/version");
 * // client.GET("/api/2/version") does not compile
 * ```
 */
export type PathsV2_1 = PathsWithPrefix<"/api/2.1/">;

/**
 * The API 2.0 paths (`/api/2/…`) plus token exchange and discovery. Give it to
 * {@link createDrillClient} to keep a client to version 2.0.
 *
 * @example
 * ```ts
 * import { createDrillClient, type PathsV2_0 } from "@drill-practice/client";
 *
 * const client = createDrillClient<PathsV2_0>({ baseUrl: "https://drill.example" });
 * await client.GET("/api/2/version");
 * // client.GET("/api/2.1/version") does not compile
 * ```
 */
export type PathsV2_0 = PathsWithPrefix<"/api/2/">;

/**
 * The paths of one version, or of all when `V` is `undefined`.
 *
 * @example
 * ```ts
 * import type { PathsForVersion, PathsV2_0 } from "@drill-practice/client";
 *
 * const same: PathsForVersion<"2.0"> extends PathsV2_0 ? true : false = true;
 * ```
 */
export type PathsForVersion<V extends DrillApiVersion | undefined> = V extends "2.1.1"
  ? PathsV2_1_1
  : V extends "2.1"
    ? PathsV2_1
    : V extends "2.0"
      ? PathsV2_0
      : paths;
