import { describe, expect, it } from "vitest";
import { client, EVENING_CLASS, expectRefused, SMALL_DATA, start, tokenFor } from "../support/helpers.js";

const DATA = {
  ...SMALL_DATA,
  groups: [EVENING_CLASS],
};

/** Invites an address without an account to the class; answers the token the Message names. */
async function invite(sa: ReturnType<typeof client>, address: string): Promise<string> {
  const added = await sa("PUT", `/api/2.1/group/g-class/members/${encodeURIComponent(address)}`);
  expect(added.status).toBe(200);
  const token = /invitation (\S+) to Class/.exec((added.body as { description: string }).description)?.[1];
  expect(token, "the answer names the invitation's token").toBeDefined();
  return token as string;
}

describe("group invitations (flow)", () => {
  it("invites an address without an account, shows the invitation, and accepting makes a member", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    const token = await invite(sa, "newcomer@academy.test");
    // Inviting the same address again keeps the one pending invitation.
    expect(await invite(sa, "newcomer@academy.test")).toBe(token);

    const members = await sa("GET", "/api/2.1/group/g-class/members");
    expect(members.body).toMatchObject({ counts: { members: 1, invitees: 1 } });

    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    const shown = await bob("GET", `/api/2/group-invitation/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      status: "PENDING",
      user: { emailAddress: "newcomer@academy.test" },
      group: { id: "g-class", name: "Class", members: 1 },
    });

    const accepted = await bob("PUT", `/api/2.1/group-invitation/${token}`, { body: { action: "ACCEPT" } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      status: "ACCEPTED",
      user: { id: "u-bob" },
      group: { id: "g-class", counts: { members: 2 } },
    });
    const after = await sa("GET", "/api/2.1/group/g-class/members");
    expect(after.body).toMatchObject({ counts: { members: 2, invitees: 0 } });
    expect((after.body as { members: { member: { id: string } }[] }).members.map((m) => m.member.id)).toEqual(
      ["u-ana", "u-bob"],
    );

    const again = await bob("PUT", `/api/2.1/group-invitation/${token}`, { body: { action: "DECLINE" } });
    expectRefused(again, 400, "invalid_invitation_status");
  });

  it("declining in 2.0 leaves the group as it was", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    const token = await invite(sa, "maybe@academy.test");
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    const declined = await bob("PUT", `/api/2/group-invitation/${token}`, { body: { action: "DECLINE" } });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: "DECLINED", user: { id: "u-bob" }, group: { members: 1 } });
    const twice = await bob("PUT", `/api/2/group-invitation/${token}`, { body: { action: "ACCEPT" } });
    expectRefused(twice, 400, "accept_failed");
    const members = await sa("GET", "/api/2.1/group/g-class/members");
    expect(members.body).toMatchObject({ counts: { members: 1, invitees: 0 } });
  });
});

describe("group invitations: the pages' errors", () => {
  it("answers unknown_group_invitation (404), missing_action and invalid_action", async () => {
    const sandbox = await start({ data: DATA });
    const sa = client(sandbox, await tokenFor(sandbox));
    const unknown = await sa("GET", "/api/2/group-invitation/invitation-99");
    expectRefused(unknown, 404, "unknown_group_invitation");
    const unknown21 = await sa("PUT", "/api/2.1/group-invitation/invitation-99", {
      body: { action: "ACCEPT" },
    });
    expectRefused(unknown21, 404, "unknown_group_invitation");
    const token = await invite(sa, "someone@academy.test");
    const noAction = await sa("PUT", `/api/2.1/group-invitation/${token}`, {
      headers: { "content-length": "0" },
    });
    expectRefused(noAction, 400, "missing_action");
    const badAction = await sa("PUT", `/api/2/group-invitation/${token}`, { body: { action: "MAYBE" } });
    expectRefused(badAction, 400, "invalid_action");
    // A deleted group's invitations are gone with it.
    expect((await sa("DELETE", "/api/2.1/groups/g-class")).status).toBe(200);
    const gone = await sa("GET", `/api/2/group-invitation/${token}`);
    expect(gone.body).toMatchObject({ ID: "unknown_group_invitation" });
  });
});
