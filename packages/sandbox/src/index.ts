/**
 * `@drill-practice/sandbox`: a local, stateful stand-in of the Drill Practice Service, driven by its
 * OpenAPI description. Start it with {@link startSandbox} or the `drill-sandbox` CLI. Only what the
 * README documents is exported; the layers behind it (see "Architecture" in the README) are internal.
 *
 * @example
 * import { startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ validateResponses: true });
 * console.log(`service at ${sandbox.url}`);
 * await sandbox.close();
 */

export type { ActiveFault, FaultRule } from "./admin/faults.js";
export { DEFAULT_IDS } from "./data/default-ids.js";
export type { SandboxData } from "./domain/types.js";
export type { DataFileProblem, ResponseRulesProblem, SandboxErrorCode } from "./errors.js";
export {
  CredentialsFilesError,
  DataFileError,
  DataFileReadError,
  ListenError,
  ResponseRulesError,
  ResponseValidationError,
  SandboxError,
  SandboxOptionError,
  SpecInvalidError,
  SpecMissingError,
} from "./errors.js";
export type { SimulatedOperationId } from "./http/handlers.js";
export { SIMULATED_OPERATIONS } from "./http/handlers.js";
export type { OpenApiDocument } from "./http/openapi.js";
export { ADMIN_PREFIX } from "./http/pipeline.js";
export { CLOCK_LEEWAY_SECONDS } from "./oauth/assertion.js";
export type { SandboxCredentials, ServiceAccountKeyFile } from "./oauth/credentials.js";
export { ENV_FILE_NAME, KEY_FILE_NAME } from "./oauth/credentials-files.js";
export { EXAMPLE_HEADER, exampleAnsweredOperations } from "./responses/example-answers.js";
export type {
  ResponseRule,
  ResponseRulesFile,
  ResponseRuleValue,
} from "./responses/response-rules.js";
export { PROGRAMMABLE_RESPONSES } from "./responses/response-rules.js";
export type { Sandbox, SandboxOptions } from "./sandbox.js";
export { DEFAULT_TOKEN_LIFETIME_SECONDS, startSandbox } from "./sandbox.js";
