import { describe, expect, it } from "vitest";
import { groupRedirects } from "../src/group-redirects.ts";
import { asOpenApiDocument } from "../src/openapi-document.ts";
import { withSandboxServer } from "../src/servers.ts";
import { splitRedocBundle } from "../src/shared-redoc.ts";
import { apiVersions } from "../src/site-header.ts";
import { acceptedEncodings, cacheControl } from "../src/static-server.ts";

const doc = (extra: Record<string, unknown>) =>
  asOpenApiDocument({ openapi: "3.1.0", info: { title: "t", version: "1" }, ...extra }, "inline");

describe("withSandboxServer", () => {
  it("shows the variable's default as the server and explains the variable in prose", () => {
    const out = withSandboxServer(
      doc({
        servers: [{ url: "{base_url}", variables: { base_url: { default: "http://127.0.0.1:4010" } } }],
      }),
    );
    expect(out.servers).toEqual([
      { url: "http://127.0.0.1:4010", description: "Local sandbox (default address)" },
    ]);
    expect(out.info.description).toContain("`base_url`");
    expect(out.info.description).toContain("npx -p @drill-practice/sandbox drill-sandbox");
  });
  it("fails without a templated server that has a default", () => {
    expect(() => withSandboxServer(doc({ servers: [{ url: "https://x" }] }))).toThrow(/default address/);
  });
});

describe("groupRedirects", () => {
  it("forwards each tag's path to its group, a shared tag to the newest version", () => {
    const [, v21, v20] = apiVersions as [unknown, (typeof apiVersions)[0], (typeof apiVersions)[0]];
    const pages = groupRedirects([
      {
        version: v21,
        bundle: doc({ "x-tagGroups": [{ name: "A", tags: ["v2.1-store", "authentication"] }] }),
      },
      {
        version: v20,
        bundle: doc({ "x-tagGroups": [{ name: "B", tags: ["v2.0-store", "authentication"] }] }),
      },
    ]);
    expect(pages.map((p) => [p.dir, p.target])).toEqual([
      ["v2.1-store", "../v2.1/index.html#/v2.1-store"],
      ["authentication", "../v2.1/index.html#/authentication"],
      ["v2.0-store", "../v2.0/index.html#/v2.0-store"],
    ]);
    expect(pages[0]?.html).toContain('http-equiv="refresh" content="0; url=../v2.1/index.html#/v2.1-store"');
  });

  it("leaves a guide's path to the guide: /authentication is the authentication guide", () => {
    const [, v21] = apiVersions as [unknown, (typeof apiVersions)[0]];
    const pages = groupRedirects(
      [
        {
          version: v21,
          bundle: doc({ "x-tagGroups": [{ name: "A", tags: ["v2.1-store", "authentication"] }] }),
        },
      ],
      ["index.html", "authentication.html"],
    );
    expect(pages.map((p) => [p.dir, p.target])).toEqual([
      ["v2.1-store", "../v2.1/index.html#/v2.1-store"],
      ["authentication", "../authentication.html"],
    ]);
    expect(pages[1]?.html).toContain("Go to the authentication guide");
  });
});

describe("splitRedocBundle", () => {
  const page = (code: string) =>
    `<html><head></head><body><script type="module">${code}export{RedocStandalone,hydrate,init};const __redoc_definition = {};hydrate();</script></body></html>`;
  it("moves the bundle to a file named by its content and imports it from the page", () => {
    const a = splitRedocBundle(page("const{hydrate}=1;"), "../");
    const b = splitRedocBundle(page("const{hydrate}=2;"), "../");
    expect(a.file).toMatch(/^assets\/redoc\.[0-9a-f]{16}\.js$/);
    expect(a.file).not.toBe(b.file);
    expect(a.html).toContain(
      `<script type="module">import { hydrate } from "../${a.file}";const __redoc_definition`,
    );
    expect(a.html).toContain(`<link rel="modulepreload" href="../${a.file}">`);
    expect(a.source).toBe("const{hydrate}=1;export{RedocStandalone,hydrate,init};\n");
  });
  it("fails when Redoc's page changes shape", () => {
    expect(() => splitRedocBundle("<html><script>x</script></html>", "../")).toThrow(/src\/shared-redoc\.ts/);
  });
});

describe("caching and encodings of docs:serve", () => {
  it("caches fingerprinted assets for good and revalidates the rest", () => {
    expect(cacheControl("assets/redoc.0123456789abcdef.js")).toBe("public, max-age=31536000, immutable");
    expect(cacheControl("v2.1/index.html")).toBe("no-cache");
    expect(cacheControl("assets/redoc.js")).toBe("no-cache");
  });
  it("reads Accept-Encoding, honouring q=0", () => {
    expect([...acceptedEncodings("gzip, deflate, br;q=0.5")]).toEqual(["gzip", "deflate", "br"]);
    expect([...acceptedEncodings("br;q=0, gzip")]).toEqual(["gzip"]);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });
});
