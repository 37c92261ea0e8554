import { describe, expect, it } from "vitest";
import { BOB_ON_STAFF_DATA, clientAs, expectRefusals, expectRefused, start } from "../support/helpers.js";

const BEACON = "07212ead-8344-4426-8b41-8b0cb621625a_0000_0001";
const BEACON_FIELDS = {
  playableType: "DRILL",
  playableId: "es-colours",
  proximity: "NEAR",
  lingerDuration: "PT5M",
};

describe("beacons", () => {
  it("stores, reads, lists, replaces and deletes a beacon of the organization", async () => {
    const sandbox = await start({ data: BOB_ON_STAFF_DATA });
    const sa = await clientAs(sandbox);
    const stored = await sa("PUT", `/api/2.1/beacon/${BEACON}`, { body: BEACON_FIELDS });
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({});
    const read = await sa("GET", `/api/2.1/beacon/${BEACON}`);
    expect(read.body).toEqual({
      id: BEACON,
      proximity: "NEAR",
      lingerDuration: "PT5M",
      playable: { type: "DRILL", id: "es-colours", name: "Spanish colours", icon: {} },
    });
    await sa("PUT", `/api/2.1/beacon/${BEACON}`, {
      body: { ...BEACON_FIELDS, proximity: "FAR", playableId: "es-animals" },
    });
    const bob = await clientAs(sandbox, "u-bob");
    const listed = await bob("GET", "/api/2.1/beacons");
    expect(listed.body).toMatchObject({
      total: 1,
      beacons: [{ id: BEACON, proximity: "FAR", playable: { id: "es-animals" } }],
    });
    const bobStores = await bob("PUT", `/api/2.1/beacon/${BEACON}`, { body: BEACON_FIELDS });
    expectRefused(bobStores, 403, "not_permitted");
    // The page shows no answer; the beacons family answers `{}`, as the PUT beacon page does.
    const deleted = await sa("DELETE", `/api/2.1/beacon/${BEACON}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    const gone = await sa("GET", `/api/2.1/beacon/${BEACON}`);
    expectRefused(gone, 404, "beacon_not_found");
  });

  it("answers invalid_id, playable_not_found and not_permitted", async () => {
    const sandbox = await start();
    const sa = await clientAs(sandbox);
    const ana = await clientAs(sandbox, "u-ana");
    await expectRefusals([
      [sa, "GET", "/api/2.1/beacon/beacon-1", 400, "invalid_id"],
      [
        sa,
        "PUT",
        `/api/2.1/beacon/${BEACON}`,
        404,
        "playable_not_found",
        { body: { ...BEACON_FIELDS, playableType: "COURSE" } },
      ],
      [ana, "GET", "/api/2.1/beacons", 403, "not_permitted"],
    ]);
  });
});

describe("client apps", () => {
  it("creates a client app with a secret shown once, lists it, reads and deletes it in 2.1", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const created = await ana("POST", "/api/2/client-apps", {
      body: { name: "LMS link", redirectionEndpoint: "https://lms.example/callback", description: "d" },
    });
    expect(created.status).toBe(200);
    const app = created.body as { id: string; secret: string };
    expect(created.body).toMatchObject({
      name: "LMS link",
      description: "d",
      redirectionEndpoint: "https://lms.example/callback",
      creator: { id: "u-ana" },
    });
    expect(app.secret).toMatch(/^[0-9a-f-]{36}$/);
    const listed = (await ana("GET", "/api/2/client-apps")).body as { id: string; secret?: string }[];
    expect(listed.map((a) => a.id)).toEqual([app.id]);
    expect(listed[0]?.secret).toBeUndefined();
    expect((await ana("GET", `/api/2.1/client-app/${app.id}`)).body).toMatchObject({
      id: app.id,
      name: "LMS link",
    });
    const sa = await clientAs(sandbox);
    expect((await sa("GET", `/api/2.1/client-app/${app.id}`)).status).toBe(404);
    expect((await ana("DELETE", `/api/2.1/client-app/${app.id}`)).status).toBe(200);
    expect((await ana("GET", "/api/2.1/client-apps")).body).toEqual([]);
  });

  it("answers invalid_name and invalid_redirection_uri", async () => {
    const sandbox = await start();
    const sa = await clientAs(sandbox);
    await expectRefusals([
      [
        sa,
        "POST",
        "/api/2/client-apps",
        400,
        "invalid_name",
        { body: { name: " ", redirectionEndpoint: "https://x.example/" } },
      ],
      [
        sa,
        "POST",
        "/api/2/client-apps",
        400,
        "invalid_redirection_uri",
        { body: { name: "A", redirectionEndpoint: "not a url" } },
      ],
    ]);
  });
});

describe("push devices", () => {
  it("registers a device (204) and answers the page's identifiers for what is missing or unsupported", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const registered = await ana("PUT", "/api/2/mobile-push-notification-subscription", {
      body: { platform: "IOS", token: "device-token-1" },
    });
    expect(registered.status).toBe(204);
    const cases: [Record<string, string>, string][] = [
      [{ token: "t" }, "no_platform_specified"],
      [{ platform: "WINDOWS", token: "t" }, "unsupported_platform"],
      [{ platform: "ANDROID" }, "no_token_specified"],
    ];
    for (const [body, id] of cases) {
      const res = await ana("PUT", "/api/2/mobile-push-notification-subscription", { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ID: id });
    }
    // The 2.1 path form reaches the same registrations; like the 2.0 page's register, it answers 204
    // with no body (the family's one rule where a page shows no answer).
    const removed = await ana("DELETE", "/api/2.1/mobile-push-notification-subscription/IOS/device-token-1");
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    const added = await ana("PUT", "/api/2.1/mobile-push-notification-subscription/ANDROID/device-token-2");
    expect(added.status).toBe(204);
    const again = await ana("DELETE", "/api/2.1/mobile-push-notification-subscription/IOS/device-token-1");
    expect(again.status).toBe(404);
  });
});

describe("push devices at the 2.0 page's path (REF …/api/2/endpoints/put-mobile-push-notification-subscription)", () => {
  it("registers the path's platform and address (204, no body), once however often sent", async () => {
    const sandbox = await start();
    const ana = await clientAs(sandbox, "u-ana");
    const path = "/api/2/mobile-push-notification-subscription/IOS/3eb414627e78991ac5a615b4a2a95454";
    const registered = await ana("PUT", path);
    expect([registered.status, registered.body]).toEqual([204, undefined]);
    expect((await ana("PUT", path)).status).toBe(204);
    expectRefused(
      await ana("PUT", "/api/2/mobile-push-notification-subscription/WINDOWS/device-token-3"),
      400,
      "unsupported_platform",
    );
    // The registration is the one the 2.1 path removes: once, then it is gone (no duplicate was kept),
    // and the refused platform registered nothing.
    const device = "/api/2.1/mobile-push-notification-subscription/IOS/3eb414627e78991ac5a615b4a2a95454";
    expect((await ana("DELETE", device)).status).toBe(204);
    expect((await ana("DELETE", device)).status).toBe(404);
    expect(
      (await ana("DELETE", "/api/2.1/mobile-push-notification-subscription/WINDOWS/device-token-3")).status,
    ).toBe(404);
  });
});
