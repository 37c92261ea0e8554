/**
 * Assertion signing: `signAssertion` (jose over Web Crypto) next to a bare node:crypto RS256
 * signature of the same bytes, keys imported once; Web Crypto's `subtle.sign` alone beside them.
 */
import { createPublicKey, sign, verify } from "node:crypto";
import { parseServiceAccountKey, signAssertion } from "@drill-practice/auth";
import { createBenchKey } from "./fixtures.ts";
import { type BenchmarkResult, fmt, info, judged, median, p99, timed, tinyRounds } from "./harness.ts";

const ROUNDS = 20;
const TARGET_RATIO = 1.5;

/** The three ways to sign the same assertion, checked to give the same bytes before they are timed. */
async function signers() {
  const key = createBenchKey();
  const parsedKey = await parseServiceAccountKey(key.keyFileJson);
  const input = () => ({
    key: parsedKey,
    subject: "user-ana@example.com",
    audience: "http://127.0.0.1/daas/oauth/token",
    now: Date.now(),
    lifetimeSeconds: 300,
  });
  const sample = await signAssertion(input());
  const signingInput = sample.slice(0, sample.lastIndexOf("."));
  const bytes = Buffer.from(signingInput);
  const signature = Buffer.from(sample.slice(signingInput.length + 1), "base64url");
  if (!verify("sha256", bytes, createPublicKey(key.publicKeyPem), signature))
    throw new Error("our assertion does not verify with the public key");
  const tasks = {
    ours: () => signAssertion(input()),
    reference: async () => `${signingInput}.${sign("sha256", bytes, key.privateKey).toString("base64url")}`,
    webCrypto: async () => {
      const signed = await crypto.subtle.sign({ name: "RSASSA-PKCS1-v1_5" }, parsedKey.privateKey, bytes);
      return `${signingInput}.${Buffer.from(signed).toString("base64url")}`;
    },
  };
  if ((await tasks.reference()) !== sample || (await tasks.webCrypto()) !== sample)
    throw new Error("the reference signature differs from ours for the same bytes");
  return tasks;
}

export function run(): Promise<BenchmarkResult> {
  return timed("assertion-signing", async () => {
    const r = await tinyRounds(await signers(), { rounds: ROUNDS, timeMs: 150, maxMs: 90_000 });
    const [ours, reference, web] = [r.ours, r.reference, r.webCrypto].map((t) => median(t.medians)) as [
      number,
      number,
      number,
    ];
    const ratio = ours / reference;
    const cpu = (t: typeof r.ours) => median(t.cpu);
    const roundRatios = r.ours.medians.map((m, i) => m / (r.reference.medians[i] ?? Number.NaN));
    const variants = [
      ["`signAssertion` (ours)", r.ours],
      ["node:crypto `sign` RS256 (reference)", r.reference],
      ["Web Crypto `subtle.sign` directly", r.webCrypto],
    ] as const;
    return {
      title: "Assertion signing",
      measured:
        "Time to build and sign one RS256 assertion with `signAssertion` (jose `SignJWT` over a non-extractable Web " +
        "Crypto key, imported once by `parseServiceAccountKey`), next to a bare `node:crypto` `sign('sha256', …)` of " +
        "the same header-and-payload bytes with a `KeyObject` made once, plus base64url of the signature. The " +
        "signatures are byte-identical (PKCS#1 v1.5 is deterministic) and verify with the public key.",
      setup: [
        `tinybench: ${r.ours.medians.length} interleaved rounds of 150 ms per variant after a warm-up round`,
        "RSA 2048 key made for the run",
      ],
      rows: [
        judged(
          "Time per assertion, median of round medians",
          {
            ours: fmt.ms(ours),
            reference: fmt.ms(reference),
            ratio: fmt.ratio(ratio),
            target: `ratio ≤ ${TARGET_RATIO}`,
          },
          { met: ratio <= TARGET_RATIO, miss: `${fmt.percent(ratio / TARGET_RATIO - 1)} over` },
        ),
        info("Time per assertion, p99 of all samples", {
          ours: fmt.ms(p99(r.ours.samples)),
          reference: fmt.ms(p99(r.reference.samples)),
          ratio: fmt.ratio(p99(r.ours.samples) / p99(r.reference.samples)),
        }),
        info("CPU per assertion (all threads), median of rounds", {
          ours: fmt.ms(cpu(r.ours)),
          reference: fmt.ms(cpu(r.reference)),
          ratio: fmt.ratio(cpu(r.ours) / cpu(r.reference)),
        }),
      ],
      details: [
        {
          title: "All variants",
          headers: ["Variant", "Median", "p99", "vs node:crypto", "CPU per assertion"],
          rows: variants.map(([label, t]) => [
            label,
            fmt.ms(median(t.medians)),
            fmt.ms(p99(t.samples)),
            fmt.ratio(median(t.medians) / reference),
            fmt.ms(cpu(t)),
          ]),
        },
      ],
      notes: [
        `Of ours, ${fmt.ms(web)} is the Web Crypto signature itself (asynchronous, on the libuv thread pool, a hop ` +
          `the synchronous node:crypto call does not pay); jose's header and claims add ${fmt.ms(ours - web)}. ` +
          `Round by round the ratio ranged from ${fmt.ratio(Math.min(...roundRatios))} to ${fmt.ratio(Math.max(...roundRatios))}.`,
      ],
    };
  });
}
