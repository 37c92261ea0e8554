import { describe, expect, it } from "vitest";
import {
  clientAs,
  EVENING_CLASS,
  expectRefusals,
  expectRefused,
  SMALL_DATA,
  start,
} from "../support/helpers.js";

/** SMALL_DATA plus a group of the organization, and Zoe's own organization. */
const DATA = {
  ...SMALL_DATA,
  organizations: [
    ...SMALL_DATA.organizations,
    { id: "org-2", name: "Other School", serviceAccountId: "sa-2", staff: [] },
  ],
  users: [
    ...SMALL_DATA.users,
    { id: "sa-2", name: "Other integration", emails: [], thirdPartyIds: [], organizationId: "org-2" },
    { id: "u-kim", name: "Kim", emails: ["kim@other.test"], thirdPartyIds: [], organizationId: "org-2" },
  ],
  groups: [EVENING_CLASS],
};

describe("users, email addresses and organization staff (flow)", () => {
  it("reads and updates the own user, adds an address and makes it primary, staffs the organization", async () => {
    const sandbox = await start({ data: DATA });
    const ana = await clientAs(sandbox, "u-ana");
    const sa = await clientAs(sandbox);

    const own = await ana("GET", "/api/2.1/user");
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: "u-ana", name: "Ana", emailAddress: "ana@academy.test" });
    expect(own.body).toMatchObject({ organization: { id: "org-1", name: "Test Academy" } });

    const renamed = await ana("PUT", "/api/2/user", {
      body: { name: "Ana María", locale: "es", timeZone: "Europe/Madrid" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Ana María", locale: "es", timeZone: "Europe/Madrid" });
    const again = await ana("GET", "/api/2/user");
    expect(again.body).toMatchObject({ name: "Ana María", locale: "es", emailAddress: "ana@academy.test" });

    const added = await ana("PUT", "/api/2.1/user/u-ana/email-address/ana.work%40academy.test");
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      emailAddress: { address: "ana.work@academy.test", verified: false },
      primary: false,
    });
    const unverified = await ana(
      "PUT",
      "/api/2.1/user/u-ana/email-addresses/ana.work%40academy.test/set-primary",
    );
    expectRefused(unverified, 400, "not_verified");

    const verify = await ana(
      "POST",
      "/api/2/user/u-ana/email-address/ana.work%40academy.test/request-verification",
    );
    expect(verify.status).toBe(204);
    const primary = await ana("PUT", "/api/2/user/u-ana/email-addresses/ana.work%40academy.test/set-primary");
    expect(primary.status).toBe(200);
    expect(primary.body).toEqual({
      total: 2,
      userEmailAddresses: [
        { emailAddress: { address: "ana.work@academy.test", verified: true }, primary: true },
        { emailAddress: { address: "ana@academy.test", verified: true }, primary: false },
      ],
    });
    const listed = await ana("GET", "/api/2.1/user/u-ana/email-addresses");
    expect(listed.body).toEqual(primary.body);
    const one = await ana("GET", "/api/2.1/user/u-ana/email-address/ANA%40academy.test");
    expect(one.body).toEqual({
      emailAddress: { address: "ana@academy.test", verified: true },
      primary: false,
    });

    // The organization's service account sees the change, and can address Ana by her new address.
    const seen = await sa("GET", "/api/2.1/user/ana.work%40academy.test");
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      id: "u-ana",
      name: "Ana María",
      emailAddress: "ana.work@academy.test",
    });
    const found = await sa("GET", "/api/2/users?query=mar%C3%ADa");
    expect(found.body).toMatchObject({
      total: 1,
      users: [{ id: "u-ana", emailAddress: "ana.work@academy.test" }],
    });

    const org21 = await sa("GET", "/api/2.1/organization");
    expect(org21.body).toMatchObject({ id: "org-1", name: "Test Academy" });
    const org20 = await ana("GET", "/api/2/organization/org-1");
    expect(org20.body).toMatchObject({ id: "org-1", name: "Test Academy" });

    const bob = await sa("PUT", "/api/2/organization/org-1/staff/bob%40academy.test");
    expect(bob.status).toBe(200);
    expect(bob.body).toMatchObject({ id: "u-bob", name: "Bob", organization: { id: "org-1" } });
    const newcomer = await sa("PUT", "/api/2/organization/org-1/staff/lee%40academy.test", {
      body: { name: "Lee" },
    });
    expect(newcomer.status).toBe(200);
    expect(newcomer.body).toMatchObject({ name: "Lee", emailAddress: "lee@academy.test" });

    const staff21 = await sa("GET", "/api/2.1/organization/org-1/staff");
    expect(staff21.body).toMatchObject({ total: 2, users: [{ id: "u-bob" }, { name: "Lee" }] });
    const staff20 = await sa("GET", "/api/2/organization/org-1/staff?query=lee");
    expect(staff20.body).toMatchObject({
      total: 1,
      users: [{ name: "Lee", emailAddress: "lee@academy.test" }],
    });

    // Staff hold MANAGE on the organization's groups: Bob now reads its groups and Ana's account.
    const bobs = await clientAs(sandbox, "u-bob");
    const groups = await bobs("GET", "/api/2.1/organization/org-1/groups");
    expect(groups.status).toBe(200);
    expect(groups.body).toMatchObject({ total: 1, groups: [{ id: "g-class", name: "Class" }] });
    expect((await bobs("GET", "/api/2.1/user/u-ana")).status).toBe(200);

    const removed = await sa("DELETE", "/api/2/organization/org-1/staff/u-bob");
    expect(removed.status).toBe(204);
    const after = await sa("GET", "/api/2/organization/org-1/staff");
    expect(after.body).toMatchObject({ total: 1, users: [{ name: "Lee" }] });
    expect((await bobs("GET", "/api/2.1/organization/org-1/groups")).status).toBe(403);
  });
});

describe("users and organizations: the pages' errors", () => {
  it("user pages: nonexistent_user 404, no_access 403, invalid_<field> 400", async () => {
    const sandbox = await start({ data: DATA });
    const ana = await clientAs(sandbox, "u-ana");
    const sa = await clientAs(sandbox);
    const none = await sa("GET", "/api/2.1/user/u-nobody");
    expectRefused(none, 404, "nonexistent_user");
    const other = await ana("GET", "/api/2/user/u-bob");
    expectRefused(other, 403, "no_access");
    // The service account manages org-1, not Zoe (who belongs to no organization).
    expect((await sa("GET", "/api/2.1/user/u-zoe")).status).toBe(403);
    const zone = await ana("PUT", "/api/2.1/user", { body: { timeZone: "Mars/Olympus" } });
    expectRefused(zone, 400, "invalid_time_zone", "timeZone");
    const name = await ana("PUT", "/api/2.1/user", { body: { name: "  " } });
    expect(name.body).toMatchObject({ ID: "invalid_name" });
    expect((await ana("GET", "/api/2.1/user")).body).toMatchObject({ name: "Ana" });
  });

  it("email pages: invalid_email_address, email_address_in_use 409, email_not_linked, not_found, missing_input", async () => {
    const sandbox = await start({ data: DATA });
    const ana = await clientAs(sandbox, "u-ana");
    await expectRefusals([
      [ana, "PUT", "/api/2.1/user/u-ana/email-address/not-an-address", 400, "invalid_email_address"],
      [ana, "PUT", "/api/2.1/user/u-ana/email-address/bob%40academy.test", 409, "email_address_in_use"],
      [ana, "PUT", "/api/2/user/u-ana/email-address/", 400, "missing_input"],
      [
        ana,
        "PUT",
        "/api/2.1/user/u-ana/email-addresses/bob%40academy.test/set-primary",
        400,
        "email_not_linked",
      ],
      [
        ana,
        "POST",
        "/api/2.1/user/u-ana/email-address/bob%40academy.test/request-verification",
        400,
        "email_not_linked_to_account",
      ],
      [
        ana,
        "POST",
        "/api/2.1/user/u-bob/email-address/bob%40academy.test/request-verification",
        403,
        "not_permitted",
      ],
      [ana, "POST", "/api/2.1/user/u-nobody/email-address/x%40y.test/request-verification", 404, "not_found"],
      [ana, "GET", "/api/2.1/user/u-ana/email-address/bob%40academy.test", 404, "not_found"],
    ]);
    const invalid = await ana("POST", "/api/2.1/user/u-ana/email-address/nope/request-verification");
    expect(invalid.body).toMatchObject({ ID: "invalid_email" });
    const v20 = await ana("PUT", "/api/2/user/u-ana/email-address/", {
      body: { emailAddress: "a2@academy.test" },
    });
    expect(v20.body).toEqual({
      emailAddress: { address: "a2@academy.test", verified: false },
      primary: false,
    });
    const primary = await ana("GET", "/api/2/user/u-ana/email-address/");
    expect(primary.body).toEqual({
      emailAddress: { address: "ana@academy.test", verified: true },
      primary: true,
    });
  });

  it("organization pages: not_found, not_permitted, staff errors with their statuses", async () => {
    const sandbox = await start({ data: DATA });
    const sa = await clientAs(sandbox);
    const ana = await clientAs(sandbox, "u-ana");
    await expectRefusals([
      [sa, "GET", "/api/2.1/organization/org-2", 404, "not_found"],
      [ana, "GET", "/api/2.1/organization/org-1/groups", 403, "not_permitted"],
      [sa, "GET", "/api/2.1/organization/org-none/groups", 404, "not_found"],
      [ana, "PUT", "/api/2/organization/org-1/staff/u-bob", 403, "not_permitted"],
      [sa, "PUT", "/api/2/organization/org-1/staff/new%40academy.test", 400, "missing_name"],
      [sa, "PUT", "/api/2/organization/org-1/staff/u-kim", 400, "linked_to_other_organization"],
    ]);
    const neither = await sa("PUT", "/api/2/organization/org-1/staff/nobody");
    expect(neither.body).toMatchObject({ ID: "invalid_email_address" });
    expect((await sa("PUT", "/api/2/organization/org-1/staff/u-bob")).status).toBe(200);
    const twice = await sa("PUT", "/api/2/organization/org-1/staff/u-bob");
    expect(twice.body).toMatchObject({ ID: "already_staff_user" });

    const bob = await clientAs(sandbox, "u-bob");
    await expectRefusals([
      [sa, "DELETE", "/api/2/organization/org-none/staff/u-bob", 404, "organization_not_found"],
      [sa, "DELETE", "/api/2/organization/org-2/staff/u-kim", 400, "caller_not_part_of_organization"],
      [ana, "DELETE", "/api/2/organization/org-1/staff/u-bob", 401, "no_access"],
      [bob, "DELETE", "/api/2/organization/org-1/staff/u-bob", 403, "cannot_demote_self"],
      [sa, "DELETE", "/api/2/organization/org-1/staff/u-nobody", 404, "not_found"],
    ]);
    const notStaff = await sa("DELETE", "/api/2/organization/org-1/staff/u-ana");
    expect(notStaff.body).toMatchObject({ ID: "not_staff_user" });
    // Bob still holds staff permission on a group of the organization.
    expect(
      (await sa("PUT", "/api/2.1/group/g-class/staff/u-bob/permission", { body: { permission: "VIEW" } }))
        .status,
    ).toBe(200);
    const busy = await sa("DELETE", "/api/2/organization/org-1/staff/u-bob");
    expectRefused(busy, 400, "staff_disconnection_failed");
  });
});

describe("2.0 email address in the path (REF …/api/2/endpoints/put-user-email-address)", () => {
  it("adds the path's address to the account (self or the ID), answers 200 with it, and refuses with the page's codes", async () => {
    const sandbox = await start({ data: DATA });
    const ana = await clientAs(sandbox, "u-ana");
    const added = await ana("PUT", "/api/2/user/self/email-address/ana.home%40academy.test");
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      emailAddress: { address: "ana.home@academy.test", verified: false },
      primary: false,
    });
    const listed = await ana("GET", "/api/2/user/u-ana/email-addresses");
    expect(listed.body).toMatchObject({
      userEmailAddresses: expect.arrayContaining([
        { emailAddress: { address: "ana.home@academy.test", verified: false }, primary: false },
      ]),
    });
    await expectRefusals([
      [ana, "PUT", "/api/2/user/u-ana/email-address/ana.home%40academy.test", 409, "email_address_in_use"],
      [ana, "PUT", "/api/2/user/u-ana/email-address/bob%40academy.test", 409, "email_address_in_use"],
      [ana, "PUT", "/api/2/user/u-ana/email-address/not-an-address", 400, "invalid_email_address"],
      [ana, "PUT", "/api/2/user/u-nobody/email-address/x%40academy.test", 404, "nonexistent_user"],
      [ana, "PUT", "/api/2/user/u-bob/email-address/bob.home%40academy.test", 403, "no_access"],
      // The interface's path, without the address, still names none.
      [ana, "PUT", "/api/2/user/u-ana/email-address/", 400, "missing_input"],
    ]);
  });
});
