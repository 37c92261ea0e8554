/**
 * The version of `@drill-practice/client`; it equals the `version` field of the
 * package's package.json (a test keeps the two in step). Sent in the
 * `User-Agent` header in Node as `drill-practice-sdk/<version>`.
 *
 * @example
 * ```ts
 * import { VERSION } from "@drill-practice/client";
 *
 * console.log(`using @drill-practice/client ${VERSION}`);
 * ```
 */
export const VERSION = "0.1.0";

/**
 * The `User-Agent` value the client sends in Node.
 *
 * @example
 * ```ts
 * import { USER_AGENT } from "@drill-practice/client";
 *
 * console.log(USER_AGENT); // "drill-practice-sdk/0.1.0"
 * ```
 */
export const USER_AGENT = `drill-practice-sdk/${VERSION}`;
