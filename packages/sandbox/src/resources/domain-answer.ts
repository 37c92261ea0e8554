/**
 * The answer of a handler over the domain layer (store search, practice, repertoire), whose refusals
 * are `DomainError`s with their own identifier and status rather than a page's cause.
 */
import { DomainError } from "../errors.js";
import type { Answer } from "./family.js";

/**
 * Runs domain code and answers its value (200), or its refusal with the domain's ID and status.
 *
 * @example
 * ```ts
 * import { defaultDataset } from "../data/default-dataset.js";
 * import { createState } from "../domain/state.js";
 * import { fromDomain } from "./domain-answer.js";
 *
 * const state = createState(await defaultDataset());
 * fromDomain(() => state.getRendition("user-ana", "no-such-drill")).status; // 404
 * ```
 */
export function fromDomain(run: () => unknown): Answer {
  try {
    return { status: 200, body: run() };
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, body: error.toResponseBody() };
    throw error;
  }
}
