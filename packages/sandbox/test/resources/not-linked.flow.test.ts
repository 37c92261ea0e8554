/**
 * `not_linked_to_organization` answers 401 wherever it is answered (issue #47): the pages that give
 * its status (GET catalog, DELETE catalog, GET organization groups, GET organization accounts) say 401
 * (Unauthorized); GET organization (REF …/api/2/endpoints/get-organization, …/api/2.1.1/endpoints/organization-id/get)
 * names it without a status, and the sandbox answers it as those pages do.
 */
import { describe, it } from "vitest";
import { client, expectRefusals, SMALL_DATA, start, tokenFor } from "../support/helpers.js";

describe("not_linked_to_organization", () => {
  it("answers 401 to a user of no organization asking for their own organization, in every version", async () => {
    const sandbox = await start();
    // A token can only be had for a user of the service account's organization; issued tokens outlive
    // a restore, so Ana's token acts for her after the data no longer links her to any organization.
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    sandbox.restore({
      ...SMALL_DATA,
      users: SMALL_DATA.users.map((user) => {
        if (user.id !== "u-ana") return user;
        const { organizationId: _, ...unlinked } = user;
        return unlinked;
      }),
    });
    await expectRefusals([
      [ana, "GET", "/api/2/organization", 401, "not_linked_to_organization"],
      [ana, "GET", "/api/2.1/organization", 401, "not_linked_to_organization"],
      [ana, "GET", "/api/2.1.1/organization", 401, "not_linked_to_organization"],
      [ana, "GET", "/api/2/organization/org-1", 401, "not_linked_to_organization"],
      // The page of this one gives the status itself (GET organization groups, 401).
      [ana, "GET", "/api/2.1.1/organization/self/groups", 401, "not_linked_to_organization"],
    ]);
  });
});
