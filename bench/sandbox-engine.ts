/**
 * Sandbox search engine: `SandboxState.searchStore` for each search of the mix, called directly on
 * 100,000 drills, next to the previous engine that sorted every match (test/support). That both give
 * the same totals and order is a test (packages/sandbox/test/domain/search-ranking.test.ts).
 */
import { generateLargeDataset } from "../packages/sandbox/scripts/dataset/large-dataset.ts";
import { createState } from "../packages/sandbox/src/domain/state.ts";
import type { StoreSearchParams } from "../packages/sandbox/src/domain/store-search.ts";
import { searchStoreSortingAll } from "../packages/sandbox/test/support/sort-all-store-search.ts";
import { LARGE_CATALOG, LARGE_DRILLS, queryString, searchMix } from "./fixtures.ts";
import { type BenchmarkResult, fmt, info, judged, median, now, p99, timed, tinyRounds } from "./harness.ts";

const ROUNDS = 40;
const PER_ROUND = 5;
const REFERENCE_ROUNDS = 4;
const TARGET_P99_MS = 2;
const USER = "svc-sandbox-academy";
const MIX = searchMix(LARGE_CATALOG);

/** Each search of the mix timed on the 100,000-drill index, the sort-all engine in the first rounds. */
async function measure() {
  const data = generateLargeDataset(LARGE_DRILLS);
  const built = now();
  const state = createState(data);
  const indexedMs = now() - built;
  const context = {
    index: state.index,
    catalog: (id: string) => state.catalog(id),
    toDrillable: (record: Parameters<typeof state.toDrillable>[0], user: string) =>
      state.toDrillable(record, user),
  };
  const tasks: Record<string, () => unknown> = {};
  MIX.forEach(({ params }, i) => {
    const p = params as StoreSearchParams;
    tasks[`ours ${i}`] = () => state.searchStore(USER, p);
    tasks[`sort all ${i}`] = () => searchStoreSortingAll(context, USER, p);
  });
  // The same number of calls per search and round, so the p99 over the mix weighs each search alike.
  const r = await tinyRounds(tasks, {
    rounds: ROUNDS,
    timeMs: 0,
    minCalls: PER_ROUND,
    maxMs: 90_000,
    skip: (key, round) => key.startsWith("sort all") && round > REFERENCE_ROUNDS,
  });
  const none = { medians: [], samples: [], cpu: [] };
  return {
    indexedMs,
    totals: MIX.map(({ params }) => state.searchStore(USER, params as StoreSearchParams).total),
    ours: MIX.map((_, i) => r[`ours ${i}`] ?? none),
    sortAll: MIX.map((_, i) => r[`sort all ${i}`] ?? none),
  };
}

export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-engine", async () => {
    const { indexedMs, totals, ours, sortAll } = await measure();
    const mix = MIX;
    const all = ours.flatMap((t) => t.samples);
    const reference = sortAll.flatMap((t) => t.samples);
    const overall = p99(all);
    const slowest = mix
      .map(({ label }, i) => ({ label, ms: p99(ours[i]?.samples ?? []) }))
      .sort((a, b) => b.ms - a.ms)[0];
    return {
      title: "Sandbox search engine (in-process)",
      measured:
        "Time of `SandboxState.searchStore` for each search of the mix, called directly (no HTTP), on " +
        `${fmt.count(LARGE_DRILLS)} drills from \`generateLargeDataset\`, next to the previous engine that sorted ` +
        "every match before cutting the page (kept in `packages/sandbox/test/support`), on the same index.",
      setup: [
        `tinybench: ${ours[0]?.medians.length ?? 0} interleaved rounds of ${PER_ROUND} calls per search after a warm-up round; the reference engine in the first ${REFERENCE_ROUNDS}`,
        `Building the index for ${fmt.count(LARGE_DRILLS)} drills took ${fmt.ms(indexedMs)} in this process`,
      ],
      rows: [
        judged(
          `search service time p99 over the mix, ${fmt.count(LARGE_DRILLS)} drills, in-process`,
          {
            ours: fmt.ms(overall),
            reference: fmt.ms(p99(reference)),
            ratio: fmt.ratio(overall / p99(reference)),
            target: `≤ ${TARGET_P99_MS} ms`,
          },
          { met: overall <= TARGET_P99_MS, miss: `${fmt.ratio(overall / TARGET_P99_MS)} of the target` },
        ),
        info("search CPU time per call over the mix (process CPU, every thread), median of rounds", {
          ours: fmt.ms(median(ours.flatMap((t) => t.cpu))),
        }),
        info("search service time median over the mix", {
          ours: fmt.ms(median(all)),
          reference: fmt.ms(median(reference)),
          ratio: fmt.ratio(median(all) / median(reference)),
        }),
      ],
      details: [
        {
          title: "Service time by search (top-k engine vs sorting every match, same index)",
          headers: [
            "Search",
            "Query parameters",
            "total",
            "median",
            "p99",
            "median, sort all",
            "p99, sort all",
          ],
          rows: mix.map(({ label, params }, i) => [
            label,
            `\`${queryString(params)}\``,
            fmt.count(totals[i] ?? Number.NaN),
            fmt.ms(median(ours[i]?.samples ?? [])),
            fmt.ms(p99(ours[i]?.samples ?? [])),
            fmt.ms(median(sortAll[i]?.samples ?? [])),
            fmt.ms(p99(sortAll[i]?.samples ?? [])),
          ]),
        },
      ],
      notes: [
        "Each search collects its matches from the posting lists and keeps only the page's keys (a bounded heap, or " +
          "a bit set for deep pages) instead of sorting every match; a one-group query or a catalog listing, whose " +
          "matches are already in name order, reads the page off in one pass. The per-search arrays are kept " +
          "between calls (domain/scratch.ts): allocating them per call instead measured about 3× the median and 2–4× the " +
          "p99 in a trial on this machine (two runs of each).",
        `The slowest search of the mix at p99 was "${slowest?.label}" (${fmt.ms(slowest?.ms ?? Number.NaN)}). The ` +
          "target is on service time (wall clock); the CPU row counts every thread, garbage collection included.",
      ],
    };
  });
}
