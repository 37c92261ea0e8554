/**
 * The simulated operations: the table of every handler, one module per resource under
 * `src/resources/`, and the OAuth endpoints (`src/oauth/oauth-routes.ts`). Every other operation
 * answers its page's example or 501 `not_simulated`: the sandbox does not invent shapes.
 */
import type { SandboxState } from "../domain/state.js";
import { OAUTH_OPERATIONS } from "../oauth/oauth-routes.js";
import { familyBehaviours, familyHandlers } from "../resources/family.js";
import { type FamilyOperationId, RESOURCE_FAMILIES } from "../resources/index.js";
import { practice } from "../resources/practice.js";
import { repertoire } from "../resources/repertoire.js";
import { session } from "../resources/session.js";
import { store } from "../resources/store.js";
import type { OperationHandler } from "./operation-handler.js";

/** The service's own operations, each family a module of `src/resources/`, before the organization side's. */
const CORE_FAMILIES = [store, practice, repertoire, session] as const;

/** A family's rows of the support table, typed with their literal text. */
type Behaviours<F extends { readonly operations: object }> = {
  readonly [Id in keyof F["operations"]]: F["operations"][Id] extends { readonly behaviour: infer B }
    ? B
    : never;
};

/** The operations answered by the sandbox's own code rather than by a family of the organization side. */
const CORE_OPERATIONS = {
  ...OAUTH_OPERATIONS,
  ...(familyBehaviours(CORE_FAMILIES) as Behaviours<typeof store> &
    Behaviours<typeof practice> &
    Behaviours<typeof repertoire> &
    Behaviours<typeof session>),
};

/**
 * What each simulated operation does in the sandbox, by operationId. The package README's list is
 * generated from this table (`pnpm --filter @drill-practice/sandbox readme:operations`) and a test
 * checks that the two agree.
 *
 * @example
 * ```ts
 * import { SIMULATED_OPERATIONS } from "@drill-practice/sandbox";
 *
 * // Operations answered from state (the others answer their reference page's example).
 * for (const [operationId, behaviour] of Object.entries(SIMULATED_OPERATIONS)) {
 *   console.log(`${operationId}: ${behaviour}`);
 * }
 * ```
 */
export const SIMULATED_OPERATIONS = {
  ...CORE_OPERATIONS,
  ...(familyBehaviours(RESOURCE_FAMILIES) as { readonly [Id in FamilyOperationId]: string }),
};

/**
 * The operationId of a simulated operation (public through the package's entries, unused inside).
 *
 * @public
 * @example
 * ```ts
 * import { SIMULATED_OPERATIONS, type SimulatedOperationId } from "@drill-practice/sandbox";
 *
 * const id: SimulatedOperationId = "getQuestion_v2_1";
 * console.log(SIMULATED_OPERATIONS[id]); // what the sandbox does for it
 * ```
 */
export type SimulatedOperationId = keyof typeof SIMULATED_OPERATIONS;

/** Builds the handler table of one sandbox. */
export function createHandlers(state: SandboxState): Map<string, OperationHandler> {
  return familyHandlers([...CORE_FAMILIES, ...RESOURCE_FAMILIES], state);
}
