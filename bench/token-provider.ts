/**
 * Token provider: a cached `getToken` next to an awaited Map lookup (the floor of any asynchronous
 * cache), and a forced exchange for scale (bench/README.md says which behaviour is a test).
 */
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { createBenchKey, LOOPBACK_CLIENT, startLoopbackServer } from "./fixtures.ts";
import { type BenchmarkResult, compared, fmt, info, median, now, p99, rounds, timed } from "./harness.ts";

const ROUNDS = 4;
/** The server holds each exchange this long, as a real one takes a while. */
const EXCHANGE_DELAY_MS = 50;

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("token-provider", async () => {
    const key = createBenchKey();
    const server = await startLoopbackServer(key, EXCHANGE_DELAY_MS);
    try {
      const parsed = await parseServiceAccountKey(key.keyFileJson);
      const provider = createTokenProvider({ baseUrl: server.ready.url, ...LOOPBACK_CLIENT, key: parsed });
      const firstStarted = now();
      await provider.getToken();
      const firstMs = now() - firstStarted;
      const cache = new Map([["k", { value: "token", expiresAt: Date.now() + 3_600_000 }]]);
      const floor = async () => {
        const entry = cache.get("k");
        return entry !== undefined && entry.expiresAt > Date.now() ? entry.value : undefined;
      };
      const cached = await rounds(
        { ours: () => provider.getToken(), floor },
        { rounds: ROUNDS, timeMs: 300, calls: 10 },
      );
      const exchange = () => provider.getToken({ forceRefresh: true });
      const forced = (await rounds({ exchange }, { rounds: 1, timeMs: 1500, calls: 5 })).exchange.samples;
      const [ours, map] = [cached.ours, cached.floor];
      const vsMap = (stat: (values: number[]) => number, figure: "medians" | "samples") =>
        compared(stat(ours[figure]), stat(map[figure]), fmt.ms, "awaited Map lookup");
      return {
        setup: [
          `tinybench: ${ROUNDS} interleaved rounds of 300 ms per variant after a warm-up round; medians of the round medians`,
          `Forced exchanges: ${forced.length} sequential; the server verifies each RS256 assertion and holds it ${EXCHANGE_DELAY_MS} ms`,
        ],
        rows: [
          info("Cached `getToken`, median", vsMap(median, "medians"), true),
          info("Cached `getToken`, p99", vsMap(p99, "samples"), true),
          info("Forced exchange, median (for scale; server hold subtracted)", {
            ours: fmt.ms(median(forced) - EXCHANGE_DELAY_MS),
          }),
        ],
        notes: [`The first \`getToken\` (discovery, signing and the exchange) took ${fmt.ms(firstMs)}.`],
      };
    } finally {
      await server.close();
    }
  });
}
