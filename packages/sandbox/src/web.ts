/**
 * `@drill-practice/sandbox` outside Node (Workers, browsers, any bundle without the `node` condition):
 * the in-process sandbox, {@link createSandbox}, and everything it shares with the Node entry. Web
 * APIs only: nothing here imports a Node module.
 *
 * @example
 * ```ts
 * import { createSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * const res = await sandbox.fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
 * ```
 */

export type { ActiveFault, FaultRule } from "./admin/faults.js";
export { DEFAULT_IDS } from "./data/default-ids.js";
export type { PracticeData, SandboxData } from "./domain/types.js";
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
export type { InProcessSandbox, InProcessSandboxOptions } from "./in-process.js";
export { createSandbox, IN_PROCESS_URL } from "./in-process.js";
export { CLOCK_LEEWAY_SECONDS } from "./oauth/assertion.js";
export type { SandboxCredentials, ServiceAccountKeyFile } from "./oauth/credentials.js";
export { EXAMPLE_HEADER, exampleAnsweredOperations } from "./responses/example-answers.js";
export type {
  ResponseRule,
  ResponseRulesFile,
  ResponseRuleValue,
} from "./responses/response-rules.js";
export { PROGRAMMABLE_RESPONSES } from "./responses/response-rules.js";
export type { SandboxControls, SandboxCoreOptions } from "./sandbox-core.js";
export { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./sandbox-core.js";
