import { beforeAll, describe, expect, it } from "vitest";
import { generateLargeDataset } from "../../src/data/dataset.js";
import { foldText, tokenize } from "../../src/domain/search-index.js";
import type { SandboxState } from "../../src/domain/state.js";
import { createState } from "../../src/domain/state.js";
import type { StoreSearchParams } from "../../src/domain/store-search.js";
import { parseQuery } from "../../src/domain/store-search.js";
import type { Drill, SearchField } from "../../src/domain/types.js";
import { SEARCH_FIELDS } from "../../src/domain/types.js";

/**
 * Speed check on 100 000 generated drills. Asserts only that the indexed search gives the same results
 * as a plain scan over every drill; the timings are printed, never asserted.
 */

const DRILLS = 100_000;
const USER = "user-ana";
const CATALOG = "catalog-large-sample";

function fieldText(drill: Drill, field: SearchField): string[] {
  switch (field) {
    case "NAME":
      return [drill.name];
    case "DESCRIPTION":
      return [drill.description];
    case "SUBJECT":
      return [drill.subject];
    case "TAGS":
      return [...drill.tags];
    case "CONTENTS":
      return drill.items.flatMap((i) => [i.ask, i.tell]);
  }
}

/** Each field's tokens as one space-padded string, so a token test is a plain substring search. */
interface ScanDoc {
  readonly drill: Drill;
  readonly sortKey: string;
  readonly fields: ReadonlyMap<SearchField, string>;
}

function prepareScan(drills: readonly Drill[]): ScanDoc[] {
  const memo = new Map<string, string[]>();
  const tokensOf = (text: string) => {
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = tokenize(text);
      // Only item terms repeat; names and descriptions are unique per generated drill.
      if (text.length < 40) memo.set(text, tokens);
    }
    return tokens;
  };
  return drills.map((drill) => ({
    drill,
    sortKey: foldText(drill.name),
    fields: new Map(SEARCH_FIELDS.map((f) => [f, ` ${fieldText(drill, f).flatMap(tokensOf).join(" ")} `])),
  }));
}

/** The search rules applied by brute force: every drill is checked, no index involved. */
function scan(
  docs: readonly ScanDoc[],
  params: StoreSearchParams,
  catalogIds?: ReadonlySet<string>,
): string[] {
  const defaultFields =
    catalogIds === undefined ? SEARCH_FIELDS : (["NAME", "SUBJECT", "TAGS"] as SearchField[]);
  const fields = (params.searchField as SearchField[] | undefined) ?? defaultFields;
  const hits: { doc: ScanDoc; relevance: number }[] = [];
  const query = params.query === undefined ? undefined : parseQuery(params.query);
  for (const doc of docs) {
    if (catalogIds !== undefined && !catalogIds.has(doc.drill.id)) continue;
    if (query === undefined) {
      hits.push({ doc, relevance: 0 });
      continue;
    }
    const has = (token: string) => fields.some((f) => doc.fields.get(f)?.includes(` ${token} `));
    const wordMatches = query.words.map((w) => w.tokens.every(has));
    if (query.groups.some((group) => group.every((at) => wordMatches[at]))) {
      hits.push({ doc, relevance: wordMatches.filter(Boolean).length });
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  hits.sort(
    (a, b) =>
      b.relevance - a.relevance ||
      cmp(a.doc.sortKey, b.doc.sortKey) ||
      cmp(a.doc.drill.name, b.doc.drill.name) ||
      cmp(a.doc.drill.id, b.doc.drill.id),
  );
  return hits.map((h) => h.doc.drill.id);
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const QUERIES: StoreSearchParams[] = [
  { query: "spanish" },
  { query: "spanish AND animals" },
  { query: "capitals europe" },
  { query: "perro", searchField: ["CONTENTS"] },
  { query: "french AND verbs booster" },
  { query: "iron", searchField: ["NAME", "CONTENTS"] },
  { query: "daily AND weekly" },
  { query: "Times AND table AND 7", searchField: ["NAME"] },
  { query: "geography", catalog: CATALOG },
  { catalog: CATALOG },
];

describe(`store search on ${DRILLS.toLocaleString("en")} drills`, () => {
  let state: SandboxState;
  let drills: readonly Drill[];
  let scanDocs: ScanDoc[];
  let catalogIds: ReadonlySet<string>;
  const scannedTotals = new Map<StoreSearchParams, number>();

  beforeAll(() => {
    const t0 = performance.now();
    const data = generateLargeDataset(DRILLS);
    const t1 = performance.now();
    state = createState(data);
    const t2 = performance.now();
    drills = data.drills;
    catalogIds = new Set(data.catalogs[0]?.drillableIds);
    scanDocs = prepareScan(drills);
    console.log(
      `[speed] generate ${DRILLS} drills: ${(t1 - t0).toFixed(0)} ms; build state and index: ${(t2 - t1).toFixed(0)} ms`,
    );
  }, 60_000);

  it("finds exactly what a full scan finds, in the same order", () => {
    for (const params of QUERIES) {
      const inCatalog = params.catalog === undefined ? undefined : catalogIds;
      const expected = scan(scanDocs, params, inCatalog);
      scannedTotals.set(params, expected.length);
      const result = state.searchStore(USER, params);
      expect(result.total, JSON.stringify(params)).toBe(expected.length);
      expect(
        result.drills.map((d) => d.id),
        JSON.stringify(params),
      ).toEqual(expected);
    }
    // The sample must exercise both large and empty result sets.
    const totals = QUERIES.map((p) => state.searchStore(USER, p).total);
    expect(Math.max(...totals)).toBeGreaterThan(5_000);
    expect(totals).toContain(0);
  }, 60_000);

  it("pages consistently with the full result", () => {
    const params = { query: "spanish AND animals" };
    const all = state.searchStore(USER, params).drills.map((d) => d.id);
    const page = state.searchStore(USER, { ...params, resultStart: "40", resultSize: "20" });
    expect(page.total).toBe(all.length);
    expect(page.drills.map((d) => d.id)).toEqual(all.slice(40, 60));
  });

  it("prints query timings for first pages", () => {
    for (const params of QUERIES) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < 15; i++) {
        const t = performance.now();
        const result = state.searchStore(USER, { ...params, resultSize: "20" });
        times.push(performance.now() - t);
        total = result.total;
        expect(result.drills.length).toBe(Math.min(20, total));
      }
      if (scannedTotals.has(params)) expect(total).toBe(scannedTotals.get(params));
      console.log(
        `[speed] ${JSON.stringify(params)}: ${total} found, median ${median(times).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms`,
      );
    }
  });

  it("keeps the index current through updates and prints their cost", () => {
    const renamed = drills.slice(0, 1_000).map((d) => ({ ...d, name: `Zebra crossing ${d.id}` }));
    const t = performance.now();
    for (const drill of renamed) state.upsertDrill(drill);
    const elapsed = performance.now() - t;
    const t2 = performance.now();
    const result = state.searchStore(USER, { query: "zebra AND crossing", searchField: ["NAME"] });
    const firstQuery = performance.now() - t2;
    console.log(
      `[speed] 1000 drill updates: ${elapsed.toFixed(0)} ms; first query after them (re-ranks names): ${firstQuery.toFixed(0)} ms`,
    );
    expect(result.total).toBe(1_000);
    expect(result.drills[0]?.id).toBe("gen-000000");
    const first = drills[0] as Drill;
    const oldName = tokenize(first.name).join(" AND ");
    expect(
      state.searchStore(USER, { query: oldName, searchField: ["NAME"] }).drills.map((d) => d.id),
    ).not.toContain(first.id);
    expect(state.searchStore(USER, { query: oldName, searchField: ["DESCRIPTION", "NAME"] }).total).toBe(
      scan([...prepareScan(renamed), ...scanDocs.slice(renamed.length)], {
        query: oldName,
        searchField: ["DESCRIPTION", "NAME"],
      }).length,
    );
  });
});
