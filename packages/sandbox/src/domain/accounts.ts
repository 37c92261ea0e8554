/**
 * The account side of users that the data file does not carry: profile fields (locale, time zone,
 * biography, …), the verification state of each email address, and group invitations. Names and
 * addresses stay on the user records of `OrganizationModel.users` (primary address first), so every
 * answer naming a user shows the current name and primary address.
 */
import { DATASET_DATE, type OrganizationModel } from "./organization.js";
import { Relation, Table } from "./records.js";
import type { User } from "./types.js";

/** Profile fields of a user; absent fields were never set. */
export interface Profile {
  /** The user's ID. */
  readonly id: string;
  readonly memberSince: string;
  readonly locale?: string;
  readonly timeZone?: string;
  readonly description?: string;
  readonly domicile?: string;
  readonly yearOfBirth?: number;
  readonly status?: string;
}

/** One email address of a user. */
export interface AddressState {
  readonly verified: boolean;
}

/** Where an invitation stands; the pages show only `ACCEPTED`, `PENDING` and `DECLINED` are sandbox names. */
export type InvitationStatus = "PENDING" | "ACCEPTED" | "DECLINED";

/** An invitation to join a group, addressed to an email address; its ID is the token. */
export interface Invitation {
  readonly id: string;
  readonly groupId: string;
  readonly emailAddress: string;
  readonly invitedBy: string;
  readonly created: string;
  readonly status: InvitationStatus;
  /** The user who answered it. */
  readonly userId?: string;
}

/** Profiles, address states and invitations over the organization model's users; see the module comment. */
export class AccountModel {
  readonly profiles = new Table<Profile>();
  /** user → email address, with whether it is verified. */
  readonly addresses = new Relation<AddressState>();
  readonly invitations = new Table<Invitation>();
  readonly #org: OrganizationModel;

  constructor(org: OrganizationModel) {
    this.#org = org;
    for (const user of org.users.all()) {
      // Data files have no dates or verification state: their users joined on the dataset date and
      // their addresses count as verified (a sandbox choice).
      this.profiles.put({ id: user.id, memberSince: DATASET_DATE });
      for (const address of user.emails) this.addresses.set(user.id, address, { verified: true });
    }
  }

  /** A user's profile (every user has one; users created later get theirs when created). */
  profile(userId: string): Profile {
    return this.profiles.get(userId) ?? this.profiles.put({ id: userId, memberSince: this.#org.now() });
  }

  /** The user owning an address, if any. */
  ownerOf(address: string): User | undefined {
    const wanted = address.toLowerCase();
    return this.#org.users.all().find((user) => user.emails.some((e) => e.toLowerCase() === wanted));
  }

  /** Creates a user managed by an organization, with one verified address. */
  createUser(name: string, address: string, organizationId: string): User {
    const user = this.#org.users.put({
      id: this.#org.users.newId("user"),
      name,
      emails: [address],
      thirdPartyIds: [],
      organizationId,
    });
    this.profiles.put({ id: user.id, memberSince: this.#org.now() });
    this.addresses.set(user.id, address, { verified: true });
    return user;
  }

  /** Adds an unverified address to a user; it becomes primary only when the user had none. */
  addAddress(userId: string, address: string): void {
    const user = this.#org.users.get(userId);
    if (user === undefined) return;
    this.addresses.set(userId, address, { verified: false });
    this.#org.users.update(userId, { emails: [...user.emails, address] });
  }

  /** Marks an address verified (the sandbox sends no mail: requesting verification verifies). */
  verify(userId: string, address: string): void {
    this.addresses.set(userId, address, { verified: true });
  }

  /** Removes an address from a user (the caller checks it is theirs and not primary). */
  removeAddress(userId: string, address: string): void {
    const user = this.#org.users.get(userId);
    if (user === undefined) return;
    this.addresses.delete(userId, address);
    this.#org.users.update(userId, { emails: user.emails.filter((e) => e !== address) });
  }

  /** Registers a third-party ID entry (`<third party>$<ID>`) for a user (the caller checks clashes). */
  addThirdPartyId(userId: string, entry: string): void {
    const user = this.#org.users.get(userId);
    if (user === undefined || user.thirdPartyIds.includes(entry)) return;
    this.#org.users.update(userId, { thirdPartyIds: [...user.thirdPartyIds, entry] });
  }

  /** Removes a third-party ID entry from a user. */
  removeThirdPartyId(userId: string, entry: string): void {
    const user = this.#org.users.get(userId);
    if (user === undefined) return;
    this.#org.users.update(userId, { thirdPartyIds: user.thirdPartyIds.filter((e) => e !== entry) });
  }

  /** Makes an address the primary one (first in the user's list). */
  setPrimary(userId: string, address: string): void {
    const user = this.#org.users.get(userId);
    if (user === undefined) return;
    this.#org.users.update(userId, { emails: [address, ...user.emails.filter((e) => e !== address)] });
  }

  /** The pending invitation of an address to a group, created when there is none yet. */
  invite(groupId: string, emailAddress: string, invitedBy: string): Invitation {
    const wanted = emailAddress.toLowerCase();
    const pending = this.invitations
      .all()
      .find(
        (i) => i.groupId === groupId && i.status === "PENDING" && i.emailAddress.toLowerCase() === wanted,
      );
    return (
      pending ??
      this.invitations.put({
        id: this.invitations.newId("invitation"),
        groupId,
        emailAddress,
        invitedBy,
        created: this.#org.now(),
        status: "PENDING",
      })
    );
  }
}
