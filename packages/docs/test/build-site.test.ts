import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuiltSite, buildSite } from "../src/build-site.ts";
import { findRemoteReferences } from "../src/offline-assets.ts";
import { undocumentedLead } from "../src/operation-notes.ts";
import { fingerprintedAsset } from "../src/shared-redoc.ts";
import { readTryItPage } from "../src/try-it/page-config.ts";
import { embeddedDefinition } from "./helpers/site.ts";

const fixtures = join(import.meta.dirname, "fixtures");
const workDir = scratchDirForAll("drill-docs-build-");
let site: BuiltSite;

beforeAll(async () => {
  site = await buildSite({ specDir: fixtures, outDir: join(workDir(), "out") });
}, 120_000);

describe("buildSite from the fixture bundles", () => {
  it("writes the pages, one reference per version, one shared Redoc bundle and group redirects", () => {
    const bundle = site.versions[0]?.redocBundle ?? "";
    expect(bundle).toMatch(/^assets\/redoc\.[0-9a-f]{16}\.js$/);
    const pages = [
      "authentication.html",
      "changes.html",
      "check-integration.html",
      "errors.html",
      "favicon.svg",
      "index.html",
      "migrating.html",
      "redoc-credit.svg",
      "style.css",
      "v2.0/index.html",
      "v2.0/openapi.json",
      "v2.1/index.html",
      "v2.1/openapi.json",
      "v2.1.1/index.html",
      "v2.1.1/openapi.json",
      "versioning.html",
      bundle,
    ];
    for (const page of pages) expect(site.files, page).toContain(page);
    // The Try it panel: its script, the sandbox worker and one table per reference (with chunks).
    const tryIt = site.files.filter((file) => /^assets\/try-it[\w.-]*\.[0-9a-f]{16}\.(js|json)$/.test(file));
    for (const name of ["try-it", "try-it-sandbox", "try-it-v2.1.1", "try-it-v2.1", "try-it-v2.0"]) {
      expect(
        tryIt.some((file) => file.startsWith(`assets/${name}.`)),
        name,
      ).toBe(true);
    }
    // Every asset carries its content's hash, so docs:serve lets browsers keep it for good.
    expect(site.files.filter((file) => file.startsWith("assets/") && !fingerprintedAsset.test(file))).toEqual(
      [],
    );
    const redirects = site.files.filter((file) => !pages.includes(file) && !tryIt.includes(file));
    // The fixtures' tags, each a directory with a forwarding page.
    expect(redirects.sort()).toEqual(
      ["Practice", "Service", "Store", "token-exchange"].map((tag) => `${tag}/index.html`).sort(),
    );
    expect(
      site.versions.map(({ id, page, operations, noted, redocBundle }) => ({
        id,
        page,
        operations,
        noted,
        redocBundle,
      })),
    ).toEqual([
      { id: "2.1.1", page: "v2.1.1/index.html", operations: 5, noted: 2, redocBundle: bundle },
      { id: "2.1", page: "v2.1/index.html", operations: 5, noted: 2, redocBundle: bundle },
      { id: "2.0", page: "v2.0/index.html", operations: 5, noted: 2, redocBundle: bundle },
    ]);
  });

  it("gives each reference its Try it configuration, whose URLs lead to files the build wrote", async () => {
    for (const { page } of site.versions) {
      const { panel, config } = readTryItPage(await readFile(join(site.outDir, page), "utf8"), page);
      const named = [panel, config.operations, config.worker].map((url) => join(dirname(page), url));
      for (const file of named) expect(site.files, `${page} names ${file}`).toContain(file);
    }
  });

  it("precompresses every text file with brotli and gzip", async () => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    for (const file of ["index.html", "v2.1/index.html", site.versions[0]?.redocBundle ?? ""]) {
      const original = await readFile(join(site.outDir, file));
      expect(
        brotliDecompressSync(await readFile(join(site.outDir, `${file}.br`))).equals(original),
        file,
      ).toBe(true);
      expect(gunzipSync(await readFile(join(site.outDir, `${file}.gz`))).equals(original), file).toBe(true);
    }
  });

  it("fills the landing page's operation counts and the shared header", async () => {
    const index = await readFile(join(site.outDir, "index.html"), "utf8");
    expect(index).not.toMatch(/<!--\s*@/);
    // Five operations per fixture bundle, three of them under the version's prefix.
    expect(index.match(/· 3 operations/g)).toHaveLength(3);
    expect(index).toContain('<header class="site-header">');
  });

  it("renders each reference from its own bundle, with notes, the header and no CDN", async () => {
    for (const version of ["2.1", "2.0"]) {
      const html = await readFile(join(site.outDir, `v${version}`, "index.html"), "utf8");
      const definition = embeddedDefinition(html);
      // Redoc appends the version itself; the title's own copy of it is dropped.
      expect(definition.info.title).toBe("Fixture API");
      expect(definition.info.version).toBe(version);
      const store = definition.paths?.[version === "2.1" ? "/api/2.1/store" : "/api/2/store"]?.get as {
        description: string;
      };
      expect(store.description).toContain(undocumentedLead);
      expect(html).toContain(`aria-current="page" data-version="${version}"`);
      expect(findRemoteReferences(html)).toEqual([]);
      // Redoc's default output imports its script from the CDN as an ES module.
      expect(html).not.toMatch(/\bfrom\s*["'](?:https?:)?\/\//);
      expect(html).toContain("<title>API ");
    }
  });

  it("ships the unmodified bundle for download", async () => {
    const shipped = JSON.parse(await readFile(join(site.outDir, "v2.1", "openapi.json"), "utf8"));
    const original = JSON.parse(await readFile(join(fixtures, "openapi-v2.1.json"), "utf8"));
    expect(shipped).toEqual(original);
  });
});

describe("buildSite refuses bad input", () => {
  it("names the missing bundle", async () => {
    const empty = join(workDir(), "empty");
    await mkdir(empty, { recursive: true });
    await expect(buildSite({ specDir: empty, outDir: join(workDir(), "never") })).rejects.toThrow(
      /cannot read the bundle .*openapi-v2\.1\.1\.json/,
    );
  });

  it("rejects a version bundle that holds another version's paths", async () => {
    const mixed = join(workDir(), "mixed");
    await mkdir(mixed, { recursive: true });
    await copyFile(join(fixtures, "openapi-v2.1.1.json"), join(mixed, "openapi-v2.1.1.json"));
    await copyFile(join(fixtures, "openapi-v2.1.json"), join(mixed, "openapi-v2.1.json"));
    const v20 = JSON.parse(await readFile(join(fixtures, "openapi-v2.0.json"), "utf8"));
    v20.paths["/api/2.1/store"] = v20.paths["/api/2/store"];
    await writeFile(join(mixed, "openapi-v2.0.json"), JSON.stringify(v20));
    await expect(buildSite({ specDir: mixed, outDir: join(workDir(), "never") })).rejects.toThrow(
      "paths outside /api/2/ in the 2.0 bundle: /api/2.1/store",
    );
  });
});
