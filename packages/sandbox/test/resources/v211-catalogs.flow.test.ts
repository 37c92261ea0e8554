/**
 * API 2.1.1's catalog operations through the real client entry `@drill-practice/client/v2.1.1`, over
 * the catalogs the 2.1 store search reads: access granted or taken away with 2.1.1 is what a catalog
 * search answers, and a deleted catalog is gone for it too. Pages followed: PUT and DELETE
 * `user/{user_id}/catalog/{catalog_id}` (…/api/2.1.1/endpoints/user-id-catalog-id/put/ and /delete) and
 * DELETE `catalog/{catalog_id}` (…/api/2.1.1/endpoints/catalog-id/delete/), each with its error table.
 */
import { describe, expect, it } from "vitest";
import { BOB_ON_STAFF_DATA, start, type TestSandbox } from "../support/helpers.js";
import { refusal, versionClients } from "../support/version-clients.js";

/** SMALL_DATA with Bob on the staff (VIEW only: no right to manage catalogs). */
const DATA = BOB_ON_STAFF_DATA;

/**
 * A 2.1.1 client acting for Ana once she belongs to no organization: a token is only issued for a user
 * of the service account's organization, and an issued token outlives a restore that unlinks her.
 */
async function unlinkedAna(sandbox: TestSandbox) {
  const ana = (await versionClients(sandbox, "u-ana")).v211;
  sandbox.restore({
    ...DATA,
    users: DATA.users.map((user) => {
      if (user.id !== "u-ana") return user;
      const { organizationId: _, ...unlinked } = user;
      return unlinked;
    }),
  });
  return ana;
}

describe("catalog access in 2.1.1 (PUT and DELETE user catalog pages)", () => {
  it("grants Bob access with 2.1.1, so his 2.1 catalog search finds the catalog's drills; revoking ends it", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    const bob = (await versionClients(sandbox, "u-bob")).v21;
    const search = () => bob.GET("/api/2.1/store", { params: { query: { catalog: "cat-business" } } });
    expect(refusal(await search())).toMatchObject({ status: 403 });

    const path = { user: "bob@academy.test", catalog: "cat-business" };
    const granted = await v211.PUT("/api/2.1.1/user/{user}/catalog/{catalog}", { params: { path } });
    expect(granted.response.status).toBe(204);
    const found = await search();
    expect(found.response.status).toBe(200);
    expect(JSON.stringify(found.data)).toContain("de-business");

    // The page writes a third-party ID THIRD_PARTY/ID: Ana's `HR/hr-1001` names her.
    const byThirdParty = await v211.PUT("/api/2.1.1/user/{user}/catalog/{catalog}", {
      params: { path: { user: "HR/hr-1001", catalog: "cat-business" } },
    });
    expect(byThirdParty.response.status).toBe(204);

    const revoked = await v211.DELETE("/api/2.1.1/user/{user}/catalog/{catalog}", { params: { path } });
    expect(revoked.response.status).toBe(204);
    expect(refusal(await search())).toMatchObject({ status: 403 });
  });

  it("answers the pages' errors with their statuses", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    const unknownCatalog = await v211.PUT("/api/2.1.1/user/{user}/catalog/{catalog}", {
      params: { path: { user: "u-bob", catalog: "cat-none" } },
    });
    expect(refusal(unknownCatalog)).toEqual({ status: 404, id: "catalog_not_found" });
    const unknownUser = await v211.DELETE("/api/2.1.1/user/{user}/catalog/{catalog}", {
      params: { path: { user: "u-nobody", catalog: "cat-business" } },
    });
    expect(refusal(unknownUser)).toEqual({ status: 404, id: "not_found" });
    // Bob holds VIEW on the organization: not enough to manage its catalogs.
    const bob = (await versionClients(sandbox, "u-bob")).v211;
    const denied = await bob.PUT("/api/2.1.1/user/{user}/catalog/{catalog}", {
      params: { path: { user: "self", catalog: "cat-business" } },
    });
    expect(refusal(denied)).toEqual({ status: 403, id: "not_permitted" });
    // Ana belonging to no organization: the page's 403 for this case.
    const ana = await unlinkedAna(sandbox);
    const unlinked = await ana.DELETE("/api/2.1.1/user/{user}/catalog/{catalog}", {
      params: { path: { user: "u-ana", catalog: "cat-business" } },
    });
    expect(refusal(unlinked)).toEqual({ status: 403, id: "not_linked_to_organization" });
  });
});

describe("deleting a catalog in 2.1.1 (DELETE catalog page)", () => {
  it("deletes the catalog: Ana's catalog search no longer finds it, and a second delete is refused", async () => {
    const sandbox = await start({ data: DATA });
    const { v211 } = await versionClients(sandbox);
    const ana = (await versionClients(sandbox, "u-ana")).v21;
    const search = () => ana.GET("/api/2.1/store", { params: { query: { catalog: "cat-business" } } });
    expect((await search()).response.status).toBe(200);

    const path = { catalog: "cat-business" };
    const deleted = await v211.DELETE("/api/2.1.1/catalog/{catalog}", { params: { path } });
    expect(deleted.response.status).toBe(204);
    expect(refusal(await search())).toMatchObject({ status: 404 });
    const again = await v211.DELETE("/api/2.1.1/catalog/{catalog}", { params: { path } });
    expect(refusal(again)).toEqual({ status: 404, id: "catalog_not_found" });
    // The drills stay: only the catalog went.
    const drill = await v211.GET("/api/2.1.1/playable/{playable}", {
      params: { path: { playable: "de-business" } },
    });
    expect(drill.response.status).not.toBe(404);
  });

  it("refuses callers without MANAGE (`not_permitted` 403) or without an organization (`not_linked_to_organization` 401)", async () => {
    const sandbox = await start({ data: DATA });
    const path = { catalog: "cat-business" };
    const bob = (await versionClients(sandbox, "u-bob")).v211;
    expect(refusal(await bob.DELETE("/api/2.1.1/catalog/{catalog}", { params: { path } }))).toEqual({
      status: 403,
      id: "not_permitted",
    });
    const ana = await unlinkedAna(sandbox);
    expect(refusal(await ana.DELETE("/api/2.1.1/catalog/{catalog}", { params: { path } }))).toEqual({
      status: 401,
      id: "not_linked_to_organization",
    });
  });
});
