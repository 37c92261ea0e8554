/**
 * The drills and courses a form names for a test or an objective: each must exist and be one the acting
 * user may use, refused alike by both families.
 */
import type { SandboxState } from "../domain/state.js";
import { refuse } from "./family.js";

/** Refuses the first ID of form field `field` that names no drill or course, or one the user may not use. */
export function checkUsableDrillables(
  state: SandboxState,
  userId: string,
  ids: readonly string[],
  field: string,
): void {
  for (const id of ids) {
    const record =
      state.drillable(id) ??
      refuse(
        { kind: "not_found", resource: "drill" },
        `form field "${field}": no drill or course ${JSON.stringify(id)}`,
        field,
      );
    if (!state.canAccess(userId, record)) {
      refuse(
        { kind: "no_permission", resource: "drill" },
        `form field "${field}": the acting user may not use ${JSON.stringify(id)}`,
      );
    }
  }
}
