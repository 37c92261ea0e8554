/**
 * The Changes page is made from the spec diff: what changed since the released baseline, then
 * each archived release, newest first.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import { packageDir } from "../src/build-site.ts";
import { changesSections, renderChanges } from "../src/changes-page.ts";

const fixtures = join(packageDir, "test", "fixtures");
const workDir = scratchDirForAll("drill-docs-changes-");

describe("the Changes page", () => {
  it("shows the unreleased changes by operation, breaking first, and the archived releases newest first", async () => {
    const baseline = join(workDir(), "baseline");
    const current = join(workDir(), "current");
    await mkdir(join(baseline, "changes"), { recursive: true });
    await mkdir(current, { recursive: true });
    for (const bundle of ["openapi-v2.1.json", "openapi-v2.0.json"]) {
      const text = await readFile(join(fixtures, bundle), "utf8");
      await writeFile(join(baseline, bundle), text);
      const doc = JSON.parse(text);
      if (bundle === "openapi-v2.1.json") {
        doc.paths["/api/2.1/store"].get.operationId = "findInStore_v2_1";
        doc.paths["/api/2.1/store"].get.summary = "Find drills in the public store";
      }
      await writeFile(join(current, bundle), JSON.stringify(doc));
    }
    // A version the release did not have: no baseline bundle, two operations now.
    await writeFile(
      join(current, "openapi-v2.1.1.json"),
      JSON.stringify({
        paths: {
          "/api/2.1.1/store": { get: { operationId: "a" }, parameters: [] },
          "/api/2.1.1/beacons": { get: { operationId: "b" } },
        },
      }),
    );
    await writeFile(
      join(baseline, "release.json"),
      JSON.stringify({ packages: { "@drill-practice/client": "0.2.0" } }),
    );
    for (const version of ["0.2.0", "0.10.0"])
      await writeFile(
        join(baseline, "changes", `${version}.json`),
        JSON.stringify({
          version,
          since: { "@drill-practice/client": "0.1.0" },
          versions: [{ id: "2.1", bundle: "openapi-v2.1.json", findings: [] }],
        }),
      );

    const sections = changesSections(baseline, current);
    expect(sections.map((section) => section.title)).toEqual(["Unreleased", "0.10.0", "0.2.0"]);
    const html = renderChanges(sections);
    expect(html).toContain(
      '<h2 id="unreleased">Unreleased</h2>\n<p>Compared with @drill-practice/client 0.2.0.</p>',
    );
    const operation = html.indexOf(
      "<h4><code>GET /api/2.1/store (searchStore_v2_1 → findInStore_v2_1)</code></h4>",
    );
    const breaking = html.indexOf("<strong>Breaking</strong>", operation);
    const documentation = html.indexOf("<strong>Documentation only</strong>", operation);
    expect(operation).toBeGreaterThan(-1);
    expect(breaking).toBeGreaterThan(operation);
    expect(documentation).toBeGreaterThan(breaking);
    expect(html).toContain("<code>/paths/~1api~12.1~1store/get/operationId</code>: operationId renamed");
    // Documentation-only changes are counted with what they touched, not listed one by one.
    expect(html.slice(documentation)).toMatch(
      /^<strong>Documentation only<\/strong>: 1 change, to <code>summary<\/code>\.<\/p>/,
    );
    expect(html).not.toContain("<code>/paths/~1api~12.1~1store/get/summary</code>");
    expect(html).toContain(
      '<h3 id="unreleased-v2.1.1">API 2.1.1</h3>\n<p>New in this release: 2 operations. <a href="migrating.html">Migrating to 2.1.1</a>',
    );
    expect(html.indexOf('id="unreleased-v2.1.1"')).toBeLessThan(html.indexOf('id="unreleased-v2.1"'));
    expect(html).toContain(
      "Old <code>&#34;searchStore_v2_1&#34;</code>, new <code>&#34;findInStore_v2_1&#34;</code>",
    );
    expect(html).toContain('<h3 id="unreleased-v2.0">API 2.0</h3>\n<p>No changes.</p>');
  });

  it("says so when there is no released baseline to compare with", () => {
    expect(changesSections(join(workDir(), "nowhere"), fixtures)).toEqual([]);
    expect(renderChanges([])).toBe("<p>No released description to compare with yet.</p>");
  });
});
