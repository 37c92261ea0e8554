import { afterEach, describe, expect, it, vi } from "vitest";
import { client, sharedSandbox, start, tokenFor } from "../support/helpers.js";

const shared = sharedSandbox();

afterEach(() => {
  vi.useRealTimers();
});

describe("bearer tokens on API operations", () => {
  it("answers 401 not_authenticated with WWW-Authenticate when no token is sent", async () => {
    // The 2.0 Error object page's example is `not_authenticated`; the store page lists no identifier
    // for it, so the sandbox answers that one.
    const res = await client(shared(), undefined)("GET", "/api/2.1/store?query=spanish");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="drill-sandbox"/);
    expect(res.body).toMatchObject({ ID: "not_authenticated", id: "not_authenticated" });
  });

  it("answers the identifier an operation's page lists for a call without a token", async () => {
    const anonymous = client(shared(), undefined);
    // The 2.1.1 group page lists `unauthenticated` with 401.
    const group = await anonymous("GET", "/api/2.1.1/group/g-evening");
    expect(group.status).toBe(401);
    expect(group.body).toMatchObject({ ID: "unauthenticated", id: "unauthenticated" });
    // The 2.1 e-mail address page lists `not_authenticated` with 401.
    const email = await anonymous("GET", "/api/2.1/user/u-ana/email-addresses");
    expect(email.status).toBe(401);
    expect(email.body).toMatchObject({ ID: "not_authenticated" });
  });

  it("answers 401 to an unknown token and to a malformed Authorization header", async () => {
    const unknown = await client(shared(), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")(
      "GET",
      "/api/2.1/version",
    );
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(unknown.body).toMatchObject({
      ID: "not_authenticated",
      id: "not_authenticated",
      description: "access token: not issued by this sandbox",
    });

    const basic = await shared().fetch(`${shared().url}/api/2.1/version`, {
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get("www-authenticate")).toContain('error="invalid_request"');
  });

  it.each([
    // What `Authorization: Bearer $(drill-token)` sends when drill-token failed.
    [
      "Bearer ",
      "Authorization: Bearer with an empty access token (did the command that prints the token fail?)",
    ],
    [
      "OAuth",
      "Authorization: OAuth with an empty access token (did the command that prints the token fail?)",
    ],
    ["Basic dXNlcjpwYXNz", "Authorization: unknown scheme Basic; send Bearer <token> (or OAuth <token>)"],
    [
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "Authorization: no scheme word before the access token; send Bearer <token> (or OAuth <token>)",
    ],
    [
      "Bearer two words",
      "Authorization: the access token after Bearer must be one word of letters, digits and -._~+/ (then = padding)",
    ],
  ])("says exactly what is wrong with Authorization: %j", async (header, description) => {
    const res = await shared().fetch(`${shared().url}/api/2.1/version`, {
      headers: { authorization: header },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_request"');
    const body = (await res.json()) as { ID: string; description: string };
    expect(body).toMatchObject({ ID: "not_authenticated", description });
    // A token given without a scheme word is not repeated back.
    expect(JSON.stringify(body)).not.toContain("AAAAAAAAAAAAAAAA");
  });

  it("accepts the scheme word OAuth as well as Bearer, as the service does", async () => {
    const token = await tokenFor(shared(), "u-ana");
    for (const scheme of ["Bearer", "OAuth"]) {
      const res = await client(shared(), token, scheme)("GET", "/api/2.1/session");
      expect(res.status, scheme).toBe(200);
      expect(res.body, scheme).toMatchObject({ user: { id: "u-ana" } });
    }
  });

  it("refuses other spellings of the scheme words, which the service treats as case-sensitive", async () => {
    const token = await tokenFor(shared(), "u-ana");
    for (const scheme of ["bearer", "BEARER", "oauth", "Oauth"]) {
      const res = await client(shared(), token, scheme)("GET", "/api/2.1/session");
      expect(res.status, scheme).toBe(401);
      expect(res.headers.get("www-authenticate"), scheme).toContain('error="invalid_request"');
      expect((res.body as { description: string }).description, scheme).toBe(
        `Authorization: must be Bearer or OAuth followed by an access token (the scheme word is case-sensitive: write "Bearer" or "OAuth", not "${scheme}")`,
      );
    }
  });

  it("answers 401 to a token that has expired", async () => {
    const sandbox = await start({ tokenLifetimeSeconds: 60 });
    const token = await tokenFor(sandbox);
    const api = client(sandbox, token);
    expect((await api("GET", "/api/2.1/version")).status).toBe(200);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 59_000);
    expect((await api("GET", "/api/2.1/version")).status).toBe(200);
    vi.setSystemTime(Date.now() + 2_000);
    const expired = await api("GET", "/api/2.1/version");
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({
      ID: "not_authenticated",
      message: "access token: has expired; request a new one",
    });
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("does not accept a token of another sandbox", async () => {
    const other = await start();
    const token = await tokenFor(other);
    expect((await client(shared(), token)("GET", "/api/2.1/version")).status).toBe(401);
  });

  it("acts as the token's subject", async () => {
    const sandbox = shared();
    const ana = client(sandbox, await tokenFor(sandbox, "hr-1001"));
    const bob = client(sandbox, await tokenFor(sandbox, "bob@academy.test"));
    expect((await ana("GET", "/api/2.1/session")).body).toMatchObject({ user: { id: "u-ana" } });
    expect((await bob("GET", "/api/2.1/session")).body).toMatchObject({ user: { id: "u-bob" } });
    // Catalog access follows the acting user: Ana is on the catalog's list, Bob is not.
    expect((await ana("GET", "/api/2.1/store?catalog=cat-business")).status).toBe(200);
    expect((await bob("GET", "/api/2.1/store?catalog=cat-business")).body).toMatchObject({
      ID: "catalog_access_denied",
    });
  });

  it("checks the token before validating the request", async () => {
    const res = await client(shared(), undefined)("GET", "/api/2.1/store?resultSize=abc");
    expect(res.status).toBe(401);
  });
});
