/**
 * The client app operations that answered a static example before (issue #47): 2.1's create, update
 * and per-user list, 2.0's read and update of the one app its path addresses. The answers follow the
 * ClientApp object pages (REF …/api/2/objects/client-app, …/api/2.1.1/objects/client-app/): new apps
 * start EXPERIMENTAL, the secret is shown only to its owner (here: only when registered).
 */
import { describe, expect, it } from "vitest";
import { client, expectRefusals, start, tokenFor } from "../support/helpers.js";

const APP = { name: "LMS link", redirectionEndpoint: "https://lms.example/callback", description: "d" };

describe("2.1 client apps (REF …/api/2.1.1/objects/client-app/)", () => {
  it("registers an app with a secret shown once, changes it by ID, and lists it for its user", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const created = await ana("POST", "/api/2.1/client-apps", { body: APP });
    expect(created.status).toBe(200);
    expect(created.headers.get("Drill-Sandbox-Example")).toBeNull();
    const app = created.body as { id: string; secret: string };
    expect(created.body).toMatchObject({
      ...APP,
      status: "EXPERIMENTAL",
      creator: { type: "USER", id: "u-ana", name: "Ana" },
    });
    expect(app.secret).toMatch(/^[0-9a-f-]{36}$/);
    // The 2.1.1 PUT client-app page: `name` and `redirectionEndpoint` are required.
    const changed = await ana("PUT", `/api/2.1/client-app/${app.id}`, {
      body: { name: "LMS bridge", redirectionEndpoint: APP.redirectionEndpoint, url: "https://lms.example/" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: app.id,
      name: "LMS bridge",
      url: "https://lms.example/",
      redirectionEndpoint: APP.redirectionEndpoint,
    });
    expect(changed.body).not.toHaveProperty("secret");
    expect((await ana("GET", `/api/2.1/client-app/${app.id}`)).body).toMatchObject({ name: "LMS bridge" });
    const listed = await ana("GET", "/api/2.1/client-apps/u-ana");
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject([{ id: app.id, name: "LMS bridge", status: "EXPERIMENTAL" }]);
    expect((listed.body as object[])[0]).not.toHaveProperty("secret");
    expect((await ana("GET", "/api/2.1/client-apps/ana%40academy.test")).body).toEqual(listed.body);
  });

  it("refuses as the 2.0 POST client-apps page names its errors, and keeps other users' apps apart", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    const { id } = (await ana("POST", "/api/2.1/client-apps", { body: APP })).body as { id: string };
    await expectRefusals([
      [ana, "POST", "/api/2.1/client-apps", 400, "invalid_name", { body: { ...APP, name: " " } }],
      [
        ana,
        "POST",
        "/api/2.1/client-apps",
        400,
        "invalid_name",
        { body: { redirectionEndpoint: "https://x.example/" } },
      ],
      [ana, "POST", "/api/2.1/client-apps", 400, "invalid_redirection_uri", { body: { name: "A" } }],
      [
        ana,
        "PUT",
        `/api/2.1/client-app/${id}`,
        400,
        "invalid_redirection_uri",
        { body: { name: "A", redirectionEndpoint: "nope" } },
      ],
      [
        ana,
        "PUT",
        `/api/2.1/client-app/${id}`,
        400,
        "invalid_icon_key",
        { body: { name: "A", redirectionEndpoint: "https://x.example/", iconKey: "k" } },
      ],
      [
        bob,
        "PUT",
        `/api/2.1/client-app/${id}`,
        404,
        "not_found",
        { body: { name: "Mine now", redirectionEndpoint: "https://x.example/" } },
      ],
      [bob, "GET", "/api/2.1/client-apps/u-ana", 403, "no_permission"],
      [bob, "GET", "/api/2.1/client-apps/u-nobody", 404, "not_found"],
    ]);
    expect((await bob("GET", "/api/2.1/client-apps/u-bob")).body).toEqual([]);
    expect((await ana("GET", `/api/2.1/client-app/${id}`)).body).toMatchObject({ name: APP.name });
  });
});

describe("2.0 client app (REF …/api/2/objects/client-app)", () => {
  it("reads and changes the acting user's one app; none is not_found, several client_missing", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    await expectRefusals([[ana, "GET", "/api/2/client-app", 404, "not_found"]]);
    const { id } = (await ana("POST", "/api/2/client-apps", { body: APP })).body as { id: string };
    const read = await ana("GET", "/api/2/client-app");
    expect(read.status).toBe(200);
    expect(read.headers.get("Drill-Sandbox-Example")).toBeNull();
    expect(read.body).toMatchObject({ id, ...APP, status: "EXPERIMENTAL", creator: { id: "u-ana" } });
    expect(read.body).not.toHaveProperty("secret");
    const changed = await ana("PUT", "/api/2/client-app", { body: { description: "The LMS bridge" } });
    expect(changed.body).toMatchObject({ id, name: APP.name, description: "The LMS bridge" });
    expect((await ana("GET", `/api/2.1/client-app/${id}`)).body).toMatchObject({
      description: "The LMS bridge",
    });
    await ana("POST", "/api/2/client-apps", { body: { ...APP, name: "Second" } });
    await expectRefusals([
      [ana, "GET", "/api/2/client-app", 400, "client_missing"],
      [ana, "PUT", "/api/2/client-app", 400, "client_missing", { body: { name: "X" } }],
    ]);
  });
});

describe("2.0 client app by its ID in the path (REF …/api/2/endpoints/put-client-app)", () => {
  it("changes the app the path names, with the page's form and status codes, among several of the user's", async () => {
    const sandbox = await start();
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const bob = client(sandbox, await tokenFor(sandbox, "u-bob"));
    const first = (await ana("POST", "/api/2/client-apps", { body: APP })).body as { id: string };
    const second = (await ana("POST", "/api/2/client-apps", { body: { ...APP, name: "Second" } })).body as {
      id: string;
    };
    // With two apps the interface's path names none; the page's path names the one to change.
    const changed = await ana("PUT", `/api/2/client-app/${second.id}`, {
      body: {
        name: "LMS bridge",
        redirectionEndpoint: "https://lms.example/back",
        url: "https://lms.example/",
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id: second.id,
      name: "LMS bridge",
      redirectionEndpoint: "https://lms.example/back",
      url: "https://lms.example/",
      status: "EXPERIMENTAL",
      creator: { id: "u-ana" },
    });
    expect(changed.body).not.toHaveProperty("secret");
    expect((await ana("GET", `/api/2.1/client-app/${second.id}`)).body).toMatchObject({ name: "LMS bridge" });
    expect((await ana("GET", `/api/2.1/client-app/${first.id}`)).body).toMatchObject({ name: APP.name });
    const form = { name: "A", redirectionEndpoint: "https://x.example/" };
    await expectRefusals([
      [ana, "PUT", "/api/2/client-app/app-none", 404, "not_found", { body: form }],
      [bob, "PUT", `/api/2/client-app/${first.id}`, 403, "not_permitted", { body: form }],
      [ana, "PUT", `/api/2/client-app/${first.id}`, 400, "invalid_name", { body: { ...form, name: " " } }],
      [
        ana,
        "PUT",
        `/api/2/client-app/${first.id}`,
        400,
        "invalid_redirection_uri",
        { body: { ...form, redirectionEndpoint: "nope" } },
      ],
      [
        ana,
        "PUT",
        `/api/2/client-app/${first.id}`,
        400,
        "invalid_application_url",
        { body: { ...form, url: "lms.example" } },
      ],
    ]);
    // Refused changes leave the app as it was.
    expect((await ana("GET", `/api/2.1/client-app/${first.id}`)).body).toMatchObject({
      name: APP.name,
      redirectionEndpoint: APP.redirectionEndpoint,
    });
  });
});
