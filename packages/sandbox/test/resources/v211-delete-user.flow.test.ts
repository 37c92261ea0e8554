/**
 * Deleting user accounts through `@drill-practice/client/v2.1.1`, as the 2.1.1 DELETE user page says
 * (…/api/2.1.1/endpoints/user-id/delete): one's own account only when no organization manages it,
 * another only when the caller's organization manages it and the caller may manage users, never an
 * account managing groups unless `skipValidation`; group memberships and practice results go with
 * it. Each of the page's five errors is checked with its status. The page shows no success answer:
 * 204 is the users family's rule (the sandbox README).
 */
import { describe, expect, it } from "vitest";
import {
  BOB_ON_STAFF_DATA,
  EVENING_CLASS,
  ORG_WITH_BOB_ON_STAFF,
  signAssertion,
  start,
  tokenRequest,
} from "../support/helpers.js";
import { refusal, versionClients } from "../support/version-clients.js";

const DATA = { ...BOB_ON_STAFF_DATA, groups: [EVENING_CLASS] };

describe("DELETE user in 2.1.1 (the DELETE user page)", () => {
  it("deletes a managed account with its group membership: the user, their address and their token are gone", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const deleted = await v211.DELETE("/api/2.1.1/user/{user}", {
      params: { path: { user: "ana@academy.test" } },
    });
    expect(deleted.response.status).toBe(204);

    const read = await v211.GET("/api/2.1.1/user/{user}", { params: { path: { user: "u-ana" } } });
    expect(refusal(read)).toEqual({ status: 404, id: "nonexistent_user" });
    const members = await v21.GET("/api/2.1/group/{group}/members", {
      params: { path: { group: "g-class" } },
    });
    expect(members.data?.members ?? []).toEqual([]);
    const results = await v211.GET("/api/2.1.1/group/{group}/member-results/{user}", {
      params: { path: { group: "g-class", user: "u-ana" } },
    });
    expect(refusal(results)).toEqual({ status: 404, id: "not_found" });
    // A token issued before acts for nobody now.
    const own = await ana.GET("/api/2.1.1/user/{user}", { params: { path: { user: "self" } } });
    expect(refusal(own)).toEqual({ status: 404, id: "nonexistent_user" });
    // Her address names nobody any more, so no token is issued for it.
    const assertion = await signAssertion(sandbox, { claims: { sub: "ana@academy.test" } });
    const token = await tokenRequest(sandbox, { assertion });
    expect(token.body).toMatchObject({ error: "invalid_grant" });
    const again = await v211.DELETE("/api/2.1.1/user/{user}", { params: { path: { user: "u-ana" } } });
    expect(refusal(again)).toEqual({ status: 404, id: "not_found" });
    // The state kept afterwards is a data file that names her nowhere (she had catalog access and a
    // group), so it restores.
    const kept = sandbox.snapshot();
    expect(JSON.stringify(kept)).not.toContain("u-ana");
    expect(() => sandbox.restore(kept)).not.toThrow();
  });

  it("refuses an account on a group's staff until skipValidation, which takes the staff place too", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox);
    await v211.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group: "g-class", user: "u-ana", permission: "VIEW" } },
    });
    const path = { user: "u-ana" };
    const refused = await v211.DELETE("/api/2.1.1/user/{user}", { params: { path } });
    expect(refusal(refused)).toEqual({ status: 400, id: "account_is_group_manager" });
    const kept = await v211.GET("/api/2.1.1/user/{user}", { params: { path } });
    expect(kept.data).toMatchObject({ id: "u-ana" });

    const skipped = await v211.DELETE("/api/2.1.1/user/{user}", {
      params: { path, query: { skipValidation: true } },
    });
    expect(skipped.response.status).toBe(204);
    const staff = await v21.GET("/api/2.1/group/{group}/staff", { params: { path: { group: "g-class" } } });
    expect(staff.data?.groupStaffUsers?.map((s) => s.user?.id) ?? []).not.toContain("u-ana");
  });

  it("answers the page's errors, each with its status", async () => {
    const sandbox = await start({ data: DATA });
    const { v211: sa } = await versionClients(sandbox);
    const bob = (await versionClients(sandbox, "u-bob")).v211;
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const del = (client: typeof sa, user: string) =>
      client.DELETE("/api/2.1.1/user/{user}", { params: { path: { user } } });

    expect(refusal(await del(sa, "u-nobody"))).toEqual({ status: 404, id: "not_found" });
    // Bob's own account is managed by the organization.
    expect(refusal(await del(bob, "self"))).toEqual({ status: 400, id: "cannot_delete_self" });
    // Zoe belongs to no organization: not the caller's to delete.
    expect(refusal(await del(sa, "u-zoe"))).toEqual({ status: 401, id: "account_not_managed_by_caller" });
    // Bob is staff with VIEW only, Ana no staff at all: neither may manage users.
    expect(refusal(await del(bob, "u-ana"))).toEqual({ status: 401, id: "access_denied" });
    expect(refusal(await del(ana, "u-bob"))).toEqual({ status: 401, id: "access_denied" });
    // The organization's service account stays: its tokens depend on it (the sandbox's choice).
    const { v211: admin } = await versionClients(
      await start({
        data: {
          ...DATA,
          organizations: [{ ...ORG_WITH_BOB_ON_STAFF, staff: [{ userId: "u-bob", permission: "MANAGE" }] }],
        },
      }),
      "u-bob",
    );
    const service = await admin.DELETE("/api/2.1.1/user/{user}", { params: { path: { user: "sa-1" } } });
    expect(refusal(service)).toEqual({ status: 401, id: "access_denied" });
    expect((service.error as { description?: string }).description).toContain("service account");
  });
});
