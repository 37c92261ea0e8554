/**
 * The organizations family: organizations, their staff and their groups, in both versions over one
 * state (`state.org`). A user's own organization is the one they are linked to: the one whose service
 * account they are, else the one managing their account, else the first one listing them as staff.
 * Reading staff and groups needs VIEW on the organization, changing staff MANAGE.
 *
 * GET organization accounts (2.1.1) stays unsimulated (501): its page names an OrganizationAccounts
 * answer without a field and is cut inside its error table.
 */
import type { SandboxState } from "../domain/state.js";
import type { Organization, User } from "../domain/types.js";
import { actorV20, actorV21 } from "./actors.js";
import { defineFamily, ok, refuse } from "./family.js";
import { groupV21, groupV211 } from "./groups.js";
import { pageByIndex, pageByMarker } from "./paging.js";
import { userV21 } from "./users.js";

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The organization a user is linked to (see the module comment), if any. */
export function linkedOrganization(state: SandboxState, userId: string): Organization | undefined {
  const all = state.org.organizations.all();
  const user = state.user(userId);
  return (
    all.find((o) => o.serviceAccountId === userId) ??
    (user?.organizationId === undefined ? undefined : state.org.organizations.get(user.organizationId)) ??
    all.find((o) => state.org.organizationStaff.get(o.id, userId) !== undefined)
  );
}

/** An organization in 2.0 answers (and inside 2.0 users). */
export function organizationV20(organization: Organization) {
  return { type: "ORGANIZATION", id: organization.id, name: organization.name };
}

/** An organization in 2.1 answers (the same fields; kept apart so the versions can differ). */
function organizationV21(organization: Organization) {
  return organizationV20(organization);
}

function ownOrganization(state: SandboxState, userId: string): Organization {
  return (
    linkedOrganization(state, userId) ??
    refuse(
      { kind: "named", id: "not_linked_to_organization" },
      `the acting user ${JSON.stringify(userId)} belongs to no organization`,
    )
  );
}

/** The organization a path names; `not_found` for an unknown ID. */
function organizationById(state: SandboxState, id: string, parameter: string): Organization {
  return (
    state.org.organizations.get(id) ??
    refuse(
      { kind: "not_found", resource: "organization" },
      `${parameter}: no organization ${JSON.stringify(id)}`,
      parameter,
    )
  );
}

/** The organization a path names, when it is the acting user's own. */
function namedOwnOrganization(state: SandboxState, userId: string, id: string, parameter: string) {
  const organization = organizationById(state, id, parameter);
  if (ownOrganization(state, userId).id !== organization.id) {
    // The page says only the caller's own organization can be retrieved and lists no permission error.
    refuse(
      { kind: "not_found", resource: "organization" },
      `${parameter}: ${JSON.stringify(id)} is not the acting user's organization`,
      parameter,
    );
  }
  return organization;
}

/** The organization a path names, when the acting user holds `need` on it. */
function organizationFor(
  state: SandboxState,
  userId: string,
  id: string,
  need: "MANAGE" | "VIEW",
  parameter: string,
): Organization {
  const organization = organizationById(state, id, parameter);
  const held = state.org.organizationPermission(userId, id);
  if (held === "MANAGE" || held === need) return organization;
  return refuse(
    { kind: "no_permission", resource: "organization" },
    `the acting user ${JSON.stringify(userId)} needs ${need} permission on organization ${JSON.stringify(id)}`,
  );
}

function staff(state: SandboxState, organizationId: string, query: string | undefined): User[] {
  const needle = query?.trim().toLowerCase();
  return state.org.organizationStaff.rightsOf(organizationId).flatMap(([userId]) => {
    const user = state.user(userId);
    if (!user) return [];
    if (needle && ![user.name, ...user.emails].some((t) => t.toLowerCase().includes(needle))) return [];
    return [user];
  });
}

function addStaff(
  state: SandboxState,
  userId: string,
  organizationId: string,
  reference: string,
  name: unknown,
) {
  const organization = organizationFor(state, userId, organizationId, "MANAGE", "organization_id");
  let user = state.findUserBySubject(reference);
  if (user === undefined) {
    if (!EMAIL.test(reference)) {
      refuse(
        { kind: "invalid", field: "emailAddress" },
        `user_id: ${JSON.stringify(reference)} is neither a user ID nor an email address`,
        "user_id",
      );
    }
    const fullName =
      typeof name === "string" && name.trim() !== ""
        ? name.trim()
        : refuse(
            { kind: "missing", field: "name" },
            `form field "name": required to create an account for ${JSON.stringify(reference)}`,
            "name",
          );
    user = state.accounts.createUser(fullName, reference, organization.id);
  } else {
    if (user.organizationId !== undefined && user.organizationId !== organization.id) {
      refuse(
        { kind: "named", id: "linked_to_other_organization" },
        `user ${JSON.stringify(user.id)} belongs to another organization`,
        "user_id",
      );
    }
    if (state.org.organizationStaff.get(organization.id, user.id) !== undefined) {
      refuse(
        { kind: "named", id: "already_staff_user" },
        `user ${JSON.stringify(user.id)} is a staff user already`,
        "user_id",
      );
    }
    if (user.organizationId === undefined) {
      user = state.org.users.update(user.id, { organizationId: organization.id }) ?? user;
    }
  }
  state.org.organizationStaff.set(organization.id, user.id, "MANAGE");
  return { user, organization };
}

/** A staff user just added, in the 2.0 answer. */
function staffUserV20(state: SandboxState, added: { user: User; organization: Organization }) {
  const { user, organization } = added;
  const email = user.emails[0];
  return {
    type: "USER",
    id: user.id,
    name: user.name,
    memberSince: state.accounts.profile(user.id).memberSince,
    ...(email === undefined ? {} : { emailAddress: email }),
    organization: organizationV20(organization),
  };
}

function removeStaff(state: SandboxState, userId: string, organizationId: string, reference: string) {
  const organization = organizationById(state, organizationId, "organization_id");
  if (linkedOrganization(state, userId)?.id !== organization.id) {
    refuse(
      { kind: "named", id: "caller_not_part_of_organization" },
      `the acting user ${JSON.stringify(userId)} is not part of organization ${JSON.stringify(organization.id)}`,
    );
  }
  if (state.org.organizationPermission(userId, organization.id) !== "MANAGE") {
    refuse(
      { kind: "no_permission", resource: "organization" },
      `the acting user ${JSON.stringify(userId)} needs MANAGE permission on organization ${JSON.stringify(organization.id)}`,
    );
  }
  const user =
    state.findUserBySubject(reference) ??
    refuse(
      { kind: "not_found", resource: "user" },
      `user_id: no user ${JSON.stringify(reference)}`,
      "user_id",
    );
  if (user.id === userId) {
    refuse(
      { kind: "named", id: "cannot_demote_self" },
      "the acting user cannot remove themselves from the staff",
    );
  }
  if (state.org.organizationStaff.get(organization.id, user.id) === undefined) {
    refuse(
      { kind: "named", id: "not_staff_user" },
      `user ${JSON.stringify(user.id)} is not a staff user of this organization`,
      "user_id",
    );
  }
  const heldGroups = state.org.groups
    .all()
    .filter(
      (g) => g.organizationId === organization.id && state.org.groupStaff.get(g.id, user.id) !== undefined,
    );
  if (heldGroups.length > 0) {
    refuse(
      { kind: "named", id: "staff_disconnection_failed" },
      `user ${JSON.stringify(user.id)} still holds staff permission on group(s) ${heldGroups.map((g) => g.id).join(", ")}`,
      "user_id",
    );
  }
  state.org.organizationStaff.delete(organization.id, user.id);
  // Not removed: the account stays, managed by the organization.
  if (user.organizationId === undefined) state.org.users.update(user.id, { organizationId: organization.id });
  return { status: 204 };
}

/** `self` as 2.1.1's pages allow it: the acting user's own organization (refused when there is none). */
function selfOrId(state: SandboxState, userId: string, organization: string): string {
  return organization === "self" ? ownOrganization(state, userId).id : organization;
}

/** An organization's groups in creation order, searched and paged by marker (2.1 and 2.1.1 alike). */
function organizationGroups(
  state: SandboxState,
  userId: string,
  organizationId: string,
  query: { query?: string; resultFrom?: string; resultSize?: number },
) {
  const organization = organizationById(state, organizationId, "organization");
  ownOrganization(state, userId);
  organizationFor(state, userId, organization.id, "VIEW", "organization");
  const needle = query.query?.trim().toLowerCase();
  const found = state.org.groups
    .all()
    .filter(
      (g) =>
        g.organizationId === organization.id &&
        (!needle || `${g.name}\n${g.description}`.toLowerCase().includes(needle)),
    );
  return { found, page: pageByMarker(found, query, (g) => g.id) };
}

/** The organizations family; see the module comment. */
export const organizations = defineFamily("organizations", {
  getOwnOrganization_v2_1: {
    behaviour:
      "the acting user's organization (service account, managing organization or staff, in that order); none: `not_linked_to_organization` (401: the GET organization page gives no status; the pages that answer it with one, GET catalog and GET organization groups among them, say 401)",
    handle: ({ state, userId }) => ok(organizationV21(ownOrganization(state, userId))),
  },
  getOwnOrganization_v2_0: {
    behaviour: "as `getOwnOrganization_v2_1`, in the 2.0 shape",
    handle: ({ state, userId }) => ok(organizationV20(ownOrganization(state, userId))),
  },
  getOrganization_v2_1: {
    behaviour:
      "the organization by ID when it is the acting user's own; unknown or another one: `not_found` (the page lists no permission error); none: `not_linked_to_organization`",
    handle: ({ state, userId, path }) =>
      ok(organizationV21(namedOwnOrganization(state, userId, path.organization, "organization"))),
  },
  getOrganization_v2_0: {
    behaviour: "as `getOrganization_v2_1`, in the 2.0 shape",
    handle: ({ state, userId, path }) =>
      ok(organizationV20(namedOwnOrganization(state, userId, path.organization_id, "organization_id"))),
  },
  listOrganizations_v2_0: {
    behaviour:
      "the organizations the acting user holds VIEW or MANAGE on, as the bare list the page's example shows, `query` on names, paged by `resultStart`/`resultSize`",
    handle: ({ state, userId, query }) => {
      const needle = query.query?.trim().toLowerCase();
      const found = state.org.organizations
        .all()
        .filter(
          (o) =>
            state.org.organizationPermission(userId, o.id) !== undefined &&
            (!needle || o.name.toLowerCase().includes(needle)),
        );
      return ok(pageByIndex(found, query).items.map(organizationV20));
    },
  },
  listOrganizationStaff_v2_1: {
    behaviour:
      "the organization's staff users in the order they were added (needs VIEW; the service account is not listed), `query` on names and addresses, paged by `resultStart`/`resultSize`; `not_found`, `no_permission`",
    handle: ({ state, userId, path, query }) => {
      organizationFor(state, userId, path.organization, "VIEW", "organization");
      const page = pageByIndex(staff(state, path.organization, query.query), query);
      return ok({ total: page.total, users: page.items.map(actorV21) });
    },
  },
  listOrganizationStaff_v2_0: {
    behaviour: "as `listOrganizationStaff_v2_1`, in the 2.0 shape",
    handle: ({ state, userId, path, query }) => {
      organizationFor(state, userId, path.organization_id, "VIEW", "organization_id");
      const page = pageByIndex(staff(state, path.organization_id, query.query), query);
      return ok({ total: page.total, users: page.items.map(actorV20) });
    },
  },
  addOrganizationStaff_v2_0: {
    behaviour:
      "makes the user (ID or email address) a staff user holding MANAGE on all the organization's groups (the page names no level; needs MANAGE: `not_permitted`); an unknown address creates a managed account named by the form field `name` (`missing_name`); neither ID nor address: `invalid_email_address`; `already_staff_user`, `linked_to_other_organization`; answers the 2.0 user",
    handle: ({ state, userId, path, body }) =>
      ok(staffUserV20(state, addStaff(state, userId, path.organization_id, path.user_id, body?.name))),
  },
  removeOrganizationStaff_v2_0: {
    behaviour:
      "removes the staff user, keeping the account as one managed by the organization; answers 204; `organization_not_found`, `caller_not_part_of_organization`, `no_access` (401, needs MANAGE), `not_found`, `cannot_demote_self`, `not_staff_user`, `staff_disconnection_failed` (still group staff in the organization)",
    handle: ({ state, userId, path }) => removeStaff(state, userId, path.organization_id, path.user_id),
  },
  listOrganizationGroups_v2_1: {
    behaviour:
      "the organization's groups in creation order (needs VIEW: `not_permitted`; not linked to any organization: `not_linked_to_organization`), `query` on name and description, paged by `resultFrom`/`resultSize` (`lastOnPage` is a group ID)",
    handle: ({ state, userId, path, query }) => {
      const { found, page } = organizationGroups(state, userId, path.organization, query);
      return ok({
        total: found.length,
        groups: page.items.map((g) => groupV21(state, g)),
        pagination: page.pagination,
      });
    },
  },
  listOrganizationGroups_v2_1_1: {
    behaviour:
      "as `listOrganizationGroups_v2_1`, the groups in the 2.1.1 shape; `self` names the acting user's own organization; the page's statuses: `not_linked_to_organization` 401, `not_permitted` 403, `not_found` 404",
    handle: ({ state, userId, path, query }) => {
      const { found, page } = organizationGroups(
        state,
        userId,
        selfOrId(state, userId, path.organization),
        query,
      );
      return ok({
        total: found.length,
        groups: page.items.map((g) => groupV211(state, g)),
        pagination: page.pagination,
      });
    },
  },
  getOwnOrganization_v2_1_1: {
    behaviour: "as `getOwnOrganization_v2_1` (the 2.1 shape, which 2.1.1 keeps)",
    handle: ({ state, userId }) => ok(organizationV21(ownOrganization(state, userId))),
  },
  getOrganization_v2_1_1: {
    behaviour: "as `getOrganization_v2_1` (the 2.1 shape, which 2.1.1 keeps)",
    handle: ({ state, userId, path }) =>
      ok(organizationV21(namedOwnOrganization(state, userId, path.organization, "organization"))),
  },
  addOrganizationStaff_v2_1_1: {
    behaviour:
      "as `addOrganizationStaff_v2_0` (PUT organization staff page: MANAGE on all the organization's groups, an unknown address creates a managed account named by `name`), answering the 2.1 `User` the description types; `self` names the acting user's own organization; the page's statuses: `not_permitted` 403, `missing_name`, `invalid_email_address`, `already_staff_user`, `linked_to_other_organization` 400",
    handle: ({ state, userId, path, body }) => {
      const id = selfOrId(state, userId, path.organization);
      return ok(userV21(state, addStaff(state, userId, id, path.user, body?.name).user));
    },
  },
  removeOrganizationStaff_v2_1_1: {
    behaviour:
      "as `removeOrganizationStaff_v2_0` (DELETE organization staff page: the account stays, managed by the organization; 204); `self` names the acting user's organization, or the acting user as `user`; the page's statuses: `organization_not_found` 404, `caller_not_part_of_organization` 400, `no_access` 401, `not_found` 404, `cannot_demote_self` 403, `not_staff_user` 400, `staff_disconnection_failed` 400",
    handle: ({ state, userId, path }) =>
      removeStaff(
        state,
        userId,
        selfOrId(state, userId, path.organization),
        path.user === "self" ? userId : path.user,
      ),
  },
  listOrganizationStaff_v2_1_1: {
    behaviour: "as `listOrganizationStaff_v2_1`; `self` names the acting user's own organization",
    handle: ({ state, userId, path, query }) => {
      const id = selfOrId(state, userId, path.organization);
      organizationFor(state, userId, id, "VIEW", "organization");
      const page = pageByIndex(staff(state, id, query.query), query);
      return ok({ total: page.total, users: page.items.map(actorV21) });
    },
  },
});
