/**
 * Sandbox search engine: each search of the mix called directly on 100,000 drills, next to the
 * previous engine that sorted every match (bench/README.md says what each row is).
 */
import { generateLargeDataset } from "../packages/sandbox/scripts/dataset/large-dataset.ts";
import { createState } from "../packages/sandbox/src/domain/state.ts";
import type { StoreSearchParams } from "../packages/sandbox/src/domain/store-search.ts";
import { searchStoreSortingAll } from "../packages/sandbox/test/support/sort-all-store-search.ts";
import { LARGE_CATALOG, LARGE_DRILLS, mixColumns, searchMix } from "./fixtures.ts";
import {
  atMost,
  type BenchmarkResult,
  compared,
  type Figures,
  fmt,
  info,
  infoCompared,
  median,
  now,
  p99,
  rounds,
  timed,
} from "./harness.ts";

const ROUNDS = 40;
const PER_ROUND = 5;
const REFERENCE_ROUNDS = 4;
const USER = "svc-sandbox-academy";
const MIX = searchMix(LARGE_CATALOG);

/** Each search of the mix timed on the 100,000-drill index, the sort-all engine in the first rounds. */
async function measure() {
  const built = now();
  const state = createState(generateLargeDataset(LARGE_DRILLS));
  const indexedMs = now() - built;
  const tasks: Record<string, () => unknown> = {};
  MIX.forEach(({ params }, i) => {
    tasks[`ours ${i}`] = () => state.searchStore(USER, params as StoreSearchParams);
    // The state is a search context itself: both engines read the same index and catalogs.
    tasks[`sort all ${i}`] = () => searchStoreSortingAll(state, USER, params as StoreSearchParams);
  });
  // The same number of calls per search and round, so the p99 over the mix weighs each search alike.
  const r = await rounds(tasks, {
    rounds: ROUNDS,
    timeMs: 0,
    calls: PER_ROUND,
    maxMs: 90_000,
    skip: (key, round) => key.startsWith("sort all") && round > REFERENCE_ROUNDS,
  });
  const of = (engine: string) => MIX.map((_, i) => r[`${engine} ${i}`] as Figures);
  const totals = MIX.map(({ params }) => state.searchStore(USER, params as StoreSearchParams).total);
  return { indexedMs, rounds: r.rounds, totals, ours: of("ours"), sortAll: of("sort all") };
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-engine", async () => {
    const { indexedMs, totals, ours, sortAll, rounds: done } = await measure();
    const [all, reference] = [ours.flatMap((t) => t.samples), sortAll.flatMap((t) => t.samples)];
    const times = (figures: Figures | undefined) =>
      [median, p99].map((f) => fmt.ms(f(figures?.samples ?? [])));
    return {
      setup: [
        `tinybench: ${done} interleaved rounds of ${PER_ROUND} calls per search after a warm-up round; the reference engine in the first ${REFERENCE_ROUNDS}`,
        `Building the index for ${fmt.count(LARGE_DRILLS)} drills took ${fmt.ms(indexedMs)} in this process`,
      ],
      rows: [
        atMost(
          `search service time p99 over the mix, ${fmt.count(LARGE_DRILLS)} drills, in-process`,
          p99(all),
          2,
          " ms",
          compared(p99(all), p99(reference), fmt.ms),
        ),
        info("search CPU time per call over the mix (process CPU, every thread), median of rounds", {
          ours: fmt.ms(median(ours.flatMap((t) => t.cpu))),
        }),
        infoCompared("search service time median over the mix", [median(all), median(reference)], fmt.ms),
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
          rows: mixColumns(MIX, (i) => [
            fmt.count(totals[i] ?? Number.NaN),
            ...times(ours[i]),
            ...times(sortAll[i]),
          ]),
        },
      ],
    };
  });
}
