/**
 * API 2.1.1's organizations, users, invitations, objectives and beacons through the real client entry
 * `@drill-practice/client/v2.1.1`, over the state 2.1 shares: `self` references, third-party IDs
 * with and without their third party, and the pages' own errors with their status codes.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_IDS } from "../../src/data/default-ids.js";
import { BOB_ON_STAFF_DATA, EVENING_CLASS, SMALL_DATA, start } from "../support/helpers.js";
import { refusal, versionClients } from "../support/version-clients.js";

const BEACON = "07212ead-8344-4426-8b41-8b0cb621625a_0000_0001";

/** SMALL_DATA with Bob on the staff, Ana holding a third-party ID that names its third party. */
const DATA = {
  ...BOB_ON_STAFF_DATA,
  users: SMALL_DATA.users.map((u) =>
    u.id === "u-ana" ? { ...u, thirdPartyIds: [...u.thirdPartyIds, "ACME$2058392"] } : u,
  ),
  groups: [{ ...EVENING_CLASS, drillableIds: ["es-colours"] }],
};

describe("organizations in 2.1.1", () => {
  it("reads the own organization, its staff and its groups, `self` standing for it", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    expect((await v211.GET("/api/2.1.1/organization")).data).toMatchObject({
      id: "org-1",
      name: "Test Academy",
    });
    const byId = await v211.GET("/api/2.1.1/organization/{organization}", {
      params: { path: { organization: "org-1" } },
    });
    expect(byId.data).toMatchObject({ id: "org-1" });
    const staff = await v211.GET("/api/2.1.1/organization/{organization}/staff", {
      params: { path: { organization: "self" } },
    });
    expect(staff.data).toMatchObject({ total: 1, users: [{ id: "u-bob" }] });
    const groups = await v211.GET("/api/2.1.1/organization/{organization}/groups", {
      params: { path: { organization: "self" }, query: { resultSize: 1 } },
    });
    expect(groups.data).toMatchObject({
      total: 1,
      groups: [{ id: "g-class", organization: { id: "org-1", name: "Test Academy" } }],
      pagination: { lastOnPage: "g-class", moreAvailable: false },
    });
    const unknown = await v211.GET("/api/2.1.1/organization/{organization}/groups", {
      params: { path: { organization: "org-none" } },
    });
    expect(refusal(unknown)).toEqual({ status: 404, id: "not_found" });
    // Ana, a member without a permission on the organization: the page's 403.
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const denied = await ana.GET("/api/2.1.1/organization/{organization}/groups", {
      params: { path: { organization: "org-1" } },
    });
    expect(refusal(denied)).toEqual({ status: 403, id: "not_permitted" });
  });
});

describe("users in 2.1.1", () => {
  it("reads users by `self`, ID and third-party ID, and lists their third-party IDs", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    expect((await ana.GET("/api/2.1.1/user")).data).toMatchObject({ id: "u-ana", name: "Ana" });
    const self = await ana.GET("/api/2.1.1/user/{user}", { params: { path: { user: "self" } } });
    expect(self.data).toMatchObject({ id: "u-ana" });
    const named = await v211.GET("/api/2.1.1/user/{third_party}/{third_party_id}", {
      params: { path: { third_party: "ACME", third_party_id: "2058392" } },
    });
    expect(named.data).toMatchObject({ id: "u-ana", name: "Ana" });
    // A data-file ID without its third party matches whichever third party the path names.
    const plain = await v211.GET("/api/2.1.1/user/{third_party}/{third_party_id}", {
      params: { path: { third_party: "HR", third_party_id: "hr-1001" } },
    });
    expect(plain.data).toMatchObject({ id: "u-ana" });
    const wrongParty = await v211.GET("/api/2.1.1/user/{third_party}/{third_party_id}", {
      params: { path: { third_party: "OTHER", third_party_id: "2058392" } },
    });
    expect(refusal(wrongParty)).toEqual({ status: 404, id: "nonexistent_user" });
    const ids = await ana.GET("/api/2.1.1/user/{user}/third-party-ids", {
      params: { path: { user: "self" } },
    });
    expect(ids.data).toEqual([{ id: "hr-1001" }, { thirdParty: "ACME", id: "2058392" }]);
    const addresses = await ana.GET("/api/2.1.1/user/{user}/email-addresses", {
      params: { path: { user: "self" } },
    });
    expect(addresses.data).toMatchObject({
      total: 1,
      userEmailAddresses: [{ emailAddress: { address: "ana@academy.test" }, primary: true }],
    });
    // Zoe is outside the organization: Ana may not read her account.
    const zoe = await ana.GET("/api/2.1.1/user/{user}/third-party-ids", {
      params: { path: { user: "u-zoe" } },
    });
    expect(refusal(zoe)).toEqual({ status: 403, id: "no_access" });
  });

  it("adds an address with 2.1.1, verifies it and reads it with both versions", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox, "u-bob");
    const path = { user: "self", email: "bob@home.test" };
    const added = await v211.PUT("/api/2.1.1/user/{user}/email-address/{email}", { params: { path } });
    expect(added.data).toMatchObject({ emailAddress: { address: "bob@home.test", verified: false } });
    const asked = await v211.POST("/api/2.1.1/user/{user}/email-address/{email}/request-verification", {
      params: { path },
    });
    expect(asked.response.status).toBe(204);
    const read = await v211.GET("/api/2.1.1/user/{user}/email-address/{email}", { params: { path } });
    expect(read.data).toEqual({ address: "bob@home.test", verified: true });
    const read21 = await v21.GET("/api/2.1/user/{user}/email-address/{email}", {
      params: { path: { user: "u-bob", email: "bob@home.test" } },
    });
    expect(read21.data).toMatchObject({ emailAddress: { verified: true }, primary: false });
    const notLinked = await v211.GET("/api/2.1.1/user/{user}/email-address/{email}", {
      params: { path: { user: "self", email: "nobody@home.test" } },
    });
    expect(refusal(notLinked)).toEqual({ status: 404, id: "not_found" });
  });

  it("updates the own account with 2.1.1 and reads it with 2.1", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox, "u-bob");
    const updated = await v211.PUT("/api/2.1.1/user", { body: { name: "Robert", locale: "nl_NL" } });
    expect(updated.data).toMatchObject({ id: "u-bob", name: "Robert" });
    expect((await v21.GET("/api/2.1/user")).data).toMatchObject({ name: "Robert", locale: "nl_NL" });
  });
});

describe("invitations and objectives in 2.1.1", () => {
  it("reads and accepts an invitation sent with 2.1, then lists the objectives of the group joined", async () => {
    const sandbox = await start({ data: DATA });
    const { v21 } = await versionClients(sandbox);
    const invited = await v21.PUT("/api/2.1/group/{group}/members/{user}", {
      params: { path: { group: "g-class", user: "new@academy.test" } },
    });
    const token = /invitation (\S+) to/.exec(JSON.stringify(invited.data))?.[1] ?? "";
    await v21.POST("/api/2.1/group/{group}/objectives", {
      params: { path: { group: "g-class" } },
      body: { drills: ["es-colours"], reviewDate: "2030-01-31T00:00:00Z", minimumProficiency: 90 },
    });
    const bob = (await versionClients(sandbox, "u-bob")).v211;
    const read = await bob.GET("/api/2.1.1/group-invitation/{token}", { params: { path: { token } } });
    expect(read.data).toMatchObject({ status: "PENDING", group: { id: "g-class", name: "Class" } });
    const accepted = await bob.PUT("/api/2.1.1/group-invitation/{token}", {
      params: { path: { token } },
      body: { action: "ACCEPT" },
    });
    expect(accepted.data).toMatchObject({ status: "ACCEPTED", user: { id: "u-bob" } });
    const again = await bob.PUT("/api/2.1.1/group-invitation/{token}", {
      params: { path: { token } },
      body: { action: "DECLINE" },
    });
    expect(refusal(again)).toEqual({ status: 400, id: "invalid_invitation_status" });
    const unknown = await bob.GET("/api/2.1.1/group-invitation/{token}", {
      params: { path: { token: "nope" } },
    });
    expect(refusal(unknown)).toEqual({ status: 404, id: "unknown_group_invitation" });

    const objectives = await bob.GET("/api/2.1.1/objectives");
    expect(objectives.data).toMatchObject({
      total: 1,
      objectives: [{ type: "ONEOFF", minimumProficiency: 90, playables: [{ id: "es-colours" }] }],
    });
  });
});

describe("beacons in 2.1.1", () => {
  it("stores with 2.1.1, reads with 2.1, lists searched and by organization", async () => {
    const sandbox = await start({ data: DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const stored = await v211.PUT("/api/2.1.1/beacon/{beacon}", {
      params: { path: { beacon: BEACON } },
      body: { playableType: "DRILL", playableId: "es-colours", proximity: "NEAR", lingerDuration: "PT5M" },
    });
    expect(stored.data).toEqual({});
    const read = await v21.GET("/api/2.1/beacon/{beacon}", { params: { path: { beacon: BEACON } } });
    expect(read.data).toMatchObject({ id: BEACON, playable: { id: "es-colours" } });
    const found = await v211.GET("/api/2.1.1/beacons", { params: { query: { query: "COLOURS" } } });
    expect(found.data).toMatchObject({ total: 1, beacons: [{ id: BEACON, proximity: "NEAR" }] });
    const none = await v211.GET("/api/2.1.1/beacons", { params: { query: { query: "volcano" } } });
    expect(none.data).toEqual({ beacons: [], total: 0 });
    const byOrganization = await v211.GET("/api/2.1.1/beacons/{organization}", {
      params: { path: { organization: "org-1" } },
    });
    expect(byOrganization.data).toMatchObject({ total: 1 });
    const gone = await v211.GET("/api/2.1.1/beacon/{beacon}", {
      params: { path: { beacon: "07212ead-8344-4426-8b41-8b0cb621625a_0000_0009" } },
    });
    expect(refusal(gone)).toEqual({ status: 404, id: "beacon_not_found" });
    const bad = await v211.GET("/api/2.1.1/beacon/{beacon}", { params: { path: { beacon: "beacon-1" } } });
    expect(refusal(bad)).toEqual({ status: 400, id: "invalid_id" });
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    expect(refusal(await ana.GET("/api/2.1.1/beacons"))).toEqual({ status: 403, id: "not_permitted" });
  });
});

describe("third-party IDs of the built-in dataset", () => {
  it("address Ana by third party and ID right after the sandbox starts", async () => {
    const sandbox = await start({ data: undefined });
    const { v211 } = await versionClients(sandbox);
    const byAcme = await v211.GET("/api/2.1.1/user/{third_party}/{third_party_id}", {
      params: { path: { third_party: "ACME", third_party_id: "2058392" } },
    });
    expect(byAcme.data).toMatchObject({ id: DEFAULT_IDS.users.ana, name: "Ana García" });
    const added = await v211.PUT("/api/2.1.1/group/{group}/members/{third_party}/{third_party_id}", {
      params: { path: { group: DEFAULT_IDS.group, third_party: "HR", third_party_id: "hr-1004" } },
    });
    expect(added.response.status).toBe(200);
    const group = await v211.GET("/api/2.1.1/group/{group}", {
      params: { path: { group: DEFAULT_IDS.group } },
    });
    expect(group.data?.counts).toMatchObject({ members: 4 });
  });
});
