/**
 * The group invitations family. The sandbox creates an invitation where a group adds a member by an
 * email address no account has (`addGroupMember`); its token is the invitation's ID, named in that
 * answer since the sandbox sends no mail. Knowing the token is the only permission needed; accepting
 * makes the acting user a member.
 */
import type { Invitation } from "../domain/accounts.js";
import type { SandboxState } from "../domain/state.js";
import { actorV20 } from "./actors.js";
import { type Both, defineFamily, ok, refuse } from "./family.js";
import { groupV20, groupV21 } from "./groups.js";

/** The invitation a token names, while its group exists. */
function invitationFor(state: SandboxState, token: string): Invitation {
  const invitation = state.accounts.invitations.get(token);
  if (invitation !== undefined && state.org.groups.has(invitation.groupId)) return invitation;
  return refuse(
    { kind: "not_found", resource: "group_invitation" },
    `token: no group invitation ${JSON.stringify(token)}`,
    "token",
  );
}

function invitedV21(state: SandboxState, invitation: Invitation) {
  const user = invitation.userId === undefined ? undefined : state.user(invitation.userId);
  return user === undefined
    ? { emailAddress: invitation.emailAddress }
    : { id: user.id, emailAddress: invitation.emailAddress };
}

function invitationV21(state: SandboxState, invitation: Invitation) {
  const group = state.org.groups.get(invitation.groupId);
  return {
    status: invitation.status,
    user: invitedV21(state, invitation),
    ...(group === undefined ? {} : { group: groupV21(state, group) }),
  };
}

function invitationV20(state: SandboxState, invitation: Invitation) {
  const group = state.org.groups.get(invitation.groupId);
  const user = invitation.userId === undefined ? undefined : state.user(invitation.userId);
  return {
    status: invitation.status,
    user:
      user === undefined
        ? { type: "USER", emailAddress: invitation.emailAddress }
        : { ...actorV20(user), emailAddress: invitation.emailAddress },
    ...(group === undefined ? {} : { group: groupV20(state, group) }),
  };
}

/** Accepts or declines; `answered` is the refusal for an invitation that was answered already. */
function respond(
  state: SandboxState,
  userId: string,
  token: string,
  action: "ACCEPT" | "DECLINE",
  answered: (action: "ACCEPT" | "DECLINE") => string,
): Invitation {
  const invitation = invitationFor(state, token);
  if (invitation.status !== "PENDING") {
    refuse(
      { kind: "named", id: answered(action) },
      `token: the invitation was ${invitation.status.toLowerCase()} already`,
      "token",
    );
  }
  if (action === "ACCEPT" && !state.org.groupMembers.get(invitation.groupId, userId)) {
    state.org.groupMembers.set(invitation.groupId, userId, { joined: state.org.now() });
  }
  return (
    state.accounts.invitations.update(invitation.id, {
      status: action === "ACCEPT" ? "ACCEPTED" : "DECLINED",
      userId,
    }) ?? invitation
  );
}

/**
 * The invitations the acting user may see, in the order made: those to a group they hold a staff
 * permission on, and those sent to one of their addresses or answered by them.
 */
function visibleInvitations(state: SandboxState, userId: string): Invitation[] {
  const addresses = new Set(state.user(userId)?.emails.map((e) => e.toLowerCase()) ?? []);
  return state.accounts.invitations
    .all()
    .filter(
      (i) =>
        state.org.groups.has(i.groupId) &&
        (state.org.groupPermission(userId, i.groupId) !== undefined ||
          i.userId === userId ||
          addresses.has(i.emailAddress.toLowerCase())),
    );
}

/** Answers an invitation in 2.1's shape, which 2.1.1 answers too; a second answer is `invalid_invitation_status`. */
function respondV21({ state, userId, path, body }: Both<"respondToGroupInvitation">) {
  return ok(
    invitationV21(
      state,
      respond(state, userId, path.token, body.action, () => "invalid_invitation_status"),
    ),
  );
}

/** The invitations family; see the module comment. */
export const invitations = defineFamily("invitations", {
  getGroupInvitation_v2_0: {
    behaviour:
      "the invitation its token names (`PENDING` until answered, then `ACCEPTED` or `DECLINED`: sandbox names besides the page's `ACCEPTED`), with the invited address and the 2.0 group; no other permission needed; `unknown_group_invitation`",
    handle: ({ state, path }) => ok(invitationV20(state, invitationFor(state, path.token))),
  },
  listGroupInvitations_v2_0: {
    behaviour:
      "the invitations the acting user may see, each in the 2.0 GroupInvitation shape `getGroupInvitation_v2_0` answers, in the order made: those to groups the user holds VIEW or MANAGE on, and those sent to one of the user's addresses or answered by the user; no page of this list was found, so whose invitations it lists, that it takes no parameters and that it answers a bare list are the sandbox's choices",
    handle: ({ state, userId }) =>
      ok(visibleInvitations(state, userId).map((invitation) => invitationV20(state, invitation))),
  },
  getGroupInvitation_v2_1_1: {
    behaviour:
      "as `getGroupInvitation_v2_0`, in the 2.1 `GroupInvitation` shape 2.1.1 answers (the 2.1 group); `unknown_group_invitation` (404)",
    handle: ({ state, path }) => ok(invitationV21(state, invitationFor(state, path.token))),
  },
  respondToGroupInvitation_v2_1_1: {
    behaviour:
      "as `respondToGroupInvitation_v2_1` (the page's statuses: `invalid_invitation_status` 400, `unknown_group_invitation` 404)",
    handle: respondV21,
  },
  respondToGroupInvitation_v2_1: {
    behaviour:
      "`ACCEPT` makes the acting user a member of the group, `DECLINE` does not; answers the invitation; `unknown_group_invitation` (404), answered already: `invalid_invitation_status`",
    handle: respondV21,
  },
  respondToGroupInvitation_v2_0: {
    behaviour:
      "as `respondToGroupInvitation_v2_1`, answered in the 2.0 shape; answered already: `accept_failed` or `decline_failed`",
    handle: ({ state, userId, path, body }) =>
      ok(
        invitationV20(
          state,
          respond(state, userId, path.token, body.action, (a) =>
            a === "ACCEPT" ? "accept_failed" : "decline_failed",
          ),
        ),
      ),
  },
});
