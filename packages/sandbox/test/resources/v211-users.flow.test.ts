/**
 * API 2.1.1's organization staff, user account, email address and third-party ID operations through
 * the real client entry `@drill-practice/client/v2.1.1`, over the state 2.1 shares. Pages followed
 * (…/api/2.1.1/endpoints/…): organization-id-staff-id/put and /delete, user-id/put, user-id/post,
 * user-id-email-address-id/delete, user-id-email-address-id-verify-id/put, user-id-third-party-id-id
 * get, put and delete; each error is checked with the page's identifier and status.
 */
import { describe, expect, it } from "vitest";
import { BOB_ON_STAFF_DATA, start, tokenFor } from "../support/helpers.js";
import { refusal, versionClients } from "../support/version-clients.js";

describe("organization staff in 2.1.1 (PUT and DELETE organization staff pages)", () => {
  it("adds Ana to the staff of `self`, lists her with 2.1, and removes her again", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const path = { organization: "self", user: "u-ana" };
    const added = await v211.PUT("/api/2.1.1/organization/{organization}/staff/{user}", { params: { path } });
    expect(added.data).toMatchObject({ id: "u-ana", name: "Ana", organization: { id: "org-1" } });
    const staff = async () =>
      (
        await v21.GET("/api/2.1/organization/{organization}/staff", {
          params: { path: { organization: "org-1" } },
        })
      ).data?.users?.map((u) => u.id);
    expect(await staff()).toEqual(["u-bob", "u-ana"]);
    const again = await v211.PUT("/api/2.1.1/organization/{organization}/staff/{user}", { params: { path } });
    expect(refusal(again)).toEqual({ status: 400, id: "already_staff_user" });

    const removed = await v211.DELETE("/api/2.1.1/organization/{organization}/staff/{user}", {
      params: { path },
    });
    expect(removed.response.status).toBe(204);
    expect(await staff()).toEqual(["u-bob"]);
    const notStaff = await v211.DELETE("/api/2.1.1/organization/{organization}/staff/{user}", {
      params: { path },
    });
    expect(refusal(notStaff)).toEqual({ status: 400, id: "not_staff_user" });
  });

  it("creates an account for a new address with `name`, and answers the pages' errors", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211 } = await versionClients(sandbox);
    const put = (user: string, name?: string) =>
      v211.PUT("/api/2.1.1/organization/{organization}/staff/{user}", {
        params: { path: { organization: "org-1", user } },
        ...(name === undefined ? {} : { body: { name } }),
      });
    expect(refusal(await put("new@academy.test"))).toEqual({ status: 400, id: "missing_name" });
    expect((await put("new@academy.test", "Nia")).data).toMatchObject({
      name: "Nia",
      emailAddress: "new@academy.test",
    });
    expect(refusal(await put("not-an-address"))).toEqual({ status: 400, id: "invalid_email_address" });
    // Zoe belongs to no organization yet: she joins this one as staff.
    expect((await put("u-zoe")).data).toMatchObject({ id: "u-zoe", organization: { id: "org-1" } });
    const bob = (await versionClients(sandbox, "u-bob")).v211;
    const denied = await bob.PUT("/api/2.1.1/organization/{organization}/staff/{user}", {
      params: { path: { organization: "org-1", user: "u-ana" } },
    });
    expect(refusal(denied)).toEqual({ status: 403, id: "not_permitted" });
    const noAccess = await bob.DELETE("/api/2.1.1/organization/{organization}/staff/{user}", {
      params: { path: { organization: "org-1", user: "u-ana" } },
    });
    expect(refusal(noAccess)).toEqual({ status: 401, id: "no_access" });
    const unknown = await v211.DELETE("/api/2.1.1/organization/{organization}/staff/{user}", {
      params: { path: { organization: "org-none", user: "u-bob" } },
    });
    expect(refusal(unknown)).toEqual({ status: 404, id: "organization_not_found" });
    const nobody = await v211.DELETE("/api/2.1.1/organization/{organization}/staff/{user}", {
      params: { path: { organization: "org-1", user: "u-nobody" } },
    });
    expect(refusal(nobody)).toEqual({ status: 404, id: "not_found" });
  });
});

describe("user accounts in 2.1.1 (PUT user and the deprecated POST user pages)", () => {
  it("lets the service account update Ana by her email address; 2.1 reads the change", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211, v21 } = await versionClients(sandbox);
    const updated = await v211.PUT("/api/2.1.1/user/{user}", {
      params: { path: { user: "ana@academy.test" } },
      body: { name: "Ana Lima", locale: "pt" },
    });
    expect(updated.data).toMatchObject({ id: "u-ana", name: "Ana Lima" });
    const read = await v21.GET("/api/2.1/user/{user}", { params: { path: { user: "u-ana" } } });
    expect(read.data).toMatchObject({ name: "Ana Lima", locale: "pt" });
    // Ana may not update Bob.
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const denied = await ana.PUT("/api/2.1.1/user/{user}", {
      params: { path: { user: "u-bob" } },
      body: { name: "Robert" },
    });
    expect(refusal(denied)).toMatchObject({ status: 403 });
  });

  it("updates the own account by POST, answering the empty object, with the page's invalid_* identifiers", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211, v21 } = await versionClients(sandbox, "u-bob");
    const posted = await v211.POST("/api/2.1.1/user", {
      body: { name: "Robert", timeZone: "Europe/Lisbon" },
    });
    expect(posted.data).toEqual({});
    expect((await v21.GET("/api/2.1/user")).data).toMatchObject({
      name: "Robert",
      timeZone: "Europe/Lisbon",
    });
    expect(refusal(await v211.POST("/api/2.1.1/user", { body: { name: " " } }))).toEqual({
      status: 400,
      id: "invalid_real_name",
    });
    expect(refusal(await v211.POST("/api/2.1.1/user", { body: { locale: "english" } }))).toEqual({
      status: 400,
      id: "invalid_locale",
    });
    expect(refusal(await v211.POST("/api/2.1.1/user", { body: { timeZone: "Mars/Olympus" } }))).toEqual({
      status: 400,
      id: "invalid_time_zone",
    });
  });
});

describe("email addresses in 2.1.1 (DELETE address and PUT verify pages)", () => {
  it("verifies an added address with a code, then removes it; the primary address stays", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211 } = await versionClients(sandbox, "u-bob");
    const path = { user: "self", email: "bob@home.test" };
    await v211.PUT("/api/2.1.1/user/{user}/email-address/{email}", { params: { path } });
    const verified = await v211.PUT("/api/2.1.1/user/{user}/email-address/{email}/verify/{nonce}", {
      params: { path: { ...path, nonce: "123456" } },
    });
    expect(verified.response.status).toBe(204);
    const read = await v211.GET("/api/2.1.1/user/{user}/email-address/{email}", { params: { path } });
    expect(read.data).toEqual({ address: "bob@home.test", verified: true });

    const removed = await v211.DELETE("/api/2.1.1/user/{user}/email-address/{email}", { params: { path } });
    expect(removed.response.status).toBe(204);
    const gone = await v211.GET("/api/2.1.1/user/{user}/email-address/{email}", { params: { path } });
    expect(refusal(gone)).toEqual({ status: 404, id: "not_found" });
    // Once removed, the address names no user: another account may take it.
    const { v211: service } = await versionClients(sandbox);
    const taken = await service.PUT("/api/2.1.1/user/{user}/email-address/{email}", {
      params: { path: { user: "u-ana", email: "bob@home.test" } },
    });
    expect(taken.response.status).toBe(200);

    const del = (user: string, email: string) =>
      v211.DELETE("/api/2.1.1/user/{user}/email-address/{email}", { params: { path: { user, email } } });
    expect(refusal(await del("self", "bob@academy.test"))).toEqual({
      status: 400,
      id: "cannot_remove_primary_email",
    });
    expect(refusal(await del("self", "other@home.test"))).toEqual({ status: 400, id: "not_owner" });
    expect(refusal(await del("self", "no-address"))).toEqual({ status: 400, id: "invalid_email_address" });
    expect(refusal(await del("u-ana", "ana@academy.test"))).toEqual({ status: 403, id: "no_access" });
  });

  it("answers not_found for another address and not_permitted for another account when verifying", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211 } = await versionClients(sandbox, "u-bob");
    const verify = (user: string, email: string) =>
      v211.PUT("/api/2.1.1/user/{user}/email-address/{email}/verify/{nonce}", {
        params: { path: { user, email, nonce: "1" } },
      });
    expect(refusal(await verify("self", "nobody@home.test"))).toEqual({ status: 404, id: "not_found" });
    expect(refusal(await verify("u-ana", "ana@academy.test"))).toEqual({ status: 403, id: "not_permitted" });
  });
});

describe("third-party IDs in 2.1.1 (GET, PUT and DELETE user third-party ID pages)", () => {
  it("registers ACME$77 for Ana: it names her in 2.1.1 paths and as a token subject, then is removed", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211 } = await versionClients(sandbox);
    const one = { user: "u-ana", third_party_id: "ACME$77" };
    const added = await v211.PUT("/api/2.1.1/user/{user}/third-party-id/{third_party_id}", {
      params: { path: one },
    });
    expect(added.response.status).toBe(204);
    const read = await v211.GET("/api/2.1.1/user/{user}/third-party-id/{third_party}/{third_party_id}", {
      params: { path: { user: "u-ana", third_party: "ACME", third_party_id: "77" } },
    });
    expect(read.data).toEqual({ thirdParty: "ACME", id: "77" });
    const byId = await v211.GET("/api/2.1.1/user/{third_party}/{third_party_id}", {
      params: { path: { third_party: "ACME", third_party_id: "77" } },
    });
    expect(byId.data).toMatchObject({ id: "u-ana" });
    const asSubject = (await versionClients(sandbox, "ACME$77")).v211;
    expect((await asSubject.GET("/api/2.1.1/user")).data).toMatchObject({ id: "u-ana" });

    const removed = await v211.DELETE("/api/2.1.1/user/{user}/third-party-id/{third_party_id}", {
      params: { path: one },
    });
    expect(removed.response.status).toBe(204);
    const gone = await v211.GET("/api/2.1.1/user/{user}/third-party-id/{third_party_id}", {
      params: { path: one },
    });
    expect(refusal(gone)).toEqual({ status: 404, id: "unknown_third_party_id" });
    await expect(tokenFor(sandbox, "ACME$77")).rejects.toThrow(/invalid_grant/);
  });

  it("keeps token subjects unambiguous and answers the pages' errors", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const { v211 } = await versionClients(sandbox);
    const put = (user: string, third_party: string, third_party_id: string) =>
      v211.PUT("/api/2.1.1/user/{user}/third-party-id/{third_party}/{third_party_id}", {
        params: { path: { user, third_party, third_party_id } },
      });
    expect((await put("u-bob", "ACME", "1")).response.status).toBe(204);
    expect(refusal(await put("u-ana", "ACME", "1"))).toEqual({ status: 409, id: "third_party_id_in_use" });
    // Ana's data-file ID `hr-1001` (no third party recorded) names her: no one else may take it.
    expect(refusal(await put("u-bob", "HR", "hr-1001"))).toEqual({
      status: 409,
      id: "third_party_id_in_use",
    });
    expect(refusal(await put("u-bob", "ACME", "2"))).toEqual({
      status: 409,
      id: "third_party_already_assigned",
    });
    expect(refusal(await put("u-nobody", "ACME", "3"))).toEqual({ status: 404, id: "nonexistent_user" });
    const oneSegment = await v211.PUT("/api/2.1.1/user/{user}/third-party-id/{third_party_id}", {
      params: { path: { user: "u-bob", third_party_id: "no-party" } },
    });
    expect(refusal(oneSegment)).toEqual({ status: 400, id: "invalid_third_party_id" });
    expect(refusal(await put("u-bob", "A$B", "4"))).toEqual({ status: 400, id: "invalid_third_party" });
    // Ana may read her own IDs but not register one (only an administrator of her organization may).
    const ana = (await versionClients(sandbox, "u-ana")).v211;
    const own = await ana.GET("/api/2.1.1/user/{user}/third-party-id/{third_party}/{third_party_id}", {
      params: { path: { user: "self", third_party: "HR", third_party_id: "hr-1001" } },
    });
    expect(own.data).toEqual({ id: "hr-1001" });
    const selfPut = await ana.PUT("/api/2.1.1/user/{user}/third-party-id/{third_party_id}", {
      params: { path: { user: "self", third_party_id: "ACME$5" } },
    });
    expect(refusal(selfPut)).toEqual({ status: 403, id: "no_access" });
    const notHeld = await v211.DELETE(
      "/api/2.1.1/user/{user}/third-party-id/{third_party}/{third_party_id}",
      {
        params: { path: { user: "u-ana", third_party: "ACME", third_party_id: "9" } },
      },
    );
    expect(refusal(notHeld)).toEqual({ status: 404, id: "unknown_third_party_id" });
  });
});
