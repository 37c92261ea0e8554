/**
 * Sandbox in process: store searches through the client on `createSandbox().fetch` and over loopback
 * HTTP, `createSandbox()`'s time, and the sandbox's SHA-256 (@noble/hashes) next to `crypto.subtle.digest`
 * (bench/README.md says what each row is).
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, unwrap } from "@drill-practice/client";
import { createSandbox, type SandboxControls, startSandbox } from "@drill-practice/sandbox";
import { sha256Text } from "../packages/sandbox/src/oauth/web-crypto.ts";
import { DEFAULT_CATALOG } from "./fixtures.ts";
import {
  atMost,
  type BenchmarkResult,
  compared,
  fmt,
  info,
  infoCompared,
  loadCompared,
  loadSetup,
  median,
  now,
  type ResultRow,
  rounds,
  SERVER_LOAD,
  throughputJudged,
  timed,
} from "./harness.ts";
import { mixLoad, withServers } from "./sandbox-setup.ts";

const CREATES = 20;

/** The first createSandbox() (what a process pays once), then `CREATES` more, each closed. */
async function createTimes(): Promise<{ first: number; later: number[] }> {
  const times: number[] = [];
  while (times.length <= CREATES) {
    const started = now();
    const sandbox = await createSandbox();
    times.push(now() - started);
    await sandbox.close();
  }
  return { first: times[0] as number, later: times.slice(1) };
}

/** The mix through the client on a sandbox, over `fetch`: the sandbox's own or the network's. */
function searches(sandbox: SandboxControls, fetch: typeof globalThis.fetch, failed: { count: number }) {
  const { clientId, clientSecret } = sandbox.credentials;
  const key = JSON.stringify(sandbox.credentials.keyFile());
  const auth = serviceAccountAuth({ key, clientId, clientSecret, fetch });
  const client = createDrillClient({ baseUrl: sandbox.url, fetch, auth });
  return mixLoad(DEFAULT_CATALOG, failed, async (params) => {
    const answer = client.GET("/api/2/store", { params: { query: params as never } });
    return typeof (await unwrap(answer).catch(() => undefined))?.total === "number";
  });
}

/** The two doors in interleaved rounds. */
const doors = () =>
  withServers(async (open) => {
    const [inProcess, http] = [await open(createSandbox()), await open(startSandbox())];
    const failed = { count: 0 };
    const tasks = {
      http: searches(http, globalThis.fetch, failed),
      inProcess: searches(inProcess, inProcess.fetch, failed),
    };
    return { ...(await rounds(tasks, SERVER_LOAD)), failures: failed.count };
  });

/** The bearer-token digest the sandbox makes per request next to the platform's, with its share of a search. */
async function digestRows(perSearchMs: number): Promise<ResultRow[]> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const bytes = new TextEncoder().encode(token);
  const d = await rounds(
    { ours: () => sha256Text(token), platform: () => crypto.subtle.digest("SHA-256", bytes) },
    { rounds: 5, timeMs: 200, calls: 10 },
  );
  const [ours, platform] = [median(d.ours.medians), median(d.platform.medians)];
  return [
    infoCompared(
      "bearer-token digest: @noble/hashes SHA-256 vs `crypto.subtle.digest`, median",
      [ours, platform],
      fmt.ms,
      true,
    ),
    info("what `crypto.subtle.digest` would add to an in-process search (share of its time)", {
      ours: fmt.signedMs(platform - ours),
      reference: `${fmt.ms(perSearchMs)} per search`,
      ratio: fmt.percent((platform - ours) / perSearchMs),
    }),
  ];
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-in-process", async () => {
    const creates = await createTimes();
    const { rounds: done, http, inProcess, failures } = await doors();
    const createMs = median(creates.later);
    return {
      setup: [
        loadSetup(done, SERVER_LOAD, "searches", "door"),
        `createSandbox(): one first call, then ${creates.later.length} in a row (each closed before the next)`,
        "Digests: tinybench, 5 interleaved rounds of 200 ms each, of a 43-character token",
      ],
      rows: [
        throughputJudged(
          "store searches through the client: in process vs over loopback HTTP (median of per-round ratios)",
          [inProcess, http],
          3,
        ),
        loadCompared(
          `store search latency p99 at concurrency ${SERVER_LOAD.concurrency}: in process vs over loopback HTTP`,
          [inProcess, http],
          "p99",
        ),
        atMost(
          `createSandbox() with the default data: median of ${creates.later.length} after the first`,
          createMs,
          100,
          " ms",
          compared(createMs, creates.first, fmt.ms, "the first"),
        ),
        ...(await digestRows(1000 / median(inProcess.rates))),
      ],
      notes: [
        `${failures} search(es) failed. createSandbox() after the first: ` +
          `fastest ${fmt.ms(Math.min(...creates.later))}, slowest ${fmt.ms(Math.max(...creates.later))}.`,
      ],
    };
  });
}
