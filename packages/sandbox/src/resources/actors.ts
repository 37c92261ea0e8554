/**
 * Users as the answers of each version show them (`Actor_v2_1`, `Actor_v2_0`), shared by every
 * family that names users (members, staff, reviewers), and the lookup of a user addressed in a path.
 */
import type { SandboxState } from "../domain/state.js";
import type { User } from "../domain/types.js";
import { refuse } from "./family.js";

/** A user in 2.1 answers. */
export function actorV21(user: User): { type: "USER"; id: string; name: string; emailAddress?: string } {
  const email = user.emails[0];
  return {
    type: "USER",
    id: user.id,
    name: user.name,
    ...(email === undefined ? {} : { emailAddress: email }),
  };
}

/** A user in 2.0 answers (the same fields; kept apart so the versions can differ). */
export function actorV20(user: User): { type: "USER"; id: string; name: string; emailAddress?: string } {
  return actorV21(user);
}

/** The user a path or field addresses by ID, email address or third-party ID; refused when unknown. */
export function addressedUser(state: SandboxState, reference: string, parameter: string): User {
  return (
    state.findUserBySubject(reference) ??
    refuse(
      { kind: "not_found", resource: "user" },
      `${parameter}: no user ${JSON.stringify(reference)}`,
      parameter,
    )
  );
}

/**
 * A third-party ID as 2.1.1 shows it: a data-file entry written `<third party>$<ID>` (the one-segment
 * form of 2.1.1's pages) names its third party; a plain entry records none.
 */
export function thirdPartyIdV211(entry: string): { thirdParty?: string; id: string } {
  const at = entry.indexOf("$");
  return at <= 0 ? { id: entry } : { thirdParty: entry.slice(0, at), id: entry.slice(at + 1) };
}

/**
 * The user a 2.1.1 path addresses by third party and the ID it issued: the user holding
 * `<thirdParty>$<id>`, or the plain entry `id` (whose third party the data file does not record).
 */
export function thirdPartyUser(state: SandboxState, thirdParty: string, id: string): User {
  const qualified = `${thirdParty}$${id}`;
  return (
    state.org.users.all().find((u) => u.thirdPartyIds.includes(qualified) || u.thirdPartyIds.includes(id)) ??
    refuse(
      { kind: "not_found", resource: "user" },
      `third_party_id: no user with ${JSON.stringify(id)} at ${JSON.stringify(thirdParty)}`,
      "third_party_id",
    )
  );
}
