/**
 * The users family: user accounts and their email addresses, in both versions over one state (user
 * records in `state.org.users`, profiles and address states in `state.accounts`). Users always reach
 * their own account; another account only a user holding MANAGE on the organization that manages it
 * (the service account always holds it on its own organization).
 *
 * 2.1.1 operations left unsimulated (501), each for what its page lacks: POST users (cut inside its
 * field table: no answer, no errors), GET user contract (names a Contract without a field), and GET
 * access by user or third-party ID (cut inside the parameter table). DELETE user is simulated: the
 * state removes the account with what is its alone (`SandboxState.deleteUser`).
 */
import type { SandboxState } from "../domain/state.js";
import type { User } from "../domain/types.js";
import type { PageErrorCause } from "../refusal.js";
import { actorV20, actorV21, thirdPartyIdV211, thirdPartyUser } from "./actors.js";
import { defineFamily, type OperationId, ok, type ResourceRequest, refuse } from "./family.js";
import { linkedOrganization, organizationV20 } from "./organizations.js";
import { pageByIndex } from "./paging.js";

/** An email address as the users family accepts one (also where a test ticket names its testee). */
export const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
/** A locale as the pages write it: `en` or `en_US` (also checked where a member account is set up). */
export const LOCALE = /^[a-z]{2}(_[A-Z]{2})?$/;
const COUNTRY = /^[A-Z]{2}$/;

/** Whether the acting user may read and change another user's account. */
function administers(state: SandboxState, actorId: string, user: User): boolean {
  if (user.id === actorId) return true;
  return (
    user.organizationId !== undefined &&
    state.org.organizationPermission(actorId, user.organizationId) === "MANAGE"
  );
}

/** A 2.1.1 user reference: `self` is the acting user. */
function selfOr(userId: string, reference: string): string {
  return reference === "self" ? userId : reference;
}

/** The user a path addresses (ID, email address or third-party ID), when the acting user may reach it. */
export function reachableUser(
  state: SandboxState,
  actorId: string,
  reference: string,
  parameter: string,
): User {
  const user =
    state.findUserBySubject(reference) ??
    refuse(
      { kind: "not_found", resource: "user" },
      `${parameter}: no user ${JSON.stringify(reference)}`,
      parameter,
    );
  return reached(state, actorId, user);
}

/** The user a path's `{user}` segment names (`self`: the acting user), when the acting user may reach it. */
function pathUser(state: SandboxState, userId: string, path: { readonly user: string }): User {
  return reachableUser(state, userId, selfOr(userId, path.user), "user");
}

/** The user, when the acting user may reach it (their own account or one they administer). */
function reached(state: SandboxState, actorId: string, user: User): User {
  if (administers(state, actorId, user)) return user;
  return refuse(
    { kind: "no_permission", resource: "user" },
    `the acting user ${JSON.stringify(actorId)} may not reach user ${JSON.stringify(user.id)}: only their own account, or accounts of an organization they hold MANAGE on`,
  );
}

function organizationOf(state: SandboxState, user: User) {
  const organization = linkedOrganization(state, user.id);
  return organization === undefined ? {} : { organization: organizationV20(organization) };
}

/** A user in 2.1 and 2.1.1 answers (`User_v2_1`). */
export function userV21(state: SandboxState, user: User) {
  const profile = state.accounts.profile(user.id);
  const { id: _id, memberSince, ...fields } = profile;
  return {
    ...actorV21(user),
    ...fields,
    created: memberSince,
    memberSince,
    ...(user.thirdPartyIds.length === 0
      ? {}
      : {
          // An entry written `<third party>$<ID>` names its third party; a plain one records none,
          // and the sandbox answers it as issued by `sandbox`.
          thirdPartyIds: user.thirdPartyIds.map((entry) => ({
            thirdParty: "sandbox",
            ...thirdPartyIdV211(entry),
          })),
        }),
    ...organizationOf(state, user),
  };
}

function userV20(state: SandboxState, user: User) {
  const profile = state.accounts.profile(user.id);
  const email = user.emails[0];
  return {
    type: "USER",
    id: user.id,
    name: user.name,
    memberSince: profile.memberSince,
    ...(email === undefined ? {} : { emailAddress: email }),
    ...(profile.description === undefined
      ? {}
      : { biography: profile.description, description: profile.description }),
    ...(profile.locale === undefined ? {} : { locale: profile.locale }),
    ...(profile.timeZone === undefined ? {} : { timeZone: profile.timeZone }),
    ...organizationOf(state, user),
  };
}

/** A changed profile text field: optional, but not blank when sent; `check` is its format. */
function changed(
  value: unknown,
  field: string,
  check?: RegExp | ((v: string) => boolean),
  cause = field,
): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const fits = check === undefined ? true : typeof check === "function" ? check(text) : check.test(text);
  if (text !== "" && fits) return text;
  return refuse(
    { kind: "invalid", field: cause },
    `form field "${field}": ${text === "" ? "must not be blank" : `${JSON.stringify(text)} is not valid`}`,
    field,
  );
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

interface UserChange {
  readonly name?: unknown;
  readonly locale?: unknown;
  readonly timeZone?: unknown;
  readonly description?: unknown;
  readonly domicile?: unknown;
  readonly yearOfBirth?: unknown;
  readonly status?: unknown;
}

/**
 * Changes a user's profile. `nameCause` is the field a refused name is named by: `name`, or
 * `realName` on the deprecated POST user page (`invalid_real_name`).
 */
function updateUser(
  state: SandboxState,
  userId: string,
  body: UserChange | undefined,
  nameCause = "name",
): User {
  const change = body ?? {};
  const name = changed(change.name, "name", undefined, nameCause);
  const yearOfBirth = change.yearOfBirth;
  if (
    yearOfBirth !== undefined &&
    (typeof yearOfBirth !== "number" ||
      !Number.isInteger(yearOfBirth) ||
      yearOfBirth < 1900 ||
      yearOfBirth > new Date().getUTCFullYear())
  ) {
    refuse(
      { kind: "invalid", field: "yearOfBirth" },
      `form field "yearOfBirth": must be a year from 1900 to this year (got ${JSON.stringify(yearOfBirth)})`,
      "yearOfBirth",
    );
  }
  const fields = {
    locale: changed(change.locale, "locale", LOCALE),
    timeZone: changed(change.timeZone, "timeZone", isTimeZone),
    // A biography may be emptied.
    description: change.description === undefined ? undefined : String(change.description),
    domicile: changed(change.domicile, "domicile", COUNTRY),
    status: changed(change.status, "status"),
    yearOfBirth: yearOfBirth as number | undefined,
  };
  const profile = state.accounts.profile(userId);
  state.accounts.profiles.put({
    ...profile,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  });
  if (name !== undefined) state.org.users.update(userId, { name });
  return state.user(userId) ?? refuse({ kind: "not_found", resource: "user" }, "user: gone");
}

function visibleUsers(state: SandboxState, actorId: string, query: string | undefined): User[] {
  const needle = query?.trim().toLowerCase();
  return state.org.users.all().filter((user) => {
    if (!administers(state, actorId, user)) return false;
    return !needle || [user.name, ...user.emails].some((t) => t.toLowerCase().includes(needle));
  });
}

// ---- email addresses ---------------------------------------------------------------------------

function addressOf(value: string, field: string): string {
  const address = value.trim();
  if (EMAIL.test(address)) return address;
  return refuse(
    { kind: "invalid", field: "emailAddress" },
    `${field}: ${JSON.stringify(value)} is not an email address`,
    field,
  );
}

/** One address of a user as `UserEmailAddress` (the same fields in both versions). */
function userAddress(state: SandboxState, user: User, address: string) {
  const verified = state.accounts.addresses.get(user.id, address)?.verified ?? false;
  return { emailAddress: { address, verified }, primary: user.emails[0] === address };
}

function userAddresses(state: SandboxState, user: User) {
  return {
    total: user.emails.length,
    userEmailAddresses: user.emails.map((address) => userAddress(state, user, address)),
  };
}

/** The user's own spelling of an address given in any case, or `undefined` when not theirs. */
function linked(user: User, address: string): string | undefined {
  const wanted = address.trim().toLowerCase();
  return user.emails.find((e) => e.toLowerCase() === wanted);
}

/** The user's address as written in their record, or the refusal the page names for one not theirs. */
function linkedOrRefuse(user: User, value: string, cause: PageErrorCause): string {
  return (
    linked(user, value) ??
    refuse(
      cause,
      `email: ${JSON.stringify(value)} is not an address of user ${JSON.stringify(user.id)}`,
      "email",
    )
  );
}

/**
 * The address in the path added to the user in the path (`self` for the acting user), as the 2.1.1 page
 * and the 2.0 page (at its own path) both say.
 */
function addPathAddress({
  state,
  userId,
  path,
}: ResourceRequest<"addEmailAddress_v2_1_1"> | ResourceRequest<"updateEmailAddressByEmail_v2_0">) {
  return ok(addAddress(state, pathUser(state, userId, path), path.email, "email"));
}

function addAddress(state: SandboxState, user: User, value: string, field: string) {
  const address = addressOf(value, field);
  const owner = state.accounts.ownerOf(address);
  if (owner !== undefined) {
    refuse(
      { kind: "named", id: "email_address_in_use" },
      `${field}: ${JSON.stringify(address)} belongs to ${owner.id === user.id ? "this" : "another"} account already`,
      field,
    );
  }
  state.accounts.addAddress(user.id, address);
  const updated = state.user(user.id) ?? user;
  return userAddress(state, updated, address);
}

function setPrimary(state: SandboxState, user: User, value: string) {
  const address = linkedOrRefuse(user, value, { kind: "named", id: "email_not_linked" });
  if (!state.accounts.addresses.get(user.id, address)?.verified) {
    refuse(
      { kind: "named", id: "not_verified" },
      `email: ${JSON.stringify(address)} is not verified yet; request verification first`,
      "email",
    );
  }
  state.accounts.setPrimary(user.id, address);
  return userAddresses(state, state.user(user.id) ?? user);
}

function requestVerification(state: SandboxState, user: User, value: string) {
  if (!EMAIL.test(value.trim())) {
    refuse(
      { kind: "named", id: "invalid_email" },
      `email: ${JSON.stringify(value)} is not an email address`,
      "email",
    );
  }
  const address = linkedOrRefuse(user, value, { kind: "named", id: "email_not_linked_to_account" });
  state.accounts.verify(user.id, address);
  return { status: 204 };
}

function oneAddress(state: SandboxState, user: User, value: string) {
  const address = linkedOrRefuse(user, value, { kind: "not_found", resource: "email_address" });
  return userAddress(state, user, address);
}

function removeAddress(state: SandboxState, user: User, value: string) {
  const address = linkedOrRefuse(user, addressOf(value, "email"), { kind: "named", id: "not_owner" });
  if (user.emails[0] === address) {
    refuse(
      { kind: "named", id: "cannot_remove_primary_email" },
      `email: ${JSON.stringify(address)} is the primary address; make another address primary first`,
      "email",
    );
  }
  state.accounts.removeAddress(user.id, address);
  return { status: 204 };
}

/** Verifies a user's address with the page's code: the sandbox mails none, so any code is accepted. */
function verifyWithCode(state: SandboxState, user: User, value: string) {
  const address = linkedOrRefuse(user, value, { kind: "not_found", resource: "email_address" });
  state.accounts.verify(user.id, address);
  return { status: 204 };
}

// ---- third-party IDs (2.1.1) -------------------------------------------------------------------

/** A third-party ID a path names, as the user record's entry `<third party>$<ID>` and its parts. */
interface NamedThirdPartyId {
  readonly entry: string;
  readonly thirdParty: string;
  readonly id: string;
}

/** The one-segment form `<third party>$<ID>`; anything else is `invalid_third_party_id`. */
function oneSegment(value: string): NamedThirdPartyId {
  const { thirdParty, id } = thirdPartyIdV211(value);
  if (thirdParty !== undefined && id !== "") return { entry: value, thirdParty, id };
  return refuse(
    { kind: "invalid", field: "thirdPartyId" },
    `third_party_id: ${JSON.stringify(value)} is not written <third party>$<ID>`,
    "third_party_id",
  );
}

/** The two-segment form; a third party or ID with `$` in it cannot be told apart: refused. */
function twoSegments(thirdParty: string, id: string): NamedThirdPartyId {
  if (thirdParty === "" || thirdParty.includes("$")) {
    refuse(
      { kind: "invalid", field: "thirdParty" },
      `third_party: ${JSON.stringify(thirdParty)}`,
      "third_party",
    );
  }
  if (id === "" || id.includes("$")) {
    refuse(
      { kind: "invalid", field: "thirdPartyId" },
      `third_party_id: ${JSON.stringify(id)}`,
      "third_party_id",
    );
  }
  return { entry: `${thirdParty}$${id}`, thirdParty, id };
}

/** Whether a user's entry names the ID: the entry itself, or a plain data-file entry (no third party). */
function holds(user: User, named: NamedThirdPartyId): string | undefined {
  return user.thirdPartyIds.find((e) => e === named.entry || e === named.id);
}

/** The user's entry for the ID, or `unknown_third_party_id`. */
function heldEntry(user: User, named: NamedThirdPartyId): string {
  return (
    holds(user, named) ??
    refuse(
      { kind: "named", id: "unknown_third_party_id" },
      `third_party_id: user ${JSON.stringify(user.id)} holds no ${JSON.stringify(named.entry)}`,
      "third_party_id",
    )
  );
}

/**
 * The user, when the acting user administers the organization managing it: the PUT and DELETE
 * third-party ID pages allow only that, not the account holder (`no_access`).
 */
function administered(state: SandboxState, actorId: string, user: User): User {
  const orgId = user.organizationId;
  if (orgId !== undefined && state.org.organizationPermission(actorId, orgId) === "MANAGE") return user;
  return refuse(
    { kind: "no_permission", resource: "user" },
    `the acting user ${JSON.stringify(actorId)} holds no MANAGE on an organization managing user ${JSON.stringify(user.id)}`,
  );
}

/**
 * Registers a third-party ID. It names its user for the token exchange, so one another user holds
 * already is `third_party_id_in_use`; the page allows one ID per third party: `third_party_already_assigned`.
 */
function addThirdPartyId(state: SandboxState, user: User, named: NamedThirdPartyId) {
  const other = state.org.users.all().find((u) => u.id !== user.id && holds(u, named) !== undefined);
  if (other !== undefined) {
    refuse(
      { kind: "named", id: "third_party_id_in_use" },
      `third_party_id: ${JSON.stringify(named.entry)} names another user already`,
      "third_party_id",
    );
  }
  if (user.thirdPartyIds.some((e) => e.startsWith(`${named.thirdParty}$`))) {
    refuse(
      { kind: "named", id: "third_party_already_assigned" },
      `third_party_id: user ${JSON.stringify(user.id)} holds an ID of ${JSON.stringify(named.thirdParty)} already`,
      "third_party_id",
    );
  }
  state.accounts.addThirdPartyId(user.id, named.entry);
  return { status: 204 };
}

/** What the third-party ID handlers read of a request. */
interface ThirdPartyRequest {
  readonly state: SandboxState;
  readonly userId: string;
  readonly path: { readonly user: string };
}

/** GET third-party ID: the acting user's own account or one they administer. */
const readThirdPartyId = ({ state, userId, path }: ThirdPartyRequest, named: NamedThirdPartyId) =>
  ok(thirdPartyIdV211(heldEntry(pathUser(state, userId, path), named)));

/** PUT third-party ID. */
const putThirdPartyId = ({ state, userId, path }: ThirdPartyRequest, named: NamedThirdPartyId) =>
  addThirdPartyId(state, administered(state, userId, pathUser(state, userId, path)), named);

/** DELETE third-party ID. */
function deleteThirdPartyId({ state, userId, path }: ThirdPartyRequest, named: NamedThirdPartyId) {
  const user = pathUser(state, userId, path);
  const entry = heldEntry(administered(state, userId, user), named);
  state.accounts.removeThirdPartyId(user.id, entry);
  return { status: 204 };
}

// ---- deleting an account (2.1.1) ---------------------------------------------------------------

/**
 * Whether the acting user may delete the account, by the 2.1.1 DELETE user page's rules: their own
 * account only when no organization manages it (`cannot_delete_self`); another account only when it is
 * managed by the caller's organization (`account_not_managed_by_caller`) and the caller administers it
 * with MANAGE, the sandbox's MANAGE_USERS (`access_denied`).
 */
function checkDeletable(state: SandboxState, actorId: string, user: User): void {
  const orgId = user.organizationId;
  if (user.id === actorId && orgId !== undefined) {
    refuse(
      { kind: "named", id: "cannot_delete_self" },
      `user ${JSON.stringify(user.id)} is the acting user's own account, managed by organization ${JSON.stringify(orgId)}`,
    );
  }
  const serving = state.org.organizations.all().find((o) => o.serviceAccountId === user.id);
  if (serving !== undefined) {
    // Tokens of the organization are issued to its service account: the sandbox keeps it.
    refuse(
      { kind: "named", id: "access_denied" },
      `user ${JSON.stringify(user.id)} is the service account of organization ${JSON.stringify(serving.id)}, which the sandbox does not delete`,
    );
  }
  if (user.id === actorId) return;
  const held = orgId === undefined ? undefined : state.org.organizationPermission(actorId, orgId);
  const ofCallersOrganization =
    orgId !== undefined && (held !== undefined || state.user(actorId)?.organizationId === orgId);
  if (!ofCallersOrganization) {
    refuse(
      { kind: "named", id: "account_not_managed_by_caller" },
      `user ${JSON.stringify(user.id)} is ${orgId === undefined ? "managed by no organization" : `managed by organization ${JSON.stringify(orgId)}, not the acting user's`}`,
    );
  }
  if (held !== "MANAGE") {
    refuse(
      { kind: "named", id: "access_denied" },
      `the acting user ${JSON.stringify(actorId)} holds no MANAGE on organization ${JSON.stringify(orgId)}, which manages user ${JSON.stringify(user.id)}`,
    );
  }
}

/**
 * Deletes a user account (the 2.1.1 DELETE user page): with its group memberships and practice
 * results; an account on the staff of a group only with `skipValidation`. Answers 204, the users
 * family's rule for an answer the page does not show.
 */
function deleteAccount(state: SandboxState, actorId: string, reference: string, skipValidation?: boolean) {
  const user =
    state.findUserBySubject(selfOr(actorId, reference)) ??
    refuse({ kind: "not_found", resource: "user" }, `user: no user ${JSON.stringify(reference)}`, "user");
  checkDeletable(state, actorId, user);
  const managed = state.org.groupStaff.leftsOf(user.id).map(([groupId]) => groupId);
  if (managed.length > 0 && skipValidation !== true) {
    refuse(
      { kind: "named", id: "account_is_group_manager" },
      `user ${JSON.stringify(user.id)} is on the staff of groups ${managed.map((g) => JSON.stringify(g)).join(", ")}: remove that access first, or send skipValidation=true`,
    );
  }
  state.deleteUser(user.id);
  return { status: 204 };
}

/**
 * What a handler that serves both versions reads of a request: the 2.1 operation's path, whose segments
 * the 2.0 operation names alike.
 */
type BothVersions<Id extends OperationId> = Pick<ResourceRequest<Id>, "state" | "userId" | "path">;

/** `listEmailAddresses` of either version. */
const listAddresses = ({ state, userId, path }: BothVersions<"listEmailAddresses_v2_1">) =>
  ok(userAddresses(state, reachableUser(state, userId, path.user, "user")));

/** `setPrimaryEmailAddress` of either version. */
const makePrimary = ({ state, userId, path }: BothVersions<"setPrimaryEmailAddress_v2_1">) =>
  ok(setPrimary(state, reachableUser(state, userId, path.user, "user"), path.email));

/** `requestEmailVerification` of either version. */
const askVerification = ({ state, userId, path }: BothVersions<"requestEmailVerification_v2_1">) =>
  requestVerification(state, reachableUser(state, userId, path.user, "user"), path.email);

/** The users family; see the module comment. */
export const users = defineFamily("users", {
  getOwnUser_v2_1_1: {
    behaviour: "as `getOwnUser_v2_1` (2.1.1 answers the 2.1 `User`)",
    handle: ({ state, userId }) => ok(userV21(state, reachableUser(state, userId, userId, "user"))),
  },
  getUser_v2_1_1: {
    behaviour: "as `getUser_v2_1`; `self` names the acting user",
    handle: ({ state, userId, path }) => ok(userV21(state, pathUser(state, userId, path))),
  },
  updateOwnUser_v2_1_1: {
    behaviour: "as `updateOwnUser_v2_1` (the same form and answer)",
    handle: ({ state, userId, body }) => ok(userV21(state, updateUser(state, userId, body))),
  },
  getUserByThirdPartyId_v2_1_1: {
    behaviour:
      "the user holding the third-party ID (a data-file entry `<third_party>$<third_party_id>`, or a plain `<third_party_id>`, whose third party is not recorded), when the acting user may reach it as in `getUser_v2_1`; `nonexistent_user`, `no_access`",
    handle: ({ state, userId, path }) =>
      ok(
        userV21(state, reached(state, userId, thirdPartyUser(state, path.third_party, path.third_party_id))),
      ),
  },
  listThirdPartyIds_v2_1_1: {
    behaviour:
      "the user's third-party IDs (by ID, `self`, email address or third-party ID) as a bare list: an entry `<third party>$<ID>` as `thirdParty` and `id`, a plain entry as `id` alone (the data file records no third party for it); `nonexistent_user` 404, `no_access` 403",
    handle: ({ state, userId, path }) =>
      ok(pathUser(state, userId, path).thirdPartyIds.map(thirdPartyIdV211)),
  },
  updateUser_v2_1_1: {
    behaviour:
      "as `updateOwnUser_v2_1_1` for the user the path names (ID, `self`, email address or `<third party>$<ID>`): their own account or one of an organization they hold MANAGE on (PUT user page); answers the 2.1 `User`. The page is cut before its error table: unknown user `not_found` 404, another account `no_permission` 403 (the sandbox's identifiers)",
    handle: ({ state, userId, path, body }) => {
      const user = pathUser(state, userId, path);
      return ok(userV21(state, updateUser(state, user.id, body)));
    },
  },
  updateOwnUserByPost_v2_1_1: {
    behaviour:
      "changes the acting user's `name`, `locale`, `timeZone`, `description` as `updateOwnUser_v2_1_1` does and answers the empty object the deprecated POST user page shows; `invalid_real_name`, `invalid_locale`, `invalid_time_zone` (the page gives no statuses: 400)",
    handle: ({ state, userId, body }) => {
      updateUser(state, userId, body, "realName");
      return ok({});
    },
  },
  deleteUser_v2_1_1: {
    behaviour:
      "deletes the account the path names (ID, `self`, email address or `<third party>$<ID>`) as the 2.1.1 DELETE user page says: the acting user's own account only when no organization manages it (else `cannot_delete_self` 400); another account only when it is managed by the acting user's organization (one they are on the staff of or belong to; else `account_not_managed_by_caller` 401) and they hold MANAGE on it, the sandbox's MANAGE_USERS (else `access_denied` 401); an account on the staff of a group is `account_is_group_manager` (400) unless `skipValidation=true`; unknown `not_found` (404). With the account go its group memberships and practice results, as the page says, and, the sandbox's choice, everything else that is the account's alone: its staff places, catalog access, repertoire, test results, practice preferences, review dates and push devices; drills, courses and tests it made, reviews and client apps stay. An organization's service account is never deleted (`access_denied`: the sandbox's choice, its tokens depend on it). Answers 204 (the page shows no answer: the users family's rule)",
    handle: ({ state, userId, path, query }) =>
      deleteAccount(state, userId, path.user, query?.skipValidation),
  },
  removeEmailAddress_v2_1_1: {
    behaviour:
      "removes an address (any case) from the user (`self`, own account or one administered) and answers 204 (DELETE user email address page); the primary address: `cannot_remove_primary_email` 400; not the user's: `not_owner` 400; not an address: `invalid_email_address` 400; another account: `no_access` 403",
    handle: ({ state, userId, path }) => removeAddress(state, pathUser(state, userId, path), path.email),
  },
  verifyEmailAddress_v2_1_1: {
    behaviour:
      "marks the user's address verified and answers 204 (PUT verify page). The sandbox mails no code, so it accepts any `nonce` and never answers `email_not_verified` (its choice); not the user's address or no such user: `not_found` 404; another account: `not_permitted` 403",
    handle: ({ state, userId, path }) => verifyWithCode(state, pathUser(state, userId, path), path.email),
  },
  getThirdPartyId_v2_1_1: {
    behaviour:
      "the user's third-party ID `<third party>$<ID>` (one segment) as `thirdParty` and `id`; a plain data-file entry equal to the ID matches too, answered as `id` alone (GET third-party ID page). Own account or one administered; `nonexistent_user` 404, `no_access` 403, not written `<third party>$<ID>`: `invalid_third_party_id` 400, not held: `unknown_third_party_id` 404",
    handle: (request) => readThirdPartyId(request, oneSegment(request.path.third_party_id)),
  },
  getThirdPartyIdByParts_v2_1_1: {
    behaviour: "as `getThirdPartyId_v2_1_1`, the ID given as two segments",
    handle: (request) =>
      readThirdPartyId(request, twoSegments(request.path.third_party, request.path.third_party_id)),
  },
  addThirdPartyId_v2_1_1: {
    behaviour:
      "registers the third-party ID `<third party>$<ID>` for the user and answers 204 (PUT third-party ID page); it then names the user in 2.1.1's third-party paths and as a token subject. Only a user holding MANAGE on the organization managing the account (not the holder): `no_access` 403; held by another user (it would name two): `third_party_id_in_use` 409; an ID of that third party held already: `third_party_already_assigned` 409; `nonexistent_user` 404, `invalid_third_party_id` 400",
    handle: (request) => putThirdPartyId(request, oneSegment(request.path.third_party_id)),
  },
  addThirdPartyIdByParts_v2_1_1: {
    behaviour:
      "as `addThirdPartyId_v2_1_1`, the ID given as two segments; a segment holding `$`: `invalid_third_party` or `invalid_third_party_id` 400",
    handle: (request) =>
      putThirdPartyId(request, twoSegments(request.path.third_party, request.path.third_party_id)),
  },
  removeThirdPartyId_v2_1_1: {
    behaviour:
      "removes the user's third-party ID and answers 204 (DELETE third-party ID page); it no longer names the user. Only a user holding MANAGE on the organization managing the account: `no_access` 403; not held: `unknown_third_party_id` 404; `nonexistent_user` 404, `invalid_third_party_id` 400",
    handle: (request) => deleteThirdPartyId(request, oneSegment(request.path.third_party_id)),
  },
  removeThirdPartyIdByParts_v2_1_1: {
    behaviour: "as `removeThirdPartyId_v2_1_1`, the ID given as two segments",
    handle: (request) =>
      deleteThirdPartyId(request, twoSegments(request.path.third_party, request.path.third_party_id)),
  },
  listEmailAddresses_v2_1_1: {
    behaviour:
      "as `listEmailAddresses_v2_1`; `self` names the acting user; the page's statuses: `nonexistent_user` 404, `no_access` 403",
    handle: ({ state, userId, path }) => ok(userAddresses(state, pathUser(state, userId, path))),
  },
  getEmailAddress_v2_1_1: {
    behaviour:
      "one address of the user (`self` names the acting user; any case) as the `EmailAddress` the 2.1.1 page answers (`address`, `verified`); not the user's: `not_found` (404); `nonexistent_user` 404, `no_access` 403",
    handle: ({ state, userId, path }) =>
      ok(oneAddress(state, pathUser(state, userId, path), path.email).emailAddress),
  },
  addEmailAddress_v2_1_1: {
    behaviour: "as `addEmailAddress_v2_1`; `self` names the acting user",
    handle: addPathAddress,
  },
  requestEmailVerification_v2_1_1: {
    behaviour:
      "as `requestEmailVerification_v2_1` (answers 204, the address verified at once); `self` names the acting user",
    handle: ({ state, userId, path }) =>
      requestVerification(state, pathUser(state, userId, path), path.email),
  },
  getOwnUser_v2_1: {
    behaviour:
      "the acting user's account: name, primary `emailAddress`, profile fields set so far, `memberSince` (data-file users: the dataset date), `organization`",
    handle: ({ state, userId }) => ok(userV21(state, reachableUser(state, userId, userId, "user"))),
  },
  getOwnUser_v2_0: {
    behaviour: "as `getOwnUser_v2_1`, in the 2.0 shape (`biography`, 2.0 `organization`)",
    handle: ({ state, userId }) => ok(userV20(state, reachableUser(state, userId, userId, "user"))),
  },
  getUser_v2_1: {
    behaviour:
      "the user by ID, email address or third-party ID: the acting user's own account, or one of an organization they hold MANAGE on; `nonexistent_user`, `no_access`",
    handle: ({ state, userId, path }) => ok(userV21(state, reachableUser(state, userId, path.user, "user"))),
  },
  getUser_v2_0: {
    behaviour: "as `getUser_v2_1`, in the 2.0 shape",
    handle: ({ state, userId, path }) =>
      ok(userV20(state, reachableUser(state, userId, path.user_id, "user_id"))),
  },
  updateOwnUser_v2_1: {
    behaviour:
      "changes the fields sent (`name`, `locale` like `en` or `en_US`, IANA `timeZone`, `description`, `domicile` two capitals, `yearOfBirth` 1900 to this year, `status`) and answers the user; a bad value `invalid_<field>` (the page's error table is not shown: sandbox identifiers)",
    handle: ({ state, userId, body }) => ok(userV21(state, updateUser(state, userId, body))),
  },
  updateOwnUser_v2_0: {
    behaviour:
      "as `updateOwnUser_v2_1`, answered in the 2.0 shape (no `yearOfBirth`, `domicile` or `status` there: 2.1 answers them over the same state)",
    handle: ({ state, userId, body }) => ok(userV20(state, updateUser(state, userId, body))),
  },
  searchUsers_v2_0: {
    behaviour:
      "the users the acting user may reach (themselves and the users of organizations they hold MANAGE on), `query` on names and addresses (case-insensitive), paged by `resultStart`/`resultSize` (the page's multiples-of-ten rule is not enforced)",
    handle: ({ state, userId, query }) => {
      const page = pageByIndex(visibleUsers(state, userId, query.query), query);
      return ok({ total: page.total, users: page.items.map((user) => actorV20(user)) });
    },
  },
  listEmailAddresses_v2_1: {
    behaviour:
      "the user's addresses, primary first, each with `verified` and `primary`; `nonexistent_user`, `no_access`",
    handle: listAddresses,
  },
  listEmailAddresses_v2_0: {
    behaviour: "as `listEmailAddresses_v2_1`",
    handle: listAddresses,
  },
  getEmailAddress_v2_1: {
    behaviour:
      "one address of the user (any case) as `UserEmailAddress` (`emailAddress` with `address` and `verified`, `primary`); not the user's: `not_found`",
    handle: ({ state, userId, path }) =>
      ok(oneAddress(state, reachableUser(state, userId, path.user, "user"), path.email)),
  },
  getEmailAddress_v2_0: {
    behaviour:
      "the path has no address segment, so the sandbox answers the primary address as a 2.0 `UserEmailAddress`; a user without addresses: `not_found`",
    handle: ({ state, userId, path }) => {
      const user = reachableUser(state, userId, path.user, "user");
      const primary =
        user.emails[0] ??
        refuse(
          { kind: "not_found", resource: "email_address" },
          `user ${JSON.stringify(user.id)} has no email address`,
        );
      return ok(userAddress(state, user, primary));
    },
  },
  addEmailAddress_v2_1: {
    behaviour:
      "adds the address to the user's account, unverified (primary only when it is the account's first); answers it; `invalid_email_address`, `email_address_in_use` (any account, this one too)",
    handle: ({ state, userId, path }) =>
      ok(addAddress(state, reachableUser(state, userId, path.user, "user"), path.email, "email")),
  },
  updateEmailAddressByEmail_v2_0: {
    behaviour:
      "the 2.0 PUT user email-address page's path (an observed operation beside `updateEmailAddress_v2_0`): adds the address in the path as `addEmailAddress_v2_1_1` does (`self` names the acting user, as the page says) and answers it with 200; the page's codes: `invalid_email_address` (400), `email_address_in_use` (409, any account, this one too), `nonexistent_user` (404), `no_access` (403)",
    handle: addPathAddress,
  },
  updateEmailAddress_v2_0: {
    behaviour:
      "the path has no address segment, so the sandbox takes the address from the form field `emailAddress` (absent: `missing_input`) and adds it as `addEmailAddress_v2_1` does; the page's path, with the address, is `updateEmailAddressByEmail_v2_0`",
    handle: ({ state, userId, path, body }) => {
      const user = reachableUser(state, userId, path.user, "user");
      const value =
        typeof body?.emailAddress === "string"
          ? body.emailAddress
          : refuse(
              { kind: "named", id: "missing_input" },
              'form field "emailAddress": required',
              "emailAddress",
            );
      return ok(addAddress(state, user, value, "emailAddress"));
    },
  },
  setPrimaryEmailAddress_v2_1: {
    behaviour:
      "makes a verified address of the user primary and answers all addresses; not the user's: `email_not_linked`; unverified: `not_verified`",
    handle: makePrimary,
  },
  setPrimaryEmailAddress_v2_0: {
    behaviour: "as `setPrimaryEmailAddress_v2_1`",
    handle: makePrimary,
  },
  requestEmailVerification_v2_1: {
    behaviour:
      "answers 204; the sandbox sends no mail, so requesting verification marks the address verified at once; `invalid_email`, `email_not_linked_to_account`, unknown user `not_found`, `not_permitted`",
    handle: askVerification,
  },
  requestEmailVerification_v2_0: {
    behaviour: "as `requestEmailVerification_v2_1`",
    handle: askVerification,
  },
});
