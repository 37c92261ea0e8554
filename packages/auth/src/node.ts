/**
 * `@drill-practice/auth/node`: the Node-only part of the package, reading the
 * service account key from a file. Everything else comes from the main entry,
 * which imports no Node built-in and so also loads in Workers, Deno and Bun.
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client";
 * import { serviceAccountAuth } from "@drill-practice/auth/node";
 *
 * const client = createDrillClient({
 *   baseUrl: "https://drill.example",
 *   auth: serviceAccountAuth({
 *     keyFile: "./service-account.json",
 *     clientId: process.env.DRILL_CLIENT_ID ?? "",
 *     clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   }),
 * });
 * ```
 *
 * @packageDocumentation
 */
import { DrillInvalidOptionError } from "@drill-practice/client/internal";
import type { ServiceAccountKey, ServiceAccountKeyInput } from "./key-file.js";
import { readServiceAccountKey } from "./read-key-file.js";
import { assertServerRuntime } from "./runtime.js";
import {
  keyedServiceAccountAuth,
  type ServiceAccountAuth,
  type ServiceAccountAuthOptions,
  serviceAccountAuth as serviceAccountAuthWithKey,
} from "./service-account-auth.js";

export { readServiceAccountKey } from "./read-key-file.js";

/**
 * Options of the Node {@link serviceAccountAuth}: those of the main entry's, with
 * the key given either as a file path (`keyFile`, read on first use) or as `key`.
 *
 * @example
 * ```ts
 * import { type NodeServiceAccountAuthOptions, serviceAccountAuth } from "@drill-practice/auth/node";
 *
 * const options: NodeServiceAccountAuthOptions = {
 *   keyFile: process.env.DRILL_KEY_FILE,
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 * };
 * const auth = serviceAccountAuth(options);
 * ```
 */
export interface NodeServiceAccountAuthOptions extends Omit<ServiceAccountAuthOptions, "key"> {
  /** Path of the JSON key file, read on first use. Give this or `key`. */
  readonly keyFile?: string | undefined;
  /** The key: a parsed `ServiceAccountKey`, or the key file's JSON text, bytes or object. Give this or `keyFile`. */
  readonly key?: ServiceAccountKey | ServiceAccountKeyInput | undefined;
}

/**
 * Service-account authentication in one call, with the key read from `keyFile`
 * (or given as `key`, as in the main entry).
 *
 * @example
 * ```ts
 * import { serviceAccountAuth } from "@drill-practice/auth/node";
 *
 * const auth = serviceAccountAuth({ keyFile: "./service-account.json", clientId: "my-app", clientSecret: "…" });
 * await auth.ready(); // fail fast on a missing or bad key file
 * ```
 */
export function serviceAccountAuth(options: NodeServiceAccountAuthOptions): ServiceAccountAuth {
  assertServerRuntime();
  if (typeof options !== "object" || options === null) {
    throw new DrillInvalidOptionError("options", "must be an object");
  }
  const { keyFile, key, ...providerOptions } = options;
  if ((keyFile === undefined) === (key === undefined)) {
    throw new DrillInvalidOptionError(
      "keyFile",
      "give exactly one of keyFile (a path) or key (the key material)",
    );
  }
  if (key !== undefined) return serviceAccountAuthWithKey({ ...providerOptions, key });
  if (typeof keyFile !== "string" || keyFile.trim() === "") {
    throw new DrillInvalidOptionError("keyFile", "must be a non-empty path");
  }
  return keyedServiceAccountAuth(providerOptions, () => readServiceAccountKey(keyFile), `keyFile=${keyFile}`);
}
