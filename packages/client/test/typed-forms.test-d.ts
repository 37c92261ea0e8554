/**
 * Form bodies that a reference page shows are typed (issue #45): an operation whose page lists no
 * parameters besides the URL takes the empty form, so any field is refused and the error names it;
 * an operation whose page names its fields takes exactly those.
 */
import { describe, expectTypeOf, it } from "vitest";
import { createDrillClient as v20 } from "../src/v2.0.js";
import { createDrillClient as v211 } from "../src/v2.1.1.js";
import { type components as components21, createDrillClient as v21 } from "../src/v2.1.js";
import { BASE_URL } from "./helpers.js";

const client211 = v211({ baseUrl: BASE_URL, throwOnError: true });
const client21 = v21({ baseUrl: BASE_URL, throwOnError: true });
const client20 = v20({ baseUrl: BASE_URL, throwOnError: true });

describe("form bodies that a page shows", () => {
  it("refuses any field where the page lists none besides the URL (2.1.1 staff permission, a path segment)", async () => {
    // REF …/api/2.1.1/endpoints/group-id-staff-id-id/put: group, user and permission are all in the URL.
    const url = "/api/2.1.1/group/{group}/staff/{user}/{permission}";
    const path = { group: "g-1", user: "u-1", permission: "VIEW" } as const;
    await client211.PUT(url, { params: { path } });
    // @ts-expect-error the permission is a path segment, not a form field: the empty form refuses it
    await client211.PUT(url, { params: { path }, body: { permisson: "VIEW" } });
    expectTypeOf<components21["schemas"]["EmptyForm"]>().toEqualTypeOf<Record<never, never>>();
  });

  it("takes the field the page names and refuses a misspelt one (2.1 organization staff)", async () => {
    // REF …/api/2.1.1/endpoints/organization-id-staff-id/put, same method and path as 2.1: the field name.
    const url = "/api/2.1/organization/{organization}/staff/{user}";
    const params = { path: { organization: "self", user: "jane@example.com" } };
    await client21.PUT(url, { params, body: { name: "Jane Doe" } });
    // @ts-expect-error a field the page does not name
    await client21.PUT(url, { params, body: { nmae: "Jane Doe" } });
  });

  it("takes the 2.0 test link's review date and reminder days and refuses a misspelt one", async () => {
    // REF …/api/2/endpoints/put-test-link: reviewDate and reminderDays, where the stored page is cut.
    const url = "/api/2/test/{test_id}/{type}/{id}";
    const params = { path: { test_id: "t-1", type: "GROUP", id: "g-1" } };
    await client20.PUT(url, { params, body: { reviewDate: "PER_USER", reminderDays: 3 } });
    // @ts-expect-error reminderDays is a number of days
    await client20.PUT(url, { params, body: { reminderDays: "three" } });
    // @ts-expect-error a field the page does not name
    await client20.PUT(url, { params, body: { reviewdate: "PER_USER" } });
  });

  it("refuses any field on a 2.1.1 email verification request, whose page lists only the URL", async () => {
    // REF …/api/2.1.1/endpoints/user-id-email-address-id-request-verification/post
    const url = "/api/2.1.1/user/{user}/email-address/{email}/request-verification";
    const params = { path: { user: "self", email: "jane@example.com" } };
    await client211.POST(url, { params });
    // @ts-expect-error the page lists no form field
    await client211.POST(url, { params, body: { email: "jane@example.com" } });
  });
  it("takes the repeated fields of forwarding playables and refuses a misspelt one (2.1)", async () => {
    // REF …/api/2.1.1/endpoints/playables-forward/put/, same method and path as 2.1.
    const url = "/api/2.1/playables/forward";
    await client21.PUT(url, { body: { playable: ["d-1", "d-2"], recipient: ["jane@example.com"] } });
    await client21.PUT(url, {
      body: { playable: ["d-1"], recipient: ["jane@example.com"], message: "Try these" },
    });
    // @ts-expect-error a field the page does not name
    await client21.PUT(url, { body: { playable: ["d-1"], recipient: ["jane@example.com"], mesage: "Hi" } });
    // @ts-expect-error recipient is required
    await client21.PUT(url, { body: { playable: ["d-1"] } });
  });

  it("takes a member's review date for a 2.1 group objective and requires both fields", async () => {
    // REF …/api/2.1.1/endpoints/group-id-objective-id/put, same method and path as 2.1: user and reviewDate.
    const url = "/api/2.1/group/{group}/objective/{objective}";
    const params = { path: { group: "g-1", objective: "o-1" } };
    await client21.PUT(url, { params, body: { user: "u-1", reviewDate: "2030-07-03T10:00:00Z" } });
    // @ts-expect-error reviewDate is required
    await client21.PUT(url, { params, body: { user: "u-1" } });
  });

  it("takes the client app fields of the 2.1.1 page and requires name and redirectionEndpoint (2.1)", async () => {
    // REF …/api/2.1.1/endpoints/client-app-id/put, same method and path as 2.1.
    const url = "/api/2.1/client-app/{client}";
    const params = { path: { client: "c-1" } };
    await client21.PUT(url, {
      params,
      body: {
        name: "Integration with LMS",
        redirectionEndpoint: "https://example.com/cb",
        url: "https://example.com",
      },
    });
    // @ts-expect-error redirectionEndpoint is required
    await client21.PUT(url, { params, body: { name: "Integration with LMS" } });
  });
});
