/**
 * `@drill-practice/sandbox`: a local, stateful stand-in of the Drill Practice Service, driven by its
 * OpenAPI description. Start it as a server with {@link startSandbox} or the `drill-sandbox` CLI, or
 * in process with {@link createSandbox} (a `fetch`, no socket). Only what the README documents is
 * exported; the layers behind it (see "Architecture" in the README) are internal. This is the Node
 * entry; other runtimes get `web.ts`, the same without `startSandbox`.
 *
 * @example
 * import { startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ validateResponses: true });
 * console.log(`service at ${sandbox.url}`);
 * await sandbox.close();
 */

export { ENV_FILE_NAME, KEY_FILE_NAME } from "./oauth/credentials-files.js";
export type { Sandbox, SandboxOptions } from "./sandbox.js";
export { startSandbox } from "./sandbox.js";
export * from "./web.js";
