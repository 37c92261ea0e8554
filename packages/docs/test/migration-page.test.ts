import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mergedDescription, migrationPage } from "../src/migration-page.ts";
import { listOperations } from "../src/openapi-document.ts";
import { apiVersions } from "../src/site-header.ts";
import { assertSiteBuilt, distDir, loadBundle } from "./helpers/site.ts";

const bundles = await Promise.all(apiVersions.map((version) => loadBundle(version)));
const body = migrationPage(bundles);

describe("the Migrating to 2.1.1 page", () => {
  it("lists every 2.1 operation once, and every 2.1.1 operation", () => {
    const merged = mergedDescription(bundles) as { paths: Record<string, unknown> };
    const operations = listOperations(merged as never);
    const v21 = operations.filter((o) => o.path.startsWith("/api/2.1/"));
    // The interface's 122 and the observed one beside them (addDrillToCourseAtPosition_v2_1, spec/README.md).
    expect(v21.length).toBe(123);
    for (const { operation } of v21) {
      const id = (operation as { operationId: string }).operationId;
      expect(body.split(`<code>${id}</code>`).length - 1, id).toBeGreaterThanOrEqual(1);
    }
    for (const { operation } of operations.filter((o) => o.path.startsWith("/api/2.1.1/"))) {
      expect(body, (operation as { operationId: string }).operationId).toContain(
        `<code>${(operation as { operationId: string }).operationId}</code>`,
      );
    }
    expect(body).toMatch(/<p class="migration-summary">123 operations of API 2\.1: /);
  });

  it("tells a changed answer apart from the same call", () => {
    // The 2.1.1 Beacon object requires fields the 2.1 answer left optional (its object page).
    const changed = body.slice(body.indexOf('id="changed"'), body.indexOf('id="same"'));
    expect(changed).toContain("<code>getBeacon_v2_1</code>) → <code>GET /api/2.1.1/beacon/{beacon}</code>");
    expect(changed).toMatch(/Answer:<ul><li>required status to <code>id<\/code>/);
  });

  it("is what the built site shows (rebuild with pnpm docs when this fails)", async () => {
    assertSiteBuilt();
    const built = await readFile(join(distDir, "migrating.html"), "utf8");
    expect(built.includes(body)).toBe(true);
  });
});
