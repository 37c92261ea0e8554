/**
 * The body of every API error reply. The interface names the identifier field `ID`; the service's
 * reference writes it `id` and adds a human-readable `description` (observed, see the spec's
 * `x-observed` markers). The sandbox sends all three, so a client written for either form works, plus
 * `message` (the same text as `description`), the field earlier sandbox versions used.
 */

/**
 * An error body as the sandbox sends it.
 */
export interface ErrorBody {
  readonly ID: string;
  readonly id: string;
  readonly description: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

/**
 * Builds an error body: the identifier under `ID` and `id`, the text under `description` and `message`,
 * then any extra fields (such as `parameter`), which never replace those four.
 */
export function errorBody(id: string, description: string, extra?: Record<string, unknown>): ErrorBody {
  return { ...extra, ID: id, id, description, message: description };
}
