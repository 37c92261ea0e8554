/**
 * The reference pages' own error identifiers. An operation's page lists the identifiers it answers
 * (`x-errors` in the description); a refusal names its cause (a missing field, a value outside the
 * allowed set, an unknown ID, a missing permission) and this module picks the page's identifier for
 * that cause and the page's status for it. Where a page gives no status, {@link defaultPageErrorStatus}
 * decides, one rule for every page (the README's support table states it).
 */

import { errorBody } from "../error-body.js";
import type { PageErrorCause } from "../refusal.js";
import type { Operation } from "./openapi.js";
import type { Reply } from "./replies.js";

/** `catalogRestrictionMode` → `catalog_restriction_mode`, as the pages spell field names in identifiers. */
function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * The identifiers the record shows for a call without a valid token: `unauthenticated` (the 2.1.1
 * group page) and `not_authenticated` (the 2.0 Error object's example and the e-mail address pages of
 * every version). A page listing neither gets `not_authenticated`, the one most pages show: the
 * sandbox's choice, since those pages are silent.
 */
export const UNAUTHENTICATED_IDS = ["unauthenticated", "not_authenticated"] as const;

/** The identifiers a page may use for a cause, most specific first, and the one used when it lists none. */
function candidates(cause: PageErrorCause): { ids: string[]; fallback: string } {
  switch (cause.kind) {
    case "missing": {
      const f = snake(cause.field);
      // `user` → `user_id_missing`: the PUT group test and objective pages name the user field's so.
      return { ids: [`${f}_missing`, `missing_${f}`, `${f}_id_missing`], fallback: `${f}_missing` };
    }
    case "invalid": {
      const f = snake(cause.field);
      return { ids: [`invalid_${f}`, `${f}_invalid`], fallback: `invalid_${f}` };
    }
    case "not_found": {
      const r = snake(cause.resource);
      return {
        ids: [`${r}_not_found`, `unknown_${r}`, `nonexistent_${r}`, "not_found"],
        fallback: "not_found",
      };
    }
    case "no_permission": {
      const r = cause.resource === undefined ? [] : [`no_${snake(cause.resource)}_access`];
      return { ids: ["no_permission", "not_permitted", ...r, "no_access"], fallback: "no_permission" };
    }
    case "unauthenticated":
      return { ids: [...UNAUTHENTICATED_IDS], fallback: "not_authenticated" };
    case "named":
      return { ids: [cause.id], fallback: cause.id };
  }
}

/**
 * The page's identifier for a cause, or `undefined` when the operation's page lists none for it.
 */
export function listedPageErrorId(operation: Operation, cause: PageErrorCause): string | undefined {
  const listed = new Set(operation.errors.map((e) => e.id));
  return candidates(cause).ids.find((id) => listed.has(id));
}

/** The page's identifier for a cause, or the documented fallback when the page lists none for it. */
export function pageErrorId(operation: Operation, cause: PageErrorCause): string {
  return listedPageErrorId(operation, cause) ?? candidates(cause).fallback;
}

/**
 * Identifiers whose status one page gives and another page leaves out: the status the giving pages
 * state. `not_linked_to_organization` is 401 on the pages of GET catalog, DELETE catalog, GET
 * organization groups and GET organization accounts (GET organization, which answers it too, gives no
 * status; the catalog-access pages that say 403 keep theirs through `x-errors`).
 */
const STATUS_OTHER_PAGES_GIVE: Readonly<Record<string, number>> = { not_linked_to_organization: 401 };

/**
 * The status of an identifier no page gives a status for: the status other pages give it
 * (`not_linked_to_organization` 401), else 400 for missing and invalid values, 404 for unknown IDs
 * (`…_not_found`, `unknown_…`, `nonexistent_…`), 403 for missing permissions, 400 for everything else
 * a page names.
 */
export function defaultPageErrorStatus(id: string): number {
  const given = STATUS_OTHER_PAGES_GIVE[id];
  if (given !== undefined) return given;
  if (/(^|_)not_found$|^unknown_|^nonexistent_/.test(id)) return 404;
  if (/^no_permission$|^not_permitted$|^no_(.+_)?access$/.test(id)) return 403;
  return 400;
}

/**
 * The reply refusing a request for a cause: the page's identifier (or the documented fallback for
 * the cause) with the page's status (or {@link defaultPageErrorStatus}).
 */
export function pageErrorReply(
  operation: Operation,
  cause: PageErrorCause,
  message: string,
  parameter?: string,
  status?: number,
): Reply {
  const id = pageErrorId(operation, cause);
  status ??= operation.errors.find((e) => e.id === id)?.status ?? defaultPageErrorStatus(id);
  return { status, body: errorBody(id, message, parameter === undefined ? undefined : { parameter }) };
}
