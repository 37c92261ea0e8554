/**
 * Stable codes of the errors the sandbox's HTTP layer throws to its caller (never to HTTP clients:
 * those get error responses).
 *
 * @example
 * function explain(code: SandboxErrorCode): string {
 *   switch (code) {
 *     case "ERR_SANDBOX_SPEC_MISSING": return "run the generate step";
 *     default: return code;
 *   }
 * }
 */
export type SandboxErrorCode =
  | "ERR_SANDBOX_SPEC_MISSING"
  | "ERR_SANDBOX_SPEC_INVALID"
  | "ERR_SANDBOX_OPTION_INVALID"
  | "ERR_SANDBOX_DATA_FILE"
  | "ERR_SANDBOX_LISTEN"
  | "ERR_SANDBOX_CREDENTIALS_FILES"
  | "ERR_SANDBOX_RESPONSE_INVALID";

/**
 * Base class of every error the sandbox's HTTP layer throws.
 *
 * @example
 * try { await startSandbox({ port: -1 }); } catch (e) { if (e instanceof SandboxError) console.error(e.code, e.message); }
 */
export abstract class SandboxError extends Error {
  abstract readonly code: SandboxErrorCode;
}

/**
 * The bundled OpenAPI description (`openapi/openapi.json`) is not there.
 *
 * @example
 * if (e instanceof SpecMissingError) console.error("run `pnpm --filter @drill-practice/sandbox generate`");
 */
export class SpecMissingError extends SandboxError {
  override readonly name = "SpecMissingError";
  readonly code = "ERR_SANDBOX_SPEC_MISSING" as const;
}

/**
 * The OpenAPI description cannot drive the sandbox (unparsable, a dangling `$ref`, a schema Ajv rejects).
 *
 * @example
 * if (e instanceof SpecInvalidError) console.error(e.message);
 */
export class SpecInvalidError extends SandboxError {
  override readonly name = "SpecInvalidError";
  readonly code = "ERR_SANDBOX_SPEC_INVALID" as const;
}

/**
 * An option given to `startSandbox` (or the CLI) is out of range or of the wrong kind; the message
 * names the option and the rule.
 *
 * @example
 * if (e instanceof SandboxOptionError) console.error(e.message); // "port: must be an integer from 0 to 65535"
 */
export class SandboxOptionError extends SandboxError {
  override readonly name = "SandboxOptionError";
  readonly code = "ERR_SANDBOX_OPTION_INVALID" as const;
}

/**
 * The data file given with `--data` / `dataFile` cannot be read or used.
 *
 * @example
 * if (e instanceof DataFileReadError) console.error(e.message);
 */
export class DataFileReadError extends SandboxError {
  override readonly name = "DataFileReadError";
  readonly code = "ERR_SANDBOX_DATA_FILE" as const;
}

/**
 * The server could not listen on the requested host and port.
 *
 * @example
 * if (e instanceof ListenError) console.error(e.message); // "cannot listen on 127.0.0.1:4010: address already in use"
 */
export class ListenError extends SandboxError {
  override readonly name = "ListenError";
  readonly code = "ERR_SANDBOX_LISTEN" as const;
}

/**
 * The credentials directory could not be written.
 *
 * @example
 * if (e instanceof CredentialsFilesError) console.error(e.message);
 */
export class CredentialsFilesError extends SandboxError {
  override readonly name = "CredentialsFilesError";
  readonly code = "ERR_SANDBOX_CREDENTIALS_FILES" as const;
}

/**
 * In response validation mode: a response the sandbox was about to send does not match the OpenAPI
 * description. This is a bug in the sandbox or in the description, never in the client.
 *
 * @example
 * for (const v of sandbox.responseViolations) console.error(v.message);
 */
export class ResponseValidationError extends SandboxError {
  override readonly name = "ResponseValidationError";
  readonly code = "ERR_SANDBOX_RESPONSE_INVALID" as const;
  /** The operation whose response failed, or the request line when no operation matched. */
  readonly operation: string;
  /** HTTP status of the failing response. */
  readonly status: number;

  constructor(operation: string, status: number, detail: string) {
    super(`response of ${operation} with status ${status} does not match the OpenAPI description: ${detail}`);
    this.operation = operation;
    this.status = status;
  }
}
