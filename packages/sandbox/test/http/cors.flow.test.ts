/**
 * CORS for trusted origins (`corsOrigins`): what a browser asks and reads when a page of another origin
 * (the docs' Try it, a front end) calls the sandbox. A browser enforces the answer; these tests send
 * what it sends (`Origin`, the preflight's `Access-Control-Request-*`) and check what it would read.
 */
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { createSandbox, SandboxOptionError, startSandbox } from "../../src/index.js";
import { sandboxHandlers } from "../../src/msw.js";
import { client, DOOR, start, type TestSandbox, tokenFor } from "../support/helpers.js";

const DOCS = "http://127.0.0.1:8080";
const OTHER = "http://127.0.0.1:8081";

function preflight(sandbox: TestSandbox, path: string, origin: string, method: string, headers: string) {
  return sandbox.fetch(`${sandbox.url}${path}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": headers,
    },
  });
}

/** The CORS headers of an answer, by name. */
function corsHeaders(res: { headers: Headers }): Record<string, string> {
  return Object.fromEntries(
    [...res.headers].filter(([name]) => name.startsWith("access-control-") || name === "vary"),
  );
}

describe("a sandbox that trusts an origin", () => {
  it("answers a preflight from it 204 with the path's methods and the requested headers it takes", async () => {
    const sandbox = await start({ corsOrigins: [DOCS, "http://localhost:8080"] });
    const res = await preflight(sandbox, "/api/2.1/groups", DOCS, "POST", "authorization,content-type");
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({
      "access-control-allow-origin": DOCS,
      "access-control-allow-methods": "GET, HEAD, POST",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-max-age": "600",
      vary: "Origin",
    });
    // The other trusted origin is named as itself, never as the first one or "*".
    const localhost = await preflight(
      sandbox,
      "/api/2.1/version",
      "http://localhost:8080",
      "GET",
      "authorization",
    );
    expect(localhost.headers.get("access-control-allow-origin")).toBe("http://localhost:8080");
    expect(localhost.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
  });

  it("leaves out of a preflight a header the sandbox does not read, so the browser refuses to send it", async () => {
    const sandbox = await start({ corsOrigins: [DOCS] });
    const res = await preflight(sandbox, "/api/2.1/version", DOCS, "GET", "authorization, x-secret-header");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toBe("authorization");
  });

  it("lets the page read its answers: a success and the errors, with the headers a client reads", async () => {
    const sandbox = await start({ corsOrigins: [DOCS] });
    const token = await tokenFor(sandbox);
    const api = client(sandbox, token);
    const ok = await api("GET", "/api/2.1/version", { headers: { origin: DOCS } });
    expect(ok.status).toBe(200);
    expect(corsHeaders(ok)).toEqual({ "access-control-allow-origin": DOCS, vary: "Origin" });

    const unauthorized = await client(sandbox, undefined)("GET", "/api/2.1/version", {
      headers: { origin: DOCS },
    });
    expect(unauthorized.status).toBe(401);
    expect(corsHeaders(unauthorized)).toEqual({
      "access-control-allow-origin": DOCS,
      "access-control-expose-headers": "www-authenticate",
      vary: "Origin",
    });

    const notFound = await api("GET", "/api/2.1/no-such-thing", { headers: { origin: DOCS } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("access-control-allow-origin")).toBe(DOCS);

    sandbox.injectFault({ operationId: "getVersion_v2_1", status: 429, retryAfter: 3 });
    const limited = await api("GET", "/api/2.1/version", { headers: { origin: DOCS } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("access-control-allow-origin")).toBe(DOCS);
    expect(limited.headers.get("access-control-expose-headers")).toBe("retry-after");

    const notSimulated = await api("POST", "/api/2.1/drills/upload", {
      headers: { origin: DOCS, "content-type": "multipart/form-data; boundary=x" },
    });
    expect(notSimulated.status).toBe(501);
    expect(notSimulated.headers.get("access-control-allow-origin")).toBe(DOCS);
  });

  it("gives another origin no CORS header, and does not allow its preflight", async () => {
    const sandbox = await start({ corsOrigins: [DOCS] });
    const res = await preflight(sandbox, "/api/2.1/version", OTHER, "GET", "authorization");
    expect(res.status).toBe(405);
    expect(corsHeaders(res)).toEqual({});
    const token = await tokenFor(sandbox);
    const answer = await client(sandbox, token)("GET", "/api/2.1/version", { headers: { origin: OTHER } });
    expect(answer.status).toBe(200);
    expect(corsHeaders(answer)).toEqual({});
  });
});

describe("a sandbox started without corsOrigins", () => {
  it("sends no CORS header to any origin, as before the option", async () => {
    const sandbox = await start();
    const res = await preflight(sandbox, "/api/2.1/version", DOCS, "GET", "authorization");
    expect(res.status).toBe(405);
    expect(corsHeaders(res)).toEqual({});
    const unauthorized = await client(sandbox, undefined)("GET", "/api/2.1/version", {
      headers: { origin: DOCS },
    });
    expect(unauthorized.status).toBe(401);
    expect(corsHeaders(unauthorized)).toEqual({});
  });
});

describe("corsOrigins: the rule", () => {
  it.each([
    ["http://127.0.0.1:8080/", "trailing slash"],
    ["http://127.0.0.1:8080/docs", "a path"],
    ["127.0.0.1:8080", "no scheme"],
    ["ftp://example.test", "not http"],
    ["*", "a wildcard"],
  ])("refuses %j (%s), naming the option, the entry and the rule", async (origin) => {
    const started =
      DOOR === "http" ? startSandbox({ corsOrigins: [origin] }) : createSandbox({ corsOrigins: [origin] });
    const error = await started.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SandboxOptionError);
    expect((error as Error).message).toBe(
      `corsOrigins[0]: must be an origin, scheme://host[:port] with an http: or https: scheme and no path, query, fragment, credentials or trailing slash (such as http://127.0.0.1:8080) (got ${JSON.stringify(origin)})`,
    );
  });
});

describe("through MSW", () => {
  // MSW intercepts the global fetch of the whole process: once is enough, whichever door this run tests.
  (DOOR === "in-process" ? it : it.skip)("answers the same CORS headers as the other doors", async () => {
    const sandbox = await createSandbox({ corsOrigins: [DOCS] });
    const server = setupServer(...sandboxHandlers(sandbox));
    server.listen({ onUnhandledRequest: "error" });
    try {
      const res = await fetch(`${sandbox.url}/api/2.1/version`, { headers: { origin: DOCS } });
      expect(res.status).toBe(401);
      expect(corsHeaders(res)).toEqual({
        "access-control-allow-origin": DOCS,
        "access-control-expose-headers": "www-authenticate",
        vary: "Origin",
      });
    } finally {
      server.close();
    }
  });
});
