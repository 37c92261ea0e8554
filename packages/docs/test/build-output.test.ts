/**
 * Checks of the built site in `dist/` (no browser): every file is there, nothing loads from
 * another origin, and every operation the spec marks with `x-undocumented` carries the visible
 * note in the reference.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findRemoteReferences } from "../src/offline-assets.ts";
import { listOperations } from "../src/openapi-document.ts";
import { observedLead, undocumentedNoteHtml } from "../src/operation-notes.ts";
import { apiVersions } from "../src/site-header.ts";
import { assertSiteBuilt, distDir, embeddedDefinition, loadBundle, sitePages } from "./helpers/site.ts";

const read = (file: string) => readFile(join(distDir, file), "utf8");

beforeAll(assertSiteBuilt);

describe("built site", () => {
  it("has every page and asset", async () => {
    const expected = [
      ...sitePages.map((page) => page.path),
      "style.css",
      "favicon.svg",
      "redoc-credit.svg",
      ...apiVersions.map((version) => `${version.dir}/openapi.json`),
    ];
    for (const file of expected) {
      const info = await stat(join(distDir, file)).catch(() => undefined);
      expect(info?.size ?? 0, file).toBeGreaterThan(0);
    }
  });

  it.each(sitePages)("$path loads nothing from another origin", async ({ path }) => {
    const html = await read(path);
    expect(findRemoteReferences(html)).toEqual([]);
    expect(html).not.toMatch(/<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/\bfrom\s*["'](?:https?:)?\/\//);
    expect(html).not.toMatch(/fonts\.googleapis|fonts\.gstatic/);
    // Redoc's side bar credit would load its logo from here (see src/offline-assets.ts).
    expect(html).not.toContain("cdn.redoc.ly");
  });

  it("has a stylesheet without remote imports or fonts", async () => {
    const css = await read("style.css");
    expect(findRemoteReferences(css)).toEqual([]);
    expect(css).not.toMatch(/@font-face/);
  });

  it.each(sitePages)("$path has a title, the favicon, the stylesheet and the header", async ({ path }) => {
    const html = await read(path);
    const prefix = path.includes("/") ? "../" : "";
    expect(html).toMatch(/<title>[^<]*Drill Practice API[^<]*<\/title>/);
    expect(html).toContain(`<link rel="icon" href="${prefix}favicon.svg" type="image/svg+xml">`);
    expect(html).toContain(`<link rel="stylesheet" href="${prefix}style.css">`);
    expect(html).toContain('<nav class="version-switch" aria-label="API version">');
    expect(html).not.toMatch(/<!--\s*@/);
  });
});

describe.each(apiVersions)("reference $id", (version) => {
  it("embeds this version's bundle, each x-undocumented operation with its visible note", async () => {
    const bundle = await loadBundle(version);
    const embedded = embeddedDefinition(await read(`${version.dir}/index.html`));
    const embeddedOps = new Map(
      listOperations(embedded).map((entry) => [`${entry.method} ${entry.path}`, entry.operation]),
    );
    const bundleOps = listOperations(bundle);
    expect(embeddedOps.size).toBe(bundleOps.length);

    const shownSchemaTitles = new Map(
      Object.entries(
        (embedded.components as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {},
      ).map(([name, schema]) => [name, (schema as { title?: string }).title]),
    );
    let marked = 0;
    for (const { method, path, operation } of bundleOps) {
      const shown = embeddedOps.get(`${method} ${path}`);
      expect(shown, `${method} ${path}`).toBeDefined();
      const marker = operation["x-undocumented"];
      if (marker === undefined) continue;
      marked++;
      // The reader gets the note; the raw marker, which Redoc renders nowhere, is not inlined.
      expect(shown, `${method} ${path}`).not.toHaveProperty("x-undocumented");
      expect(
        shown?.description?.startsWith(undocumentedNoteHtml(marker as string[])),
        `${method} ${path}`,
      ).toBe(true);
      // One note per operation: the lead appears once, and no internal wording reaches the reader.
      expect(shown?.description?.split("Not shown by the interface:").length, `${method} ${path}`).toBe(2);
      expect(shown?.summary ?? "", `${method} ${path}`).not.toMatch(/function not given|_v2_[01]/);
      expect(shown?.description ?? "", `${method} ${path}`).not.toMatch(/x-undocumented/);
      // No operationId reaches the reader; a versioned name left in the prose is a schema of this
      // reference that Redoc shows under that very title.
      for (const [name] of (shown?.description ?? "").matchAll(/\b\w+_v2_[01]\b/g)) {
        expect(shownSchemaTitles.get(name), `${method} ${path}: ${name}`).toBe(name);
      }
      expect(shown?.["x-codeSamples"], `${method} ${path}`).toHaveLength(2);
    }
    // The spec marks operations whose shapes are not shown; a bundle without any would mean the
    // note check above ran on nothing.
    expect(marked).toBeGreaterThan(0);
  });

  it("inlines for Redoc only what it renders: observed facts as notes, no raw markers, no empty path items", async () => {
    const bundle = await loadBundle(version);
    const html = await read(`${version.dir}/index.html`);
    const embedded = embeddedDefinition(html);
    const shownOps = new Map(
      listOperations(embedded).map((entry) => [`${entry.method} ${entry.path}`, entry.operation]),
    );
    let observed = 0;
    for (const { method, path, operation } of listOperations(bundle)) {
      const fact = operation["x-observed"] as { note: string } | undefined;
      if (fact === undefined) continue;
      observed++;
      const description = shownOps.get(`${method} ${path}`)?.description ?? "";
      expect(description, `${method} ${path}`).toContain(observedLead);
      // The fact itself, as the note prints it (code spans become <code>).
      const words =
        fact.note
          .split(/`[^`]*`/)[0]
          ?.trim()
          .slice(0, 40) ?? "";
      expect(description, `${method} ${path}`).toContain(
        words.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
      );
    }
    expect(observed).toBeGreaterThan(0);
    // The spec's own markers, which the notes above carry, are not inlined as data.
    expect(JSON.stringify(embedded)).not.toMatch(
      /"x-(undocumented|observed|errors|jwt-header|jwt-claims|service-account-key-file)":/,
    );
    // A path item of the other version holds only path-level parameters; Redoc shows nothing of it.
    for (const [path, item] of Object.entries(embedded.paths ?? {})) {
      expect(listOperations({ ...embedded, paths: { [path]: item } }), path).not.toHaveLength(0);
    }
    // The download keeps everything.
    expect(await read(`${version.dir}/openapi.json`)).toMatch(/"x-observed":/);
  });

  it("shows no 'any additional property' row: no schema with named fields is open in the page's definition", async () => {
    const bundle = await loadBundle(version);
    const embedded = embeddedDefinition(await read(`${version.dir}/index.html`));
    const openBesideFields = (node: unknown): number => {
      if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + openBesideFields(item), 0);
      if (node === null || typeof node !== "object") return 0;
      const record = node as Record<string, unknown>;
      const own = record.additionalProperties === true && typeof record.properties === "object" ? 1 : 0;
      return Object.values(record).reduce((sum: number, child) => sum + openBesideFields(child), own);
    };
    // The bundle is open in many places (the description allows extra fields); the page shows none.
    expect(openBesideFields(bundle.components)).toBeGreaterThan(10);
    expect(openBesideFields(embedded)).toBe(0);
  });

  it("puts each x-undocumented schema's and security scheme's list in a visible note on it", async () => {
    const bundle = await loadBundle(version);
    const embedded = embeddedDefinition(await read(`${version.dir}/index.html`));
    type Components = Record<string, Record<string, Record<string, unknown>> | undefined>;
    const source = bundle.components as Components;
    const shown = embedded.components as Components;
    let noted = 0;
    for (const kind of ["schemas", "securitySchemes"]) {
      for (const [name, component] of Object.entries(source[kind] ?? {})) {
        const marker = component["x-undocumented"] as string[] | undefined;
        // A schema no operation of this version refers to is not inlined, so nothing shows it.
        const inlined = shown[kind]?.[name];
        if (marker === undefined || inlined === undefined) continue;
        noted++;
        const description = String(inlined.description ?? "");
        expect(description.startsWith(undocumentedNoteHtml(marker)), `${kind}/${name}`).toBe(true);
        expect(description.split("Not shown by the interface:").length, `${kind}/${name}`).toBe(2);
        // The component's own words follow the note.
        const prose = String(component.description ?? "").trim();
        if (prose !== "") expect(description.endsWith(prose), `${kind}/${name}`).toBe(true);
      }
    }
    expect(noted).toBeGreaterThan(0);
  });

  it("links the schemas its prose names but cannot show to sections of the guide that exist", async () => {
    const embedded = embeddedDefinition(await read(`${version.dir}/index.html`));
    const guide = await read("authentication.html");
    const prose = JSON.stringify([embedded.tags, embedded.paths, embedded.components]);
    const links = [...prose.matchAll(/\]\(\.\.\/authentication\.html#([a-z-]+)\)/g)];
    // The token exchange's tag and operation name all three schemas.
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const [, section] of links) expect(guide, section).toContain(`id="${section}"`);
    // No mention is left bare.
    expect(prose).not.toMatch(/[^[]`(ServiceAccountKeyFile|AssertionHeader|AssertionClaims)`/);
  });

  it("offers the unmodified bundle for download", async () => {
    const bundle = await loadBundle(version);
    expect(JSON.parse(await read(`${version.dir}/openapi.json`))).toEqual(bundle);
  });
});

describe("landing page", () => {
  it("states each version's operation count from its bundle: the paths under its prefix, not the token exchange and discovery", async () => {
    const html = await read("index.html");
    for (const version of apiVersions) {
      const operations = listOperations(await loadBundle(version));
      const count = operations.filter((entry) => entry.path.startsWith(version.prefix)).length;
      // Each reference also lists the two unversioned operations, which the count leaves out.
      expect(operations.length - count).toBe(2);
      expect(html).toContain(`Paths under <code>${version.prefix}</code> · ${count} operations`);
    }
  });
});
