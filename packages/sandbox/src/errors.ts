/** Brands the family, so that `instanceof` holds across separately installed copies of the package. */
const BRAND: unique symbol = Symbol.for("@drill-practice/SandboxError") as never;

/**
 * Stable codes of every error the sandbox throws: start-up and option errors to its caller, data file
 * errors when loading data. `ERR_SANDBOX_REQUEST_REJECTED` stays in the list for code that tests for
 * it, but no error carries it any more: a refused request is a `Refusal` the handlers turn into the
 * error reply, never thrown to the caller.
 *
 * @example
 * ```ts
 * import { SandboxError, type SandboxErrorCode, startSandbox } from "@drill-practice/sandbox";
 *
 * function hint(code: SandboxErrorCode): string {
 *   switch (code) {
 *     case "ERR_SANDBOX_SPEC_MISSING":
 *       return "run the package's generate step";
 *     case "ERR_SANDBOX_LISTEN":
 *       return "pick another port, or 0 for a free one";
 *     default:
 *       return "";
 *   }
 * }
 * await startSandbox({ port: 4010 }).catch((error: unknown) => {
 *   if (error instanceof SandboxError) console.error(error.message, hint(error.code));
 *   throw error;
 * });
 * ```
 */
export type SandboxErrorCode =
  | "ERR_SANDBOX_SPEC_MISSING"
  | "ERR_SANDBOX_SPEC_INVALID"
  | "ERR_SANDBOX_OPTION_INVALID"
  | "ERR_SANDBOX_DATA_FILE"
  | "ERR_SANDBOX_LISTEN"
  | "ERR_SANDBOX_CREDENTIALS_FILES"
  | "ERR_SANDBOX_RESPONSE_INVALID"
  | "ERR_SANDBOX_DATA_FILE_INVALID"
  | "ERR_SANDBOX_REQUEST_REJECTED"
  | "ERR_SANDBOX_RESPONSES_INVALID";

/**
 * The one root of every error the sandbox throws; `code` tells them apart.
 *
 * @example
 * ```ts
 * import { SandboxError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox({ port: -1 });
 * } catch (error) {
 *   // Every error the sandbox throws, whichever copy of the package threw it.
 *   if (error instanceof SandboxError) console.error(error.code, error.message); // ERR_SANDBOX_OPTION port: …
 * }
 * ```
 */
export abstract class SandboxError extends Error {
  /** Stable machine-readable code, stated as a literal by each class (static and on instances). */
  abstract readonly code: SandboxErrorCode;
  /** The class name, stated as a literal by each class (a minifier renames classes, not strings). */
  abstract override readonly name: string;

  static {
    Object.defineProperty(SandboxError.prototype, BRAND, { value: true });
  }

  /**
   * `SandboxError` recognises an error of the family from any installed copy of the package by its
   * brand; a concrete class also accepts one of the same `code` from another copy.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    if ((value as { [BRAND]?: unknown })[BRAND] !== true) return false;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of `instanceof`.
    return matchesClass(this, value);
  }
}

/** Whether `value`, an error of the family, is an instance of `target` or of the same `code`. */
function matchesClass(target: object, value: object): boolean {
  if (target === SandboxError || Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  // Only a code the class states itself counts, never an inherited one.
  return (
    Object.hasOwn(target, "code") &&
    (value as { code?: unknown }).code === (target as { code?: unknown }).code
  );
}

/**
 * The bundled OpenAPI description (`openapi/openapi.json`) is not there.
 *
 * @example
 * ```ts
 * import { SpecMissingError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox();
 * } catch (error) {
 *   if (error instanceof SpecMissingError) console.error("run `pnpm --filter @drill-practice/sandbox generate`");
 *   throw error;
 * }
 * ```
 */
export class SpecMissingError extends SandboxError {
  static readonly code = "ERR_SANDBOX_SPEC_MISSING";
  override readonly name = "SpecMissingError";
  readonly code = SpecMissingError.code;
}

/**
 * The OpenAPI description cannot drive the sandbox (unparsable, a dangling `$ref`, a schema Ajv rejects).
 *
 * @example
 * ```ts
 * import { SpecInvalidError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox();
 * } catch (error) {
 *   // The packaged description is damaged: reinstall the package.
 *   if (error instanceof SpecInvalidError) console.error(error.message);
 *   throw error;
 * }
 * ```
 */
export class SpecInvalidError extends SandboxError {
  static readonly code = "ERR_SANDBOX_SPEC_INVALID";
  override readonly name = "SpecInvalidError";
  readonly code = SpecInvalidError.code;
}

/**
 * An option given to `startSandbox` (or the CLI) is out of range or of the wrong kind; the message
 * names the option and the rule.
 *
 * @example
 * ```ts
 * import { createSandbox, SandboxOptionError } from "@drill-practice/sandbox";
 *
 * try {
 *   await createSandbox({ tokenLifetimeSeconds: 0 });
 * } catch (error) {
 *   if (error instanceof SandboxOptionError) console.error(error.message); // tokenLifetimeSeconds: must be an integer from 1 to 86400
 * }
 * ```
 */
export class SandboxOptionError extends SandboxError {
  static readonly code = "ERR_SANDBOX_OPTION_INVALID";
  override readonly name = "SandboxOptionError";
  readonly code = SandboxOptionError.code;
}

/**
 * The data file given with `--data` / `dataFile` cannot be read or used.
 *
 * @example
 * ```ts
 * import { DataFileReadError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox({ dataFile: "./missing.json" });
 * } catch (error) {
 *   if (error instanceof DataFileReadError) console.error(error.message); // the file could not be read (not there, no access)
 *   throw error;
 * }
 * ```
 */
export class DataFileReadError extends SandboxError {
  static readonly code = "ERR_SANDBOX_DATA_FILE";
  override readonly name = "DataFileReadError";
  readonly code = DataFileReadError.code;
}

/**
 * The server could not listen on the requested host and port.
 *
 * @example
 * ```ts
 * import { ListenError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox({ port: 4010 });
 * } catch (error) {
 *   if (error instanceof ListenError) console.error(error.message); // cannot listen on 127.0.0.1:4010: address already in use
 *   throw error;
 * }
 * ```
 */
export class ListenError extends SandboxError {
  static readonly code = "ERR_SANDBOX_LISTEN";
  override readonly name = "ListenError";
  readonly code = ListenError.code;
}

/**
 * The credentials directory could not be written.
 *
 * @example
 * ```ts
 * import { CredentialsFilesError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox({ credentialsDir: "/read-only/credentials" });
 * } catch (error) {
 *   if (error instanceof CredentialsFilesError) console.error(error.code, error.message); // ERR_SANDBOX_CREDENTIALS_FILES …
 *   throw error;
 * }
 * ```
 */
export class CredentialsFilesError extends SandboxError {
  static readonly code = "ERR_SANDBOX_CREDENTIALS_FILES";
  override readonly name = "CredentialsFilesError";
  readonly code = CredentialsFilesError.code;
}

/**
 * In response validation mode: a response the sandbox was about to send does not match the OpenAPI
 * description. This is a bug in the sandbox or in the description, never in the client.
 *
 * @example
 * ```ts
 * import { createSandbox, type ResponseValidationError } from "@drill-practice/sandbox";
 *
 * const violations: ResponseValidationError[] = [];
 * const sandbox = await createSandbox({ validateResponses: true, onResponseViolation: (v) => violations.push(v) });
 * // … run the tests against sandbox.fetch, then:
 * for (const v of sandbox.responseViolations) console.error(v.code, v.message);
 * ```
 */
export class ResponseValidationError extends SandboxError {
  static readonly code = "ERR_SANDBOX_RESPONSE_INVALID";
  override readonly name = "ResponseValidationError";
  readonly code = ResponseValidationError.code;
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

/**
 * Error IDs the domain layer answers with. `query_missing` comes from the service interface; every
 * other ID, and every HTTP status here, is the sandbox's own choice because the interface does not show
 * them.
 */
export type DomainErrorId =
  | "query_missing"
  | "search_field_invalid"
  | "search_field_not_supported"
  | "parameter_invalid"
  | "catalog_not_found"
  | "catalog_access_denied"
  | "user_not_found"
  | "drill_missing"
  | "drill_not_found"
  | "drill_empty"
  | "drillable_not_found"
  | "drillable_access_denied"
  | "reference_not_found"
  | "answer_already_given"
  | "answer_invalid"
  | "not_in_repertoire";

/**
 * HTTP status the sandbox pairs with each error ID.
 */
export const DOMAIN_ERROR_STATUS: Readonly<Record<DomainErrorId, number>> = {
  query_missing: 400,
  search_field_invalid: 400,
  search_field_not_supported: 400,
  parameter_invalid: 400,
  catalog_not_found: 404,
  catalog_access_denied: 403,
  user_not_found: 404,
  drill_missing: 400,
  drill_not_found: 404,
  drill_empty: 409,
  drillable_not_found: 404,
  drillable_access_denied: 403,
  reference_not_found: 404,
  answer_already_given: 409,
  answer_invalid: 400,
  not_in_repertoire: 404,
};

/**
 * One problem found in a data file, located by a JSON path such as `$.drills[3].items[0].tell`.
 *
 * @example
 * ```ts
 * import { DataFileError, type DataFileProblem, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox({ dataFile: "./my-data.json" });
 * } catch (error) {
 *   if (!(error instanceof DataFileError)) throw error;
 *   const problems: readonly DataFileProblem[] = error.problems;
 *   for (const { path, message } of problems) console.error(`${path}: ${message}`); // $.drills[0].id: must be a non-empty string
 * }
 * ```
 */
export interface DataFileProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * A data file that cannot be used; lists every problem found.
 *
 * @example
 * ```ts
 * import { DataFileError, startSandbox } from "@drill-practice/sandbox";
 *
 * try {
 *   await startSandbox({ dataFile: "./my-data.json" });
 * } catch (error) {
 *   // Every problem of the file at once, each with the JSON path of the value.
 *   if (error instanceof DataFileError) for (const p of error.problems) console.error(p.path, p.message);
 *   throw error;
 * }
 * ```
 */
export class DataFileError extends SandboxError {
  static readonly code = "ERR_SANDBOX_DATA_FILE_INVALID";
  override readonly name = "DataFileError";
  readonly code = DataFileError.code;
  readonly problems: readonly DataFileProblem[];

  constructor(problems: readonly DataFileProblem[], source?: string) {
    const where = source === undefined ? "data file" : `data file ${source}`;
    super(`${where} has ${listProblems(problems)}`);
    this.problems = problems;
  }
}

/**
 * One problem of a programmed-responses set, located by a JSON path such as `$.responses[2].body`.
 *
 * @example
 * ```ts
 * import { createSandbox, ResponseRulesError, type ResponseRulesProblem } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * try {
 *   sandbox.setResponses([{ operationId: "getGroup_v2_1", status: 99 }]);
 * } catch (error) {
 *   if (!(error instanceof ResponseRulesError)) throw error;
 *   const problems: readonly ResponseRulesProblem[] = error.problems;
 *   console.error(problems[0]?.path, problems[0]?.message); // $[0].status must be an integer HTTP status from 200 to 599
 * }
 * ```
 */
export interface ResponseRulesProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * A set of programmed responses (`--responses`, the `responses` option, `setResponses`, or the admin
 * API) that cannot be used; lists every problem, and none of the set was applied.
 *
 * @example
 * ```ts
 * import { createSandbox, ResponseRulesError } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * try {
 *   sandbox.setResponses({ responses: [{ operationId: "noSuchOperation", status: 200 }] });
 * } catch (error) {
 *   // The previous rules stay active; every problem of the new set is listed.
 *   if (error instanceof ResponseRulesError) for (const p of error.problems) console.error(p.path, p.message);
 * }
 * ```
 */
export class ResponseRulesError extends SandboxError {
  static readonly code = "ERR_SANDBOX_RESPONSES_INVALID";
  override readonly name = "ResponseRulesError";
  readonly code = ResponseRulesError.code;
  readonly problems: readonly ResponseRulesProblem[];

  constructor(problems: readonly ResponseRulesProblem[], source?: string) {
    const where = source === undefined ? "responses" : `responses file ${source}`;
    super(`${where} refused, nothing applied; ${listProblems(problems)}`);
    this.problems = problems;
  }
}

/** "2 problems:" and one indented `path: message` line each: how both problem-list errors end. */
function listProblems(problems: readonly { path: string; message: string }[]): string {
  const lines = problems.map((p) => `  ${p.path}: ${p.message}`);
  return `${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${lines.join("\n")}`;
}
