/**
 * Error IDs the domain layer answers with. `query_missing` comes from the service interface; every
 * other ID, and every HTTP status here, is the sandbox's own choice because the interface does not show
 * them.
 *
 * @example
 * const id: DomainErrorId = "query_missing";
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
  | "answer_not_a_choice"
  | "not_in_repertoire";

/**
 * HTTP status the sandbox pairs with each error ID.
 *
 * @example
 * DOMAIN_ERROR_STATUS.query_missing; // 400
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
  answer_not_a_choice: 400,
  not_in_repertoire: 404,
};

/**
 * Stable codes of the domain layer's error classes.
 *
 * @example
 * function describe(code: SandboxDomainErrorCode) {
 *   switch (code) { case "ERR_DOMAIN_REJECTED": return "request rejected"; case "ERR_DATA_FILE_INVALID": return "bad data file"; }
 * }
 */
export type SandboxDomainErrorCode = "ERR_DOMAIN_REJECTED" | "ERR_DATA_FILE_INVALID";

/**
 * Base class of the domain layer's errors.
 *
 * @example
 * try { state.searchStore("u-1", {}); } catch (e) { if (e instanceof SandboxDomainError) console.log(e.code); }
 */
export abstract class SandboxDomainError extends Error {
  abstract readonly code: SandboxDomainErrorCode;
}

/**
 * A request the domain refuses: carries the error `ID` for the response body and the HTTP status.
 *
 * @example
 * throw new DomainError("query_missing", "query: required when no catalog is given", "query");
 */
export class DomainError extends SandboxDomainError {
  override readonly name = "DomainError";
  readonly code = "ERR_DOMAIN_REJECTED" as const;
  /** Value for the `ID` field of the error response. */
  readonly id: DomainErrorId;
  /** HTTP status the sandbox answers with. */
  readonly status: number;
  /** The request parameter or field at fault, when there is one. */
  readonly parameter: string | undefined;

  constructor(id: DomainErrorId, message: string, parameter?: string) {
    super(message);
    this.id = id;
    this.status = DOMAIN_ERROR_STATUS[id];
    this.parameter = parameter;
  }

  /**
   * Body for an error response: `ID` (the only field the interface shows) plus the sandbox's own
   * `message` and, when known, `parameter`.
   *
   * @example
   * new DomainError("query_missing", "query: required").toResponseBody(); // { ID: "query_missing", message: "query: required" }
   */
  toResponseBody(): { ID: DomainErrorId; message: string; parameter?: string } {
    return this.parameter === undefined
      ? { ID: this.id, message: this.message }
      : { ID: this.id, message: this.message, parameter: this.parameter };
  }
}

/**
 * One problem found in a data file, located by a JSON path such as `$.drills[3].items[0].tell`.
 *
 * @example
 * const p: DataFileProblem = { path: "$.drills[0].id", message: "must be a non-empty string" };
 */
export interface DataFileProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * A data file that cannot be used; lists every problem found.
 *
 * @example
 * try { parseDataFile("{}"); } catch (e) { if (e instanceof DataFileError) for (const p of e.problems) console.log(p.path, p.message); }
 */
export class DataFileError extends SandboxDomainError {
  override readonly name = "DataFileError";
  readonly code = "ERR_DATA_FILE_INVALID" as const;
  readonly problems: readonly DataFileProblem[];

  constructor(problems: readonly DataFileProblem[], source?: string) {
    const where = source === undefined ? "data file" : `data file ${source}`;
    const lines = problems.map((p) => `  ${p.path}: ${p.message}`);
    super(`${where} has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${lines.join("\n")}`);
    this.problems = problems;
  }
}
