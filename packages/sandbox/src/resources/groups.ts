/**
 * The groups family: groups, their members, staff permissions and drills, in both versions over one
 * state (src/domain/organization.ts). Permissions: reading a group needs VIEW, changing it MANAGE,
 * held as organization staff (the service account always) or as group staff.
 */
import type { CatalogRestriction, GroupRecord } from "../domain/organization.js";
import type { SandboxState } from "../domain/state.js";
import type { StaffPermission, User } from "../domain/types.js";
import type { PageErrorCause } from "../refusal.js";
import { actorV20, actorV21, addressedUser, thirdPartyUser } from "./actors.js";
import { defineFamily, ok, refuse } from "./family.js";
import { refuseImageKeys } from "./images.js";
import { pageByIndex, pageByMarker } from "./paging.js";
import { LOCALE } from "./users.js";

const PERMISSIONS: readonly StaffPermission[] = ["MANAGE", "VIEW"];
/** An email address, which a group invites when no account has it. */
const INVITABLE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The group a path names, when the acting user holds at least `need` on it (also for tests and objectives). */
export function groupFor(
  state: SandboxState,
  id: string,
  userId: string,
  need: StaffPermission,
  parameter: string,
) {
  const group =
    state.org.groups.get(id) ??
    refuse(
      { kind: "not_found", resource: "group" },
      `${parameter}: no group ${JSON.stringify(id)}`,
      parameter,
    );
  const held = state.org.groupPermission(userId, id);
  if (held === "MANAGE" || held === need) return group;
  return refuse(
    { kind: "no_permission", resource: "group" },
    `the acting user ${JSON.stringify(userId)} needs ${need} permission on group ${JSON.stringify(id)}`,
  );
}

/** A text field that must not be blank (a blank one counts as missing on create, invalid on update). */
function text(value: string | undefined, field: string, blank: "missing" | "invalid"): string {
  const trimmed = value?.trim() ?? "";
  if (trimmed !== "") return trimmed;
  return refuse({ kind: blank, field }, `form field "${field}": must not be blank`, field);
}

function permissionOf(value: string | undefined, field: string): StaffPermission {
  if (value === undefined)
    return refuse({ kind: "missing", field }, `${field}: MANAGE or VIEW is required`, field);
  if (!PERMISSIONS.includes(value as StaffPermission)) {
    return refuse(
      { kind: "invalid", field },
      `${field}: must be MANAGE or VIEW (got ${JSON.stringify(value)})`,
      field,
    );
  }
  return value as StaffPermission;
}

function members(state: SandboxState, groupId: string, query: string | undefined) {
  const needle = query?.trim().toLowerCase();
  return state.org.groupMembers.rightsOf(groupId).flatMap(([userId, { joined }]) => {
    const user = state.user(userId);
    if (!user || (needle && !user.name.toLowerCase().includes(needle))) return [];
    return [{ user, joined }];
  });
}

/** A group in 2.1 answers (also listed by the organizations family). */
export function groupV21(state: SandboxState, group: GroupRecord) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    counts: {
      members: state.org.groupMembers.rightsOf(group.id).length,
      drillables: state.org.groupDrillables.rightsOf(group.id).length,
      tests: state.assessment.groupTests.rightsOf(group.id).length,
    },
    created: group.created,
    lastEdited: group.lastEdited,
    organization: { id: group.organizationId, type: "ORGANIZATION" },
  };
}

/** The groups the acting user holds a permission on, filtered as the search pages say, in creation order. */
function findGroups(
  state: SandboxState,
  userId: string,
  query: { query?: string; permission?: StaffPermission; member?: string },
): GroupRecord[] {
  const needle = query.query?.trim().toLowerCase();
  return state.org.groups.all().filter((group) => {
    const held = state.org.groupPermission(userId, group.id);
    if (held === undefined || (query.permission !== undefined && held !== query.permission)) return false;
    if (query.member !== undefined && !state.org.groupMembers.get(group.id, query.member)) return false;
    return !needle || `${group.name}\n${group.description}`.toLowerCase().includes(needle);
  });
}

/** A group in 2.1.1 answers: the 2.1 fields, the organization named as 2.1.1's example shows it. */
export function groupV211(state: SandboxState, group: GroupRecord) {
  const shown = groupV21(state, group);
  const name = state.organization(group.organizationId)?.name;
  return name === undefined ? shown : { ...shown, organization: { ...shown.organization, name } };
}

/** A group in 2.0 answers (also inside 2.0 invitations). */
export function groupV20(state: SandboxState, group: GroupRecord) {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: state.org.groupMembers.rightsOf(group.id).length,
    drills: state.org.groupDrillables.rightsOf(group.id).length,
  };
}

function staffEntries(state: SandboxState, groupId: string): { user: User; permission: StaffPermission }[] {
  return state.org.groupStaff.rightsOf(groupId).flatMap(([userId, permission]) => {
    const user = state.user(userId);
    return user ? [{ user, permission }] : [];
  });
}

function staffV21(state: SandboxState, groupId: string) {
  const entries = staffEntries(state, groupId);
  return {
    group: { id: groupId },
    count: entries.length,
    groupStaffUsers: entries.map((e) => ({
      group: { id: groupId },
      user: actorV21(e.user),
      permission: e.permission,
    })),
  };
}

function staffV20(state: SandboxState, groupId: string) {
  const entries = staffEntries(state, groupId);
  return {
    group: groupId,
    count: entries.length,
    total: entries.length,
    groupStaffUsers: entries.map((e) => ({
      group: groupId,
      user: actorV20(e.user),
      permission: e.permission,
    })),
  };
}

/** The restriction a create or update form asks for; `undefined` where it leaves the current one. */
function restrictionOf(
  state: SandboxState,
  current: CatalogRestriction | undefined,
  form: { catalogRestriction?: string; catalogRestrictionMode?: "REQUIRE" | "GRANT" },
): CatalogRestriction | undefined {
  const catalogId = form.catalogRestriction ?? current?.catalogId;
  if (catalogId === undefined) {
    if (form.catalogRestrictionMode === undefined) return undefined;
    return refuse(
      { kind: "invalid", field: "catalogRestrictionMode" },
      'form field "catalogRestrictionMode": only with catalogRestriction (the group has no restriction)',
      "catalogRestrictionMode",
    );
  }
  if (state.catalog(catalogId) === undefined) {
    refuse(
      { kind: "invalid", field: "catalogRestriction" },
      `form field "catalogRestriction": no catalog ${JSON.stringify(catalogId)}`,
      "catalogRestriction",
    );
  }
  // A new catalog without a mode starts as REQUIRE (the page's default); a mode alone keeps the catalog.
  const mode =
    form.catalogRestrictionMode ??
    (form.catalogRestriction === undefined ? current?.mode : undefined) ??
    "REQUIRE";
  return { catalogId, mode };
}

function createGroup(
  state: SandboxState,
  userId: string,
  form: {
    name?: string;
    description?: string;
    catalogRestriction?: string;
    catalogRestrictionMode?: "REQUIRE" | "GRANT";
  },
) {
  const fields = {
    name: text(form.name, "name", "missing"),
    description: text(form.description, "description", "missing"),
  };
  const restriction = restrictionOf(state, undefined, form);
  const organization =
    state.org.managedOrganization(userId) ??
    refuse(
      { kind: "no_permission" },
      `the acting user ${JSON.stringify(userId)} holds MANAGE on no organization, so cannot create groups`,
    );
  const now = state.org.now();
  return state.org.groups.put({
    id: state.org.groups.newId("group"),
    ...fields,
    organizationId: organization.id,
    created: now,
    lastEdited: now,
    ...(restriction === undefined ? {} : { catalogRestriction: restriction }),
  });
}

/** The 2.1 form's account set-up fields (2.0 takes none). */
interface SetUp {
  readonly setup?: boolean;
  readonly name?: string;
  readonly locale?: string;
}

/** The set-up fields of an add-member form (2.1 and 2.1.1 share it). */
function setUpOf(body: { setup?: boolean; name?: unknown; locale?: unknown } | undefined): SetUp {
  return {
    ...(body?.setup === undefined ? {} : { setup: body.setup }),
    ...(typeof body?.name === "string" ? { name: body.name } : {}),
    ...(typeof body?.locale === "string" ? { locale: body.locale } : {}),
  };
}

/** Checks a joining user against the group's catalog restriction, granting access in GRANT mode. */
function admit(state: SandboxState, group: GroupRecord, user: User): void {
  const restriction = group.catalogRestriction;
  if (restriction === undefined) return;
  const catalog = state.catalog(restriction.catalogId);
  if (catalog === undefined || catalog.userIds.includes(user.id)) return;
  if (restriction.mode === "GRANT") {
    state.grantCatalog(catalog.id, user.id);
    return;
  }
  refuse(
    { kind: "no_permission", resource: "catalog" },
    `${user.name} has no access to catalog ${JSON.stringify(catalog.id)}, which the group requires`,
  );
}

function addMember(
  state: SandboxState,
  userId: string,
  groupId: string,
  reference: string,
  parameter: string,
  form: SetUp = {},
) {
  const group = groupFor(state, groupId, userId, "MANAGE", "group");
  if (state.findUserBySubject(reference) === undefined && INVITABLE.test(reference) && form.setup === true) {
    // Auto-setup (the sandbox's organizations all allow it): the account is created, managed by the
    // group's organization, with the name and locale sent.
    const name = text(form.name, "name", "missing");
    if (form.locale !== undefined && !LOCALE.test(form.locale)) {
      refuse({ kind: "invalid", field: "locale" }, `form field "locale": like en or en_US`, "locale");
    }
    const created = state.accounts.createUser(name, reference, group.organizationId);
    if (form.locale !== undefined) state.accounts.profiles.update(created.id, { locale: form.locale });
    admit(state, group, created);
    state.org.groupMembers.set(group.id, created.id, { joined: state.org.now() });
    return ok({ description: `account ${created.id} set up for ${reference}, a member of ${group.name}` });
  }
  if (state.findUserBySubject(reference) === undefined && INVITABLE.test(reference)) {
    // An address without an account is invited (see the invitations family); no mail is sent.
    const invitation = state.accounts.invite(group.id, reference, userId);
    return ok({ description: `${reference} has no account: invitation ${invitation.id} to ${group.name}` });
  }
  const user = addressedUser(state, reference, parameter);
  if (!state.org.groupMembers.get(group.id, user.id)) {
    admit(state, group, user);
    state.org.groupMembers.set(group.id, user.id, { joined: state.org.now() });
  }
  return ok({ description: `${user.name} is a member of ${group.name}` });
}

/** How a removal refuses someone who is not a member: 2.0's `not_found`, 2.1.1's own identifier. */
const NOT_A_MEMBER: PageErrorCause = { kind: "not_found", resource: "member" };

function removeMember(
  state: SandboxState,
  userId: string,
  groupId: string,
  reference: string,
  parameter: string,
  notMember: PageErrorCause = NOT_A_MEMBER,
) {
  const group = groupFor(state, groupId, userId, "MANAGE", "group");
  const user = state.findUserBySubject(reference);
  if (user !== undefined && state.org.groupMembers.delete(group.id, user.id)) {
    return ok({ description: `${user.name} is no longer a member of ${group.name}` });
  }
  if (notMember !== NOT_A_MEMBER) {
    // 2.1.1: an invitee who has not answered is removed by cancelling the invitation.
    const wanted = reference.toLowerCase();
    const invitation = state.accounts.invitations
      .all()
      .find(
        (i) => i.groupId === group.id && i.status === "PENDING" && i.emailAddress.toLowerCase() === wanted,
      );
    if (invitation !== undefined) {
      state.accounts.invitations.delete(invitation.id);
      return ok({ description: `the invitation of ${reference} to ${group.name} is cancelled` });
    }
  }
  if (user === undefined && notMember === NOT_A_MEMBER) addressedUser(state, reference, parameter);
  return refuse(notMember, `${parameter}: ${JSON.stringify(reference)} is not a member`, parameter);
}

function addDrill(state: SandboxState, userId: string, groupId: string, drillId: string, parameter: string) {
  const group = groupFor(state, groupId, userId, "MANAGE", "group");
  const drill =
    state.drillable(drillId) ??
    refuse(
      { kind: "not_found", resource: "drill" },
      `${parameter}: no drill or course ${JSON.stringify(drillId)}`,
      parameter,
    );
  if (!state.canAccess(userId, drill)) {
    refuse(
      { kind: "no_permission", resource: "drill" },
      `the acting user may not use ${JSON.stringify(drillId)}`,
    );
  }
  const restriction = group.catalogRestriction;
  if (restriction && !state.catalog(restriction.catalogId)?.drillableIds.includes(drill.id)) {
    refuse(
      { kind: "no_permission", resource: "drill" },
      `${JSON.stringify(drillId)} is not in catalog ${JSON.stringify(restriction.catalogId)}, which the group is restricted to`,
      parameter,
    );
  }
  if (state.org.groupDrillables.get(group.id, drill.id)) {
    refuse(
      { kind: "named", id: "drill_already_in_group" },
      `${JSON.stringify(drillId)} is in the group already`,
      parameter,
    );
  }
  state.org.groupDrillables.set(group.id, drill.id, state.org.now());
  return ok({ description: `${drill.name} added to ${group.name}` });
}

function removeDrill(
  state: SandboxState,
  userId: string,
  groupId: string,
  drillId: string,
  parameter: string,
) {
  const group = groupFor(state, groupId, userId, "MANAGE", "group");
  if (!state.org.groupDrillables.delete(group.id, drillId)) {
    refuse(
      { kind: "not_found", resource: "drill" },
      `${parameter}: ${JSON.stringify(drillId)} is not in the group`,
      parameter,
    );
  }
  return ok({ description: `${drillId} removed from ${group.name}` });
}

/**
 * The group's own staff (needs VIEW), paged; with `search`, only the users whose name holds it
 * (case-insensitive), `count` then being of the users found.
 */
function staffPage(
  state: SandboxState,
  userId: string,
  groupId: string,
  page: Parameters<typeof pageByIndex>[1],
  search?: string,
) {
  groupFor(state, groupId, userId, "VIEW", "group");
  const staff = staffV21(state, groupId);
  const needle = search?.trim().toLowerCase();
  const found = staff.groupStaffUsers.filter((e) => !needle || e.user.name.toLowerCase().includes(needle));
  return ok({ ...staff, count: found.length, groupStaffUsers: pageByIndex(found, page).items });
}

/**
 * Gives the user the permission, replacing the one held, or takes it back (not the acting user's own,
 * and only one the user holds); needs MANAGE; answers the group's staff in the version's shape.
 */
function changeStaff(
  state: SandboxState,
  userId: string,
  where: { readonly group: string; readonly user: string },
  change: { readonly grant: StaffPermission } | { readonly revoke: StaffPermission },
  staff: (state: SandboxState, groupId: string) => object = staffV21,
) {
  const { group: groupId, user: reference } = where;
  groupFor(state, groupId, userId, "MANAGE", "group");
  const user = addressedUser(state, reference, "user");
  if ("grant" in change) {
    state.org.groupStaff.set(groupId, user.id, change.grant);
    return ok(staff(state, groupId));
  }
  if (user.id === userId) {
    refuse(
      { kind: "no_permission", resource: "group" },
      "the acting user cannot remove their own staff permission",
    );
  }
  if (state.org.groupStaff.get(groupId, user.id) !== change.revoke) {
    refuse(
      { kind: "not_found", resource: "user" },
      `user ${JSON.stringify(reference)} holds no ${change.revoke} permission on this group`,
      "user",
    );
  }
  state.org.groupStaff.delete(groupId, user.id);
  return ok(staff(state, groupId));
}

/** The 2.1 update form's fields (2.1.1's form adds subscription fields the sandbox does not model). */
interface GroupUpdate {
  readonly name?: string;
  readonly description?: unknown;
  readonly iconKey?: unknown;
  readonly catalogRestriction?: string;
  readonly catalogRestrictionMode?: "REQUIRE" | "GRANT";
  readonly catalogRestrictionRemove?: boolean;
}

function updateGroup(state: SandboxState, userId: string, groupId: string, body: GroupUpdate) {
  const group = groupFor(state, groupId, userId, "MANAGE", "group");
  refuseImageKeys(body, ["iconKey"]);
  const name = text(body.name, "name", "invalid");
  const description = text(body.description as string | undefined, "description", "invalid");
  if (body.catalogRestrictionRemove === true && body.catalogRestriction !== undefined) {
    refuse(
      { kind: "invalid", field: "catalogRestrictionRemove" },
      'form field "catalogRestrictionRemove": leave catalogRestriction out when removing the restriction',
      "catalogRestrictionRemove",
    );
  }
  const { catalogRestriction: current, ...unrestricted } = group;
  const restriction =
    body.catalogRestrictionRemove === true ? undefined : restrictionOf(state, current, body);
  return state.org.groups.put({
    ...unrestricted,
    name,
    description,
    lastEdited: state.org.now(),
    ...(restriction === undefined ? {} : { catalogRestriction: restriction }),
  });
}

/** The support table's note on catalog restrictions, shared by create and update. */
const CATALOG_RESTRICTION =
  "`catalogRestriction` (an unknown catalog `invalid_catalog_restriction`) and `catalogRestrictionMode` (`REQUIRE` by default, a mode without a catalog `invalid_catalog_restriction_mode`) are kept but not answered (the group's answer shape has no place for them); they apply: only the catalog's drills and courses may be added (`no_access`), and a joining member without access to the catalog is refused `no_permission` (403, no page names one) in `REQUIRE` mode or given access in `GRANT` mode (the owner's consent the page mentions is not modelled)";

/** The groups family; see the module comment. */
export const groups = defineFamily("groups", {
  createGroup_v2_1: {
    behaviour:
      "creates a group in the organization the acting user manages (ID `group-<n>`, `created`); `name_missing`, `description_missing` (blank counts as missing), `no_permission`. " +
      CATALOG_RESTRICTION,
    handle: ({ state, userId, body }) => ok(groupV21(state, createGroup(state, userId, body))),
  },
  createGroup_v2_0: {
    behaviour: "as `createGroup_v2_1`, answered in the 2.0 shape (`members` and `drills` as counts)",
    handle: ({ state, userId, body }) =>
      ok(
        groupV20(
          state,
          createGroup(state, userId, {
            name: body.name,
            description: body.description as string | undefined,
          }),
        ),
      ),
  },
  searchGroups_v2_1_1: {
    behaviour:
      "as `searchGroups_v2_1` without `member` (2.1.1 dropped it), answered in the 2.1.1 shape (the organization with its name) with `total` and the 2.1.1 `pagination`, paged by `resultFrom`/`resultSize` (default 10; `lastOnPage` is a group ID, an unknown one `invalid_result_from`)",
    handle: ({ state, userId, query }) => {
      const found = findGroups(state, userId, query);
      const page = pageByMarker(found, { ...query, resultSize: query.resultSize ?? 10 }, (g) => g.id);
      const shown = page.items.map((group) =>
        query.profile === "AUTO_COMPLETE" ? { id: group.id, name: group.name } : groupV211(state, group),
      );
      return ok({ total: found.length, groups: shown, pagination: page.pagination });
    },
  },
  createGroup_v2_1_1: {
    behaviour:
      "as `createGroup_v2_1`; the page is cut before the answer, so it answers as 2.1 does: the new group, in the 2.1.1 shape; the subscription fields are not applied (memberships in the sandbox never end)",
    handle: ({ state, userId, body }) => ok(groupV211(state, createGroup(state, userId, body))),
  },
  getGroup_v2_1_1: {
    behaviour:
      "the group in the 2.1.1 shape (the 2.1 fields, the organization with its name; needs VIEW); the page lists only `unauthenticated`, so an unknown group is `not_found` (404) and a missing permission `no_permission` (403), the documented defaults",
    handle: ({ state, userId, path }) =>
      ok(groupV211(state, groupFor(state, path.group, userId, "VIEW", "group"))),
  },
  updateGroup_v2_1_1: {
    behaviour:
      "as `updateGroup_v2_1`; the page is cut before the answer, so it answers as 2.1 does: the group, in the 2.1.1 shape; the subscription fields are not applied (memberships in the sandbox never end)",
    handle: ({ state, userId, path, body }) =>
      ok(groupV211(state, updateGroup(state, userId, path.group, body))),
  },
  addGroupMember_v2_1_1: {
    behaviour: "as `addGroupMember_v2_1` (by user ID or email address)",
    handle: ({ state, userId, path, body }) =>
      addMember(state, userId, path.group, path.user, "user", setUpOf(body)),
  },
  addGroupMemberByThirdPartyId_v2_1_1: {
    behaviour:
      "as `addGroupMember_v2_1_1` for the user holding the third-party ID: a data-file entry `<third_party>$<third_party_id>`, or a plain entry `<third_party_id>` (no issuer recorded: any `third_party` matches; no page names the supported third parties); an unknown one is `not_found` (404); no account is set up or invited (a third-party ID has no address to reach)",
    handle: ({ state, userId, path }) => {
      groupFor(state, path.group, userId, "MANAGE", "group");
      const user = thirdPartyUser(state, path.third_party, path.third_party_id);
      return addMember(state, userId, path.group, user.id, "third_party_id");
    },
  },
  removeGroupMember_v2_1_1: {
    behaviour:
      "removes the member (by user ID or email address; needs MANAGE), or cancels the pending invitation of an address that is not a member; answers a `Message`; `group_not_found`, `no_group_access`, `not_group_member` (400, the documented default, also for an unknown user)",
    handle: ({ state, userId, path }) =>
      removeMember(state, userId, path.group, path.user, "user", {
        kind: "named",
        id: "not_group_member",
      }),
  },
  addDrillToGroup_v2_1_1: {
    behaviour: "as `addDrillToGroup_v2_1`",
    handle: ({ state, userId, path }) => addDrill(state, userId, path.group, path.drill, "drill"),
  },
  listGroupStaff_v2_1_1: {
    behaviour:
      "as `listGroupStaff_v2_1`, `query` searching the staff users' names (case-insensitive; `count` is of the users found); `unknown_group`, `not_permitted`",
    handle: ({ state, userId, path, query }) => staffPage(state, userId, path.group, query, query.query),
  },
  updateGroupStaffPermissions_v2_1_1: {
    behaviour:
      "gives the user the permission in the path (`MANAGE` or `VIEW`), replacing the one held (needs MANAGE); answers the group's staff; `unknown_group`, `not_permitted`, an unknown user `not_found` (404)",
    handle: ({ state, userId, path }) => changeStaff(state, userId, path, { grant: path.permission }),
  },
  revokeGroupStaffPermission_v2_1_1: {
    behaviour:
      "as `revokeGroupStaffPermission_v2_1`: `unknown_group`, `not_permitted` (also for the acting user's own permission), `unknown_user` (also for a user without that permission)",
    handle: ({ state, userId, path }) => changeStaff(state, userId, path, { revoke: path.permission }),
  },
  getSubscribedGroup_v2_1_1: {
    behaviour:
      "a group the acting user is a member of, with the fields the page's example shows (`id`, `name`, `description`, the organization with its name); an unknown group `not_found` (404), a group the user is not a member of `not_subscribed` (403, staff permission does not count)",
    handle: ({ state, userId, path }) => {
      const group =
        state.org.groups.get(path.group) ??
        refuse(
          { kind: "not_found", resource: "group" },
          `group: no group ${JSON.stringify(path.group)}`,
          "group",
        );
      if (!state.org.groupMembers.get(group.id, userId)) {
        refuse(
          { kind: "named", id: "not_subscribed" },
          `the acting user ${JSON.stringify(userId)} is not a member of group ${JSON.stringify(group.id)}`,
        );
      }
      const { id, name, description, organization } = groupV211(state, group);
      return ok({ id, name, description, organization });
    },
  },
  searchGroups_v2_1: {
    behaviour:
      "the groups the acting user holds VIEW or MANAGE on, in creation order; `query` (name or description, case-insensitive), `member`, `permission` (exact), `profile`, `resultStart`/`resultSize`",
    handle: ({ state, userId, query }) => {
      const page = pageByIndex(findGroups(state, userId, query), query);
      const shown = page.items.map((group) =>
        query.profile === "AUTO_COMPLETE" ? { id: group.id, name: group.name } : groupV21(state, group),
      );
      return ok({ total: page.total, groups: shown });
    },
  },
  getGroup_v2_1: {
    behaviour: "the group (needs VIEW); `not_found`, `no_permission`",
    handle: ({ state, userId, path }) =>
      ok(groupV21(state, groupFor(state, path.group, userId, "VIEW", "group"))),
  },
  updateGroup_v2_1: {
    behaviour:
      "renames the group and sets its description (needs MANAGE; `lastEdited` moves); blank values `invalid_name`, `invalid_description`; the sandbox has no image uploads, so any `iconKey` is `invalid_icon_key`; `catalogRestriction` and `catalogRestrictionMode` as on create (a mode alone changes the current restriction's), `catalogRestrictionRemove=true` removes it (`invalid_catalog_restriction_remove` with `catalogRestriction`). " +
      CATALOG_RESTRICTION,
    handle: ({ state, userId, path, body }) =>
      ok(groupV21(state, updateGroup(state, userId, path.group, body))),
  },
  deleteGroup_v2_1: {
    behaviour:
      "deletes the group with its members, staff and drills (needs MANAGE); answers a `Message` (the answer is not shown)",
    handle: ({ state, userId, path }) => {
      const group = groupFor(state, path.group, userId, "MANAGE", "group");
      state.org.deleteGroup(group.id);
      state.assessment.forgetGroup(group.id);
      return ok({ description: `${group.name} deleted` });
    },
  },
  listGroupMembers_v2_1: {
    behaviour:
      "the members (needs VIEW) with `joined`, in joining order, `query` on names, paged by `resultFrom`/`resultSize` (`lastOnPage` is a member ID)",
    handle: ({ state, userId, path, query }) => {
      groupFor(state, path.group, userId, "VIEW", "group");
      const all = members(state, path.group, query.query);
      const page = pageByMarker(all, query, (m) => m.user.id);
      return ok({
        members: page.items.map((m) => ({ member: actorV21(m.user), joined: m.joined })),
        counts: {
          members: all.length,
          invitees: state.accounts.invitations
            .all()
            .filter((i) => i.groupId === path.group && i.status === "PENDING").length,
        },
        pagination: page.pagination,
      });
    },
  },
  listGroupMembers_v2_0: {
    behaviour:
      "the 2.0 group with its members (`id`, `name`, `joined`, `emailAddress`), `query` on names, paged by `resultStart`/`resultSize`",
    handle: ({ state, userId, path, query }) => {
      const group = groupFor(state, path.group_id, userId, "VIEW", "group_id");
      const page = pageByIndex(members(state, group.id, query.query), query);
      return ok({
        id: group.id,
        name: group.name,
        description: group.description,
        members: page.items.map(({ user, joined }) => ({ ...actorV20(user), joined })),
      });
    },
  },
  addGroupMember_v2_1: {
    behaviour:
      "adds the user (by ID, email address or third-party ID; needs MANAGE); answers a `Message` (the answer is not shown); a member already there stays; an email address without an account gets a group invitation instead, its token named in the `Message` (no mail is sent), or with `setup=true` an account managed by the group's organization, named `name` (`name_missing` without one) with `locale` (the sandbox's organizations all allow auto-setup); `sendWelcomeEmail` changes nothing the sandbox can show (it sends no mail). A group's catalog restriction applies to joining (see `createGroup_v2_1`)",
    handle: ({ state, userId, path, body }) =>
      addMember(state, userId, path.group, path.user, "user", setUpOf(body)),
  },
  addGroupMember_v2_0: {
    behaviour: "as `addGroupMember_v2_1`",
    handle: ({ state, userId, path }) =>
      addMember(state, userId, path.group_id, path.user_reference, "user_reference"),
  },
  removeGroupMember_v2_0: {
    behaviour: "removes the member (needs MANAGE); answers a `Message`; not a member: `not_found`",
    handle: ({ state, userId, path }) =>
      removeMember(state, userId, path.group_id, path.user_reference, "user_reference"),
  },
  addDrillToGroup_v2_1: {
    behaviour:
      "adds a drill or course the acting user may use (needs MANAGE); `group_not_found`, `no_access`, `drill_already_in_group`",
    handle: ({ state, userId, path }) => addDrill(state, userId, path.group, path.drill, "drill"),
  },
  addDrillToGroup_v2_0: {
    behaviour: "as `addDrillToGroup_v2_1`",
    handle: ({ state, userId, path }) => addDrill(state, userId, path.group_id, path.drill_id, "drill_id"),
  },
  removeDrillFromGroup_v2_1: {
    behaviour: "removes the drill or course from the group (needs MANAGE); answers a `Message`",
    handle: ({ state, userId, path }) => removeDrill(state, userId, path.group, path.drill, "drill"),
  },
  removeDrillFromGroup_v2_0: {
    behaviour: "as `removeDrillFromGroup_v2_1`",
    handle: ({ state, userId, path }) => removeDrill(state, userId, path.group_id, path.drill_id, "drill_id"),
  },
  listGroupStaff_v2_1: {
    behaviour:
      "the group's own staff permissions (needs VIEW; organization staff are not listed), paged by `resultStart`/`resultSize`",
    handle: ({ state, userId, path, query }) => staffPage(state, userId, path.group, query),
  },
  updateGroupStaffPermissions_v2_1: {
    behaviour:
      "gives the user the permission in the form field `permission` (`MANAGE` or `VIEW`, a sandbox choice: the page puts it in the path), replacing the one held; answers the group's staff",
    handle: ({ state, userId, path, body }) => {
      const permission = permissionOf(
        typeof body?.permission === "string" ? body.permission : undefined,
        "permission",
      );
      return changeStaff(state, userId, path, { grant: permission });
    },
  },
  revokeGroupStaffPermission_v2_1: {
    behaviour:
      "removes the permission from the user (not the acting user's own: `not_permitted`); answers the remaining staff",
    handle: ({ state, userId, path }) =>
      changeStaff(state, userId, path, { revoke: permissionOf(path.permission, "permission") }),
  },
  searchGroups_v2_0: {
    behaviour:
      "the groups the acting user holds VIEW or MANAGE on, in creation order, each in the 2.0 shape `createGroup_v2_0` answers (`members` and `drills` as counts); no page of this search was found, so it takes no parameters and answers a bare list (sandbox choices, as the 2.0 organization list's page shows a bare list)",
    handle: ({ state, userId }) => ok(findGroups(state, userId, {}).map((group) => groupV20(state, group))),
  },
  listGroupStaff_v2_0: {
    behaviour:
      "the group's own staff permissions in the 2.0 GroupStaff shape (the group as an ID, `count` and `total`; needs VIEW; organization staff are not listed), as the 2.0 GroupStaff object page shows it; the page lists no errors, so an unknown group is `not_found` (404) and a missing permission `no_permission` (403), the documented defaults",
    handle: ({ state, userId, path }) => {
      groupFor(state, path.group_id, userId, "VIEW", "group_id");
      return ok(staffV20(state, path.group_id));
    },
  },
  revokeGroupStaff_v2_0: {
    behaviour:
      "changes nothing: the page (DELETE group staff) names the user and permission in the path (`/staff/{user_id}/{permission}`), and this 2.0 path carries neither and takes no parameter, so no staff user is ever specified: `unknown_group` (404), `not_permitted` (403; needs MANAGE), then `user_missing` (400, the page's identifier for no staff user; its status is not shown); `revokeGroupStaffPermission_v2_1` removes a permission",
    handle: ({ state, userId, path }) => {
      groupFor(state, path.group_id, userId, "MANAGE", "group_id");
      return refuse(
        { kind: "missing", field: "user" },
        "user: the 2.0 path names no staff user (the page puts it in /staff/{user_id}/{permission})",
        "user",
      );
    },
  },
  updateGroupStaffByUserIdAndPermission_v2_0: {
    behaviour:
      "the 2.0 PUT group staff page's path (an observed operation beside `updateGroupStaff_v2_0`): gives the user the permission in the path (`MANAGE` or `VIEW`), replacing the one held, as `updateGroupStaffPermissions_v2_1_1` does (needs MANAGE: `not_permitted`, 403); answers the group's staff in the 2.0 GroupStaff shape; the stored page's error table is cut after `not_permitted`, so an unknown group or user is `not_found` (404), the documented default",
    handle: ({ state, userId, path }) =>
      changeStaff(
        state,
        userId,
        { group: path.group_id, user: path.user_id },
        { grant: permissionOf(path.permission, "permission") },
        staffV20,
      ),
  },
  updateGroupStaff_v2_0: {
    behaviour:
      "gives the user in the form field `user` the permission in `permission` (sandbox choices: the page puts both in the path, which is `updateGroupStaffByUserIdAndPermission_v2_0`); answers the 2.0 staff",
    handle: ({ state, userId, path, body }) => {
      const user =
        typeof body?.user === "string"
          ? body.user
          : refuse({ kind: "missing", field: "user" }, 'form field "user": required', "user");
      const permission = permissionOf(
        typeof body?.permission === "string" ? body.permission : undefined,
        "permission",
      );
      return changeStaff(state, userId, { group: path.group_id, user }, { grant: permission }, staffV20);
    },
  },
});
