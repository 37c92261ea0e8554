/**
 * The API versions the description holds, newest first, and what each is called in every place
 * that tells them apart (path prefix, operationId suffix, tag prefix, tag group, bundle file). The
 * spec's bundles and tests, the answers command, the spec diff and the docs read this one list, so
 * a whole-description mechanism never names a version by hand.
 *
 * @example
 * ```ts
 * import { API_VERSIONS, apiVersionOf } from "@drill-practice/tooling/api-versions";
 *
 * API_VERSIONS.map((version) => version.id); // ["2.1.1", "2.1", "2.0"]
 * apiVersionOf("/api/2.1.1/beacons")?.operationSuffix; // "_v2_1_1"
 * ```
 */

/**
 * When the service switched a version off, and the reference page that says so.
 *
 * @example
 * ```ts
 * import type { Retirement } from "@drill-practice/tooling/api-versions";
 *
 * const retired: Retirement = { date: "2023-12-01", source: "REF …/api/2/" };
 * ```
 */
export interface Retirement {
  /** ISO 8601 date from which the service no longer answers the version. */
  readonly date: string;
  /** The public reference page that gives the date. */
  readonly source: string;
}

/**
 * One API version of the description.
 *
 * @example
 * ```ts
 * import { API_VERSIONS, type ApiVersionInfo } from "@drill-practice/tooling/api-versions";
 *
 * const current: ApiVersionInfo | undefined = API_VERSIONS.find((version) => version.retired === undefined);
 * ```
 */
export interface ApiVersionInfo {
  /** The version as the reference names it: `2.1.1`, `2.1`, `2.0`. */
  readonly id: "2.1.1" | "2.1" | "2.0";
  /** Where its paths start (2.0 lives under `/api/2/`). */
  readonly prefix: string;
  /** What ends each of its operationIds. */
  readonly operationSuffix: string;
  /** What starts each of its tags. */
  readonly tagPrefix: string;
  /** Its tag group in `x-tagGroups`. */
  readonly tagGroup: string;
  /** Its bundle in `spec/dist/`. */
  readonly bundle: string;
  /** Its API in `spec/redocly.yaml`. */
  readonly redoclyApi: string;
  /** Set when the service no longer answers the version. */
  readonly retired?: Retirement;
}

/**
 * The versions, newest (the one the service answers today) first.
 *
 * @example
 * ```ts
 * import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
 *
 * const retired = API_VERSIONS.filter((version) => version.retired !== undefined).map((version) => version.id);
 * // ["2.1", "2.0"]
 * ```
 */
export const API_VERSIONS: readonly ApiVersionInfo[] = [
  {
    id: "2.1.1",
    prefix: "/api/2.1.1/",
    operationSuffix: "_v2_1_1",
    tagPrefix: "v2.1.1-",
    tagGroup: "API 2.1.1",
    bundle: "openapi-v2.1.1.json",
    redoclyApi: "drill_practice_v2_1_1",
  },
  {
    id: "2.1",
    prefix: "/api/2.1/",
    operationSuffix: "_v2_1",
    tagPrefix: "v2.1-",
    tagGroup: "API 2.1",
    bundle: "openapi-v2.1.json",
    redoclyApi: "drill_practice_v2_1",
    retired: { date: "2025-03-01", source: "REF …/api/2.1/" },
  },
  {
    id: "2.0",
    prefix: "/api/2/",
    operationSuffix: "_v2_0",
    tagPrefix: "v2.0-",
    tagGroup: "API 2.0",
    bundle: "openapi-v2.0.json",
    redoclyApi: "drill_practice_v2_0",
    retired: { date: "2023-12-01", source: "REF …/api/2/" },
  },
];

/**
 * The version the service answers today: the one not retired.
 *
 * @example
 * ```ts
 * import { CURRENT_API_VERSION } from "@drill-practice/tooling/api-versions";
 *
 * CURRENT_API_VERSION.id; // "2.1.1"
 * ```
 */
export const CURRENT_API_VERSION: ApiVersionInfo = (() => {
  const current = API_VERSIONS.filter((version) => version.retired === undefined);
  if (current.length !== 1 || current[0] === undefined) {
    throw new Error(`api-versions: exactly one version must be current, found ${current.length}`);
  }
  return current[0];
})();

/**
 * The version a path belongs to, or `undefined` outside `/api/` (token exchange, discovery).
 *
 * @example
 * ```ts
 * import { apiVersionOf } from "@drill-practice/tooling/api-versions";
 *
 * apiVersionOf("/api/2/store")?.id; // "2.0"
 * apiVersionOf("/daas/oauth/token"); // undefined
 * ```
 */
export function apiVersionOf(path: string): ApiVersionInfo | undefined {
  return API_VERSIONS.find((version) => path.startsWith(version.prefix));
}

/**
 * The version with this id; throws for an unknown one, naming the known ids.
 *
 * @example
 * ```ts
 * import { apiVersion } from "@drill-practice/tooling/api-versions";
 *
 * apiVersion("2.1").bundle; // "openapi-v2.1.json"
 * ```
 */
export function apiVersion(id: string): ApiVersionInfo {
  const found = API_VERSIONS.find((version) => version.id === id);
  if (found === undefined) {
    const known = API_VERSIONS.map((version) => version.id).join(", ");
    throw new Error(`unknown API version ${JSON.stringify(id)}: expected one of ${known}`);
  }
  return found;
}
