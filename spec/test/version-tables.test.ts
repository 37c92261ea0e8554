import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { apiVersionOf } from "@drill-practice/tooling/api-versions";
import { describe, expect, it } from "vitest";
import { migration } from "../../scripts/spec-diff/migration.ts";
import { renderWithoutPageTable, updateVersionTables, withoutPageNotes } from "../scripts/version-tables.ts";
import { loadBundle, operationsOf } from "./spec-fixtures.ts";

const full = loadBundle("openapi.json");
const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");

describe("the README's API 2.1.1 tables", () => {
  it("are what the description gives (run pnpm --filter @drill-practice/spec readme:tables when this fails)", () => {
    expect(updateVersionTables(readme, full, withoutPageNotes()) === readme).toBe(true);
  });

  it("list every 2.1.1 operation against its page, and every 2.1 operation without a counterpart", () => {
    const ids = operationsOf(full).map((o) => o.operationId);
    for (const id of ids.filter((id) => id.endsWith("_v2_1_1"))) expect(readme, id).toContain(`\`${id}\``);
    const { entries } = migration(full, "2.1", "2.1.1");
    expect(entries).toHaveLength(operationsOf(full).filter((o) => apiVersionOf(o.path)?.id === "2.1").length);
    const table = renderWithoutPageTable(full, {});
    for (const { from } of entries.filter((entry) => entry.to === undefined)) {
      expect(table, from.operationId).toContain(`\`${from.operationId}\``);
    }
  });

  it("keeps a hand-written note only for a 2.1 operation that is in the table", () => {
    const without = new Set(
      migration(full, "2.1", "2.1.1")
        .entries.filter((entry) => entry.to === undefined)
        .map((entry) => entry.from.operationId),
    );
    const stale = Object.keys(withoutPageNotes()).filter((id) => !without.has(id));
    expect(stale, "notes for operations that now have a 2.1.1 counterpart (or no longer exist)").toEqual([]);
  });
});
