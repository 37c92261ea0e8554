import { createDrillClient } from "./client.js";
import type {
  DrillApiVersion,
  DrillClient,
  DrillClientOptions,
  ThrowingDrillClient,
} from "./client-types.js";
import { DrillInvalidOptionError } from "./core/errors.js";

/**
 * Options of a one-version entry's `createDrillClient`: those of the
 * all-versions factory, with `version` fixed to the entry's version.
 *
 * @example
 * ```ts
 * import { createDrillClient, type DrillVersionClientOptions } from "@drill-practice/client/v2.1";
 *
 * const options: DrillVersionClientOptions<"2.1"> = { baseUrl: "https://drill.example", timeoutMs: 10_000 };
 * const client = createDrillClient(options);
 * ```
 */
export interface DrillVersionClientOptions<V extends DrillApiVersion>
  extends Omit<DrillClientOptions, "version"> {
  /** The entry's version; may be left out. Any other value is rejected. */
  version?: V;
}

/**
 * The runtime of a one-version entry's factory: the all-versions client (the
 * version only narrows types), after checking that `version`, if given, is
 * the entry's.
 */
export function createVersionClient(
  version: DrillApiVersion,
  options: DrillVersionClientOptions<DrillApiVersion>,
): DrillClient<object> | ThrowingDrillClient<object> {
  const given: unknown = typeof options === "object" && options !== null ? options.version : undefined;
  if (given !== undefined && given !== version) {
    throw new DrillInvalidOptionError(
      "version",
      `this entry is for API ${version}, got ${JSON.stringify(given)}; import @drill-practice/client for both versions`,
    );
  }
  return createDrillClient(options as DrillClientOptions);
}
