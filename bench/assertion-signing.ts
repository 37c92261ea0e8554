/**
 * Assertion signing: `signAssertion` (jose over Web Crypto) next to a bare node:crypto RS256
 * signature of the same bytes, keys imported once; Web Crypto's `subtle.sign` alone beside them.
 */
import { sign } from "node:crypto";
import { parseServiceAccountKey, signAssertion } from "@drill-practice/auth";
import { createBenchKey } from "./fixtures.ts";
import {
  atMost,
  type BenchmarkResult,
  compared,
  type Figures,
  fmt,
  infoCompared,
  loadCompared,
  median,
  pairedRatios,
  rounds,
  timed,
} from "./harness.ts";

const ROUNDS = 20;
const TARGET_RATIO = 1.5;

/** The three ways to sign the same assertion, checked to give the same bytes before they are timed. */
async function signers() {
  const key = createBenchKey();
  const parsedKey = await parseServiceAccountKey(key.keyFileJson);
  const [subject, audience] = ["user-ana@example.com", "http://127.0.0.1/daas/oauth/token"];
  const input = () => ({ key: parsedKey, subject, audience, now: Date.now(), lifetimeSeconds: 300 });
  const sample = await signAssertion(input());
  const signingInput = sample.slice(0, sample.lastIndexOf("."));
  const bytes = Buffer.from(signingInput);
  const tasks = {
    ours: () => signAssertion(input()),
    reference: async () => `${signingInput}.${sign("sha256", bytes, key.privateKey).toString("base64url")}`,
    webCrypto: async () => {
      const signed = await crypto.subtle.sign({ name: "RSASSA-PKCS1-v1_5" }, parsedKey.privateKey, bytes);
      return `${signingInput}.${Buffer.from(signed).toString("base64url")}`;
    },
  };
  // PKCS#1 v1.5 is deterministic: all three must give our very assertion, or the comparison is void.
  if ((await tasks.reference()) !== sample || (await tasks.webCrypto()) !== sample)
    throw new Error("the reference signature differs from ours for the same bytes");
  return tasks;
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("assertion-signing", async () => {
    const r = await rounds(await signers(), { rounds: ROUNDS, timeMs: 150, calls: 10, maxMs: 90_000 });
    /** The median of one figure of ours and of the reference. */
    const both = (figure: keyof Figures) => [median(r.ours[figure]), median(r.reference[figure])] as const;
    const [[ours, reference], web] = [both("medians"), median(r.webCrypto.medians)];
    const roundRatios = pairedRatios(r.ours.medians, r.reference.medians);
    const time = compared(ours, reference, fmt.ms);
    return {
      setup: [
        `tinybench: ${r.rounds} interleaved rounds of 150 ms per variant after a warm-up round`,
        "RSA 2048 key made for the run",
      ],
      rows: [
        atMost("Time per assertion, median of round medians", ours / reference, TARGET_RATIO, "×", time),
        loadCompared("Time per assertion, p99 of all samples", [r.ours, r.reference], "p99"),
        infoCompared("CPU per assertion (all threads), median of rounds", both("cpu"), fmt.ms),
      ],
      notes: [
        `Of ours, ${fmt.ms(web)} (${fmt.ratio(web / reference)} of node:crypto, CPU ${fmt.ms(median(r.webCrypto.cpu))}) is the Web Crypto signature itself (asynchronous, on the libuv thread pool, a hop ` +
          `the synchronous node:crypto call does not pay); jose's header and claims add ${fmt.ms(ours - web)}. ` +
          `Round by round the ratio ranged from ${fmt.ratio(Math.min(...roundRatios))} to ${fmt.ratio(Math.max(...roundRatios))}.`,
      ],
    };
  });
}
