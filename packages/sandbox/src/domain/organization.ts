/**
 * The organization side of the state as records with relations: users, organizations, groups, and the
 * links between them (organization staff, group members, group staff, group drillables). Resource
 * families read and change it; `SandboxState` answers its older questions (`group(id)`, access through
 * groups) from it too, so there is one state.
 */
import { Relation, Table } from "./records.js";
import type { Group, Organization, SandboxData, StaffGrant, StaffPermission, User } from "./types.js";

/** A group as the state keeps it; members, staff and drillables are relations. */
export interface GroupRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly organizationId: string;
  /** ISO 8601 date-times. */
  readonly created: string;
  readonly lastEdited: string;
  /** The catalog the group is restricted to (2.1 `catalogRestriction`), if any. */
  readonly catalogRestriction?: CatalogRestriction;
}

/**
 * A group's catalog restriction: only the catalog's content may be added, and members need access to
 * it (`REQUIRE`) or gain it by joining (`GRANT`).
 */
export interface CatalogRestriction {
  readonly catalogId: string;
  readonly mode: "REQUIRE" | "GRANT";
}

/** When a member joined a group. */
export interface Membership {
  readonly joined: string;
}

/** The state's clock, injectable so tests and data files give stable dates. */
export type Clock = () => Date;

/** The date groups from a data file carry as `created` (data files have no dates; a sandbox choice). */
export const DATASET_DATE = "2024-01-01T00:00:00.000Z";

/** Users, organizations and groups with their relations; see the module comment. */
export class OrganizationModel {
  readonly users = new Table<User>();
  readonly organizations = new Table<Organization>();
  readonly groups = new Table<GroupRecord>();
  /** organization → staff user, with the permission held on all its groups. */
  readonly organizationStaff = new Relation<StaffPermission>();
  /** group → member user. */
  readonly groupMembers = new Relation<Membership>();
  /** group → staff user, with the permission held on this group. */
  readonly groupStaff = new Relation<StaffPermission>();
  /** group → drill or course, with the date it was added. */
  readonly groupDrillables = new Relation<string>();
  readonly now: () => string;

  constructor(
    data: Pick<SandboxData, "organizations" | "users" | "groups">,
    clock: Clock = () => new Date(),
  ) {
    this.now = () => clock().toISOString();
    for (const user of data.users) this.users.put(user);
    for (const organization of data.organizations) {
      const { staff, ...rest } = organization;
      this.organizations.put(rest);
      for (const grant of staff ?? [])
        this.organizationStaff.set(organization.id, grant.userId, grant.permission);
    }
    for (const group of data.groups) {
      this.groups.put({
        id: group.id,
        name: group.name,
        description: group.description ?? "",
        organizationId: group.organizationId,
        created: DATASET_DATE,
        lastEdited: DATASET_DATE,
      });
      for (const userId of group.memberIds) this.groupMembers.set(group.id, userId, { joined: DATASET_DATE });
      for (const grant of group.staff ?? []) this.groupStaff.set(group.id, grant.userId, grant.permission);
      for (const id of group.drillableIds) this.groupDrillables.set(group.id, id, DATASET_DATE);
    }
  }

  /**
   * The permission a user holds on an organization's groups: its service account always `MANAGE`,
   * otherwise what its staff list says.
   */
  organizationPermission(userId: string, organizationId: string): StaffPermission | undefined {
    if (this.organizations.get(organizationId)?.serviceAccountId === userId) return "MANAGE";
    return this.organizationStaff.get(organizationId, userId);
  }

  /** The stronger of the user's organization and group permissions on a group. */
  groupPermission(userId: string, groupId: string): StaffPermission | undefined {
    const group = this.groups.get(groupId);
    if (!group) return undefined;
    const held = [
      this.organizationPermission(userId, group.organizationId),
      this.groupStaff.get(groupId, userId),
    ];
    if (held.includes("MANAGE")) return "MANAGE";
    return held.includes("VIEW") ? "VIEW" : undefined;
  }

  /** The organization whose groups a user may create: the first one they hold `MANAGE` on. */
  managedOrganization(userId: string): Organization | undefined {
    return this.organizations.all().find((o) => this.organizationPermission(userId, o.id) === "MANAGE");
  }

  /** Deletes a group and every link of it. */
  deleteGroup(groupId: string): boolean {
    this.groupMembers.deleteLeft(groupId);
    this.groupStaff.deleteLeft(groupId);
    this.groupDrillables.deleteLeft(groupId);
    return this.groups.delete(groupId);
  }

  /** A group in data-file form (for `snapshot()` and the older `group(id)` lookup). */
  groupData(groupId: string): Group | undefined {
    const group = this.groups.get(groupId);
    if (!group) return undefined;
    const staff: StaffGrant[] = this.groupStaff
      .rightsOf(groupId)
      .map(([userId, permission]) => ({ userId, permission }));
    return {
      id: group.id,
      name: group.name,
      description: group.description,
      organizationId: group.organizationId,
      memberIds: this.groupMembers.rightsOf(groupId).map(([userId]) => userId),
      drillableIds: this.groupDrillables.rightsOf(groupId).map(([id]) => id),
      ...(staff.length > 0 ? { staff } : {}),
    };
  }

  /** An organization in data-file form. */
  organizationData(organizationId: string): Organization | undefined {
    const organization = this.organizations.get(organizationId);
    if (!organization) return undefined;
    const staff = this.organizationStaff
      .rightsOf(organizationId)
      .map(([userId, permission]) => ({ userId, permission }));
    return staff.length > 0 ? { ...organization, staff } : organization;
  }
}
