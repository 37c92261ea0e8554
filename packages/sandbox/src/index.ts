/**
 * `@drill-practice/sandbox`: a local, stateful stand-in of the Drill Practice Service, driven by its
 * OpenAPI description. Start it with {@link startSandbox} or the `drill-sandbox` CLI.
 *
 * @example
 * import { startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ validateResponses: true });
 * console.log(`service at ${sandbox.url}`);
 * await sandbox.close();
 */

export type { TokenSession } from "./access-tokens.js";
export { CLOCK_LEEWAY_SECONDS, MAX_ASSERTION_LIFETIME_SECONDS } from "./assertion.js";
export type { ServiceAccountKeyFile } from "./credentials.js";
export { KEY_TYPE, SandboxCredentials, ServiceAccount } from "./credentials.js";
export { ENV_FILE_NAME, KEY_FILE_NAME, writeCredentialsFiles } from "./credentials-files.js";
export type { DatasetSource } from "./dataset-loader.js";
export * from "./domain/index.js";
export type { SandboxErrorCode } from "./errors.js";
export {
  CredentialsFilesError,
  DataFileReadError,
  ListenError,
  ResponseValidationError,
  SandboxError,
  SandboxOptionError,
  SpecInvalidError,
  SpecMissingError,
} from "./errors.js";
export type { ActiveFault, FaultRule } from "./faults.js";
export type { SimulatedOperationId } from "./handlers.js";
export { SIMULATED_OPERATIONS } from "./handlers.js";
export type { OpenApiDocument } from "./openapi.js";
export { ADMIN_PREFIX, MAX_BODY_BYTES } from "./pipeline.js";
export type { HttpErrorId, OAuthErrorCode } from "./replies.js";
export { HTTP_ERROR_STATUS } from "./replies.js";
export type { Sandbox, SandboxOptions } from "./sandbox.js";
export { DEFAULT_TOKEN_LIFETIME_SECONDS, startSandbox } from "./sandbox.js";
export { JWT_BEARER_GRANT, TOKEN_SCOPE } from "./token-endpoint.js";
