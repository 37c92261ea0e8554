/**
 * Sandbox search engine, in-process: service time of each search of the mix on 100,000 generated
 * drills, next to the previous engine (sort every match, then cut the page) on the same index, and a
 * check that both give the same totals and the same order for every search of the mix.
 */
import { generateLargeDataset } from "../packages/sandbox/scripts/dataset/large-dataset.ts";
import { createState } from "../packages/sandbox/src/domain/state.ts";
import type { StoreSearchParams } from "../packages/sandbox/src/domain/store-search.ts";
import { searchStoreSortingAll } from "../packages/sandbox/test/support/sort-all-store-search.ts";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import { LARGE_CATALOG, queryString, searchMix } from "./sandbox-queries.ts";
import { formatMs, formatRatio, median, now, p99 } from "./stats.ts";

const DRILLS = 100_000;
const ROUNDS = 40;
const PER_ROUND = 5;
const REFERENCE_ROUNDS = 8;
const TARGET_P99_MS = 2;
const USER = "svc-sandbox-academy";
const TOTAL_MAX_MS = 90_000;

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const data = generateLargeDataset(DRILLS);
  const built = now();
  const state = createState(data);
  const indexedMs = now() - built;
  const mix = searchMix(LARGE_CATALOG);
  const params = mix.map(({ params: p }) => p as StoreSearchParams);
  const context = {
    index: state.index,
    catalog: (id: string) => state.catalog(id),
    toDrillable: (record: Parameters<typeof state.toDrillable>[0], user: string) =>
      state.toDrillable(record, user),
  };

  // Same answers first: totals and page order of every search, and of more pages of each.
  let compared = 0;
  const differing: string[] = [];
  for (const base of params) {
    for (const page of [
      {},
      { resultStart: "0", resultSize: "50" },
      { resultStart: "137", resultSize: "13" },
    ]) {
      const p = { ...base, ...page };
      const ours = state.searchStore(USER, p);
      const reference = searchStoreSortingAll(context, USER, p);
      compared++;
      const same =
        ours.total === reference.total &&
        ours.drills.length === reference.drills.length &&
        ours.drills.every((d, i) => d.id === reference.drills[i]?.id);
      if (!same) differing.push(queryString(p as Record<string, string>));
    }
  }

  // Interleaved: every round times each search a few times, so machine noise hits all alike.
  const samples = params.map(() => [] as number[]);
  // CPU time of the same calls: what the search itself costs, without the time slices other processes
  // took from this one on a shared machine (process.cpuUsage is precise to the microsecond on Linux).
  const cpuSamples = params.map(() => [] as number[]);
  const referenceSamples = params.map(() => [] as number[]);
  const loopStart = now();
  for (let round = 0; round < ROUNDS && now() - loopStart < TOTAL_MAX_MS; round++) {
    params.forEach((p, i) => {
      for (let k = 0; k < PER_ROUND; k++) {
        const cpu = process.cpuUsage();
        const t = now();
        state.searchStore(USER, p);
        samples[i]?.push(now() - t);
        const used = process.cpuUsage(cpu);
        cpuSamples[i]?.push((used.user + used.system) / 1000);
      }
      if (round < REFERENCE_ROUNDS) {
        const t = now();
        searchStoreSortingAll(context, USER, p);
        referenceSamples[i]?.push(now() - t);
      }
    });
  }
  // The first rounds run while the JIT compiles; the figures are for a warm process.
  const warm = samples.map((s) => s.slice(PER_ROUND * 2));
  const all = warm.flat();
  const cpuAll = cpuSamples.flatMap((s) => s.slice(PER_ROUND * 2));
  const cpuP99 = p99(cpuAll);
  const referenceAll = referenceSamples.flatMap((s) => s.slice(1));
  const overallP99 = p99(all);
  const rows: ResultRow[] = [
    {
      metric: `search service time p99 over the mix, ${DRILLS.toLocaleString("en-US")} drills, in-process`,
      ours: formatMs(overallP99),
      reference: formatMs(p99(referenceAll)),
      ratio: formatRatio(overallP99 / p99(referenceAll)),
      target: `≤ ${TARGET_P99_MS} ms`,
      verdict: overallP99 <= TARGET_P99_MS ? "met" : "missed",
      ...(overallP99 <= TARGET_P99_MS
        ? {}
        : { miss: `${formatRatio(overallP99 / TARGET_P99_MS)} of the target` }),
      headline: true,
    },
    {
      metric: "search CPU time p99 over the mix (process CPU of the same calls, every thread)",
      ours: formatMs(cpuP99),
      reference: "—",
      ratio: "—",
      target: "—",
      verdict: "info",
    },
    {
      metric: "search service time median over the mix",
      ours: formatMs(median(all)),
      reference: formatMs(median(referenceAll)),
      ratio: formatRatio(median(all) / median(referenceAll)),
      target: "—",
      verdict: "info",
    },
    {
      metric: `same totals and order as sorting every match (${compared} searches and pages)`,
      ours: `${compared - differing.length} of ${compared}`,
      reference: "—",
      ratio: "—",
      target: `${compared} of ${compared}`,
      verdict: differing.length === 0 ? "met" : "missed",
      ...(differing.length === 0 ? {} : { miss: `differs for ${differing.join(", ")}` }),
      headline: true,
    },
  ];
  const details: DetailTable[] = [
    {
      title: "Service time by search (top-k engine vs sorting every match, same index)",
      headers: ["Search", "Query parameters", "total", "median", "p99", "median, sort all", "p99, sort all"],
      rows: mix.map(({ label, params: p }, i) => [
        label,
        `\`${queryString(p)}\``,
        state.searchStore(USER, p as StoreSearchParams).total.toLocaleString("en-US"),
        formatMs(median(warm[i] ?? [])),
        formatMs(p99(warm[i] ?? [])),
        formatMs(median(referenceSamples[i]?.slice(1) ?? [])),
        formatMs(p99(referenceSamples[i]?.slice(1) ?? [])),
      ]),
    },
  ];
  const slowest = mix
    .map(({ label }, i) => ({ label, ms: p99(warm[i] ?? []) }))
    .sort((a, b) => b.ms - a.ms)[0];
  return {
    name: "sandbox-engine",
    title: "Sandbox search engine (in-process)",
    measured:
      "Time of `SandboxState.searchStore` for each search of the mix, called directly (no HTTP), on " +
      `${DRILLS.toLocaleString("en-US")} drills from \`generateLargeDataset\`, next to the previous engine that sorted ` +
      "every match before cutting the page (kept in `packages/sandbox/test/support`), on the same index.",
    setup: [
      `${ROUNDS} interleaved rounds, ${PER_ROUND} calls per search per round; the first two rounds are dropped as JIT warm-up`,
      `Reference engine: ${REFERENCE_ROUNDS} calls per search (its first dropped)`,
      `Building the index for ${DRILLS.toLocaleString("en-US")} drills took ${formatMs(indexedMs)} in this process`,
    ],
    rows,
    details,
    notes: [
      "Each search collects its matches from the posting lists (one precomputed list per token for a search over " +
        "every field). A query of one group of words (`a AND b`) and a catalog listing need no relevance count: " +
        "every match has every word. The build numbers documents in name order, so their ascending matches are " +
        "already in result order and the page is read off in one pass. Other searches (and any search once a " +
        "change has put document numbers out of name order) give each match one numeric key (relevance, then " +
        "position in name order) and keep only the page's keys with a bounded heap; for deep pages the keys " +
        "(distinct small integers) go into a bit set read in order.",
      ...(slowest === undefined
        ? []
        : [`The slowest search of the mix at p99 was "${slowest.label}" (${formatMs(slowest.ms)}).`]),
      "The target is on service time (wall clock). The CPU row is the process's CPU time over the same calls, " +
        "counted on every thread: V8 marks and scavenges on helper threads in parallel, so a call that triggers a " +
        "collection can show more CPU time than wall time. It is reported to show how much of the tail is garbage " +
        "collection, not held to the target.",
    ],
    durationMs: now() - started,
  };
}
