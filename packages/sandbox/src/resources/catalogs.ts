/**
 * The catalogs family: 2.1.1's catalog operations whose pages show their behaviour, over the catalogs
 * the store search reads (`state.catalog(id)`), so access granted here is what a catalog search
 * checks. The data file records no organization for a catalog: the sandbox counts every catalog as
 * its caller's organization's, and asks the caller to be linked to an organization (the pages'
 * `not_linked_to_organization`) and to hold MANAGE on it (the pages name `PUBLISH_TO_CATALOG`, which
 * the sandbox's permissions do not have; `not_permitted`).
 *
 * GET catalog and GET organization catalogs name their answers (a UserCatalog, a Catalogs object)
 * without showing a field, and POST catalogs and PUT catalog are cut inside their field tables: those
 * stay unsimulated (501).
 */

import type { SandboxState } from "../domain/state.js";
import type { Catalog, User } from "../domain/types.js";
import { addressedUser, thirdPartyUser } from "./actors.js";
import { defineFamily, refuse } from "./family.js";
import { linkedOrganization } from "./organizations.js";

/** The caller's organization, when they hold MANAGE on it (see the module comment). */
function publishingOrganization(state: SandboxState, userId: string) {
  const organization =
    linkedOrganization(state, userId) ??
    refuse(
      { kind: "named", id: "not_linked_to_organization" },
      `the acting user ${JSON.stringify(userId)} belongs to no organization`,
    );
  if (state.org.organizationPermission(userId, organization.id) !== "MANAGE") {
    refuse(
      { kind: "no_permission", resource: "catalog" },
      `the acting user ${JSON.stringify(userId)} needs MANAGE on organization ${JSON.stringify(organization.id)} to manage its catalogs`,
    );
  }
  return organization;
}

/** The catalog a path names; `catalog_not_found` for an unknown ID. */
function catalogById(state: SandboxState, id: string): Catalog {
  return (
    state.catalog(id) ??
    refuse({ kind: "not_found", resource: "catalog" }, `catalog: no catalog ${JSON.stringify(id)}`, "catalog")
  );
}

/**
 * The user segment of the catalog access pages: a user ID, an email address, or a third-party ID the
 * pages write `THIRD_PARTY/ID` (matched as 2.1.1's two-segment user paths match it); `self` is the
 * sandbox's addition, as on 2.1.1's other user paths.
 */
function catalogUser(state: SandboxState, userId: string, reference: string): User {
  const subject = reference === "self" ? userId : reference;
  const slash = subject.indexOf("/");
  if (slash <= 0 || state.findUserBySubject(subject) !== undefined)
    return addressedUser(state, subject, "user");
  return thirdPartyUser(state, subject.slice(0, slash), subject.slice(slash + 1));
}

/**
 * Gives or takes away a user's access to a catalog (the caller's permission first, then the catalog,
 * then the user), answering 204; both are idempotent, as the domain's.
 */
function changeAccess(
  state: SandboxState,
  userId: string,
  path: { user: string; catalog: string },
  grant: boolean,
) {
  publishingOrganization(state, userId);
  const catalog = catalogById(state, path.catalog);
  const user = catalogUser(state, userId, path.user);
  if (grant) state.grantCatalogAccess(user.id, catalog.id);
  else state.revokeCatalogAccess(user.id, catalog.id);
  return { status: 204 };
}

/** The catalogs family; see the module comment. */
export const catalogs = defineFamily("catalogs", {
  deleteCatalog_v2_1_1: {
    behaviour:
      "deletes the catalog and answers 204 (DELETE catalog page); its drills and courses stay, users lose the access it gave (a catalog search then answers `catalog_not_found`) and groups restricted to it lose the restriction (the sandbox's choice: the page is silent). Caller without an organization: `not_linked_to_organization` 401; without MANAGE on it (the page's `PUBLISH_TO_CATALOG`): `not_permitted` 403; `catalog_not_found` 404",
    handle: ({ state, userId, path }) => {
      publishingOrganization(state, userId);
      state.deleteCatalog(catalogById(state, path.catalog).id);
      return { status: 204 };
    },
  },
  grantCatalogAccess_v2_1_1: {
    behaviour:
      "gives the user (ID, email address or third-party ID, written `THIRD_PARTY/ID` as the page shows or `THIRD_PARTY$ID`; `self` too, the sandbox's addition) access to the catalog and answers 204 (PUT user catalog page); the store search then searches the catalog for them. Already granted: 204 again (the sandbox's choice). Caller without an organization: `not_linked_to_organization` 403; without MANAGE: `not_permitted` 403; `catalog_not_found` 404, unknown user `not_found` 404",
    handle: ({ state, userId, path }) => changeAccess(state, userId, path, true),
  },
  revokeCatalogAccess_v2_1_1: {
    behaviour:
      "takes the user's access to the catalog away and answers 204 (DELETE user catalog page); a catalog search then answers `catalog_access_denied`. Without access: 204 (the sandbox's choice). Errors as `grantCatalogAccess_v2_1_1`",
    handle: ({ state, userId, path }) => changeAccess(state, userId, path, false),
  },
});
