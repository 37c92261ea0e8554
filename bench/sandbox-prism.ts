/**
 * The sandbox next to Prism in mock mode: the same authenticated request against the same OpenAPI
 * description, in interleaved rounds. Prism is installed from the npm registry into the bench's own
 * scratch folder (never a project dependency) the first time this runs.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { type ChildMessage, type ChildServer, type SandboxInit, startChild } from "./fixtures.ts";
import type { BenchmarkResult, ResultRow } from "./report.ts";
import { defaultDrillCount } from "./sandbox-data.ts";
import {
  formatMs,
  formatPercent,
  formatRate,
  formatRatio,
  median,
  now,
  p99,
  runConcurrent,
  spread,
} from "./stats.ts";

const PRISM_PACKAGE = "@stoplight/prism-cli";
const PRISM_VERSION = "5.16.0";
const SCRATCH = fileURLToPath(
  new URL(`../node_modules/.cache/drill-bench/prism-${PRISM_VERSION}/`, import.meta.url),
);
const SPEC = fileURLToPath(new URL("../packages/sandbox/openapi/openapi.json", import.meta.url));
const PATH = "/api/2/store?query=spanish&resultSize=10";
const ROUNDS = 5;
const REQUESTS_PER_ROUND = 400;
const CONCURRENCY = 16;
const WARMUP = 100;
const ROUND_MAX_MS = 8000;
const INSTALL_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 60_000;

interface SandboxReady extends ChildMessage {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly keyFile: string;
}

/** Installs Prism into the scratch folder unless it is there already; returns its executable. */
async function installPrism(): Promise<string> {
  const bin = join(SCRATCH, "node_modules", ".bin", "prism");
  if (existsSync(bin)) return bin;
  await mkdir(SCRATCH, { recursive: true });
  await promisify(execFile)(
    "npm",
    [
      "install",
      `${PRISM_PACKAGE}@${PRISM_VERSION}`,
      "--prefix",
      SCRATCH,
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ],
    { timeout: INSTALL_TIMEOUT_MS, env: { ...process.env, npm_config_update_notifier: "false" } },
  );
  if (!existsSync(bin)) throw new Error(`npm install finished but ${bin} is missing`);
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `prism mock` on the spec and waits until it answers. */
async function startPrism(bin: string): Promise<{ url: string; process: ChildProcess; startupMs: number }> {
  const port = await freePort();
  const started = now();
  const child = spawn(
    bin,
    ["mock", SPEC, "--host", "127.0.0.1", "--port", String(port), "--errors", "false"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const url = `http://127.0.0.1:${port}`;
  while (now() - started < START_TIMEOUT_MS) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${url}/.well-known/oauth-authorization-server`).then(
      () => true,
      () => false,
    );
    if (up) return { url, process: child, startupMs: now() - started };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`prism did not answer within ${START_TIMEOUT_MS / 1000} s: ${stderr}`);
}

interface Target {
  readonly label: string;
  readonly url: string;
  readonly rates: number[];
  readonly latencies: number[];
  failures: number;
  status: number;
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const children: ChildServer<ChildMessage>[] = [];
  let prism: ChildProcess | undefined;
  try {
    const sandbox = await startChild<SandboxReady>("./sandbox-server.mjs", {
      drills: await defaultDrillCount(),
    } satisfies SandboxInit);
    children.push(sandbox);
    const key = await parseServiceAccountKey(sandbox.ready.keyFile);
    const provider = createTokenProvider({
      baseUrl: sandbox.ready.url,
      clientId: sandbox.ready.clientId,
      clientSecret: sandbox.ready.clientSecret,
      key,
    });
    const bearer = `Bearer ${(await provider.getToken()).value}`;

    let bin: string;
    let prismServer: Awaited<ReturnType<typeof startPrism>>;
    try {
      bin = await installPrism();
      prismServer = await startPrism(bin);
      prism = prismServer.process;
    } catch (error) {
      return notMeasured(started, (error as Error).message);
    }

    const targets: Target[] = [
      {
        label: "sandbox (default data)",
        url: `${sandbox.ready.url}${PATH}`,
        rates: [],
        latencies: [],
        failures: 0,
        status: 0,
      },
      {
        label: `Prism ${PRISM_VERSION} mock`,
        url: `${prismServer.url}${PATH}`,
        rates: [],
        latencies: [],
        failures: 0,
        status: 0,
      },
    ];
    const call = async (target: Target) => {
      const response = await fetch(target.url, { headers: { authorization: bearer } });
      await response.arrayBuffer();
      target.status = response.status;
      if (response.status !== 200) target.failures++;
    };
    for (const target of targets) {
      await runConcurrent({ total: WARMUP, concurrency: CONCURRENCY, maxMs: ROUND_MAX_MS }, () =>
        call(target),
      );
      target.failures = 0;
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const result = await runConcurrent(
          { total: REQUESTS_PER_ROUND, concurrency: CONCURRENCY, maxMs: ROUND_MAX_MS },
          () => call(target),
        );
        target.rates.push(result.perSecond);
        target.latencies.push(...result.latencies);
      }
    }
    const [ours, reference] = targets as [Target, Target];
    const ratio = median(ours.rates) / median(reference.rates);
    const rows: ResultRow[] = [
      {
        metric: `\`GET ${PATH}\`: throughput, sandbox vs Prism mock, median of rounds`,
        ours: formatRate(median(ours.rates), "req/s"),
        reference: formatRate(median(reference.rates), "req/s"),
        ratio: formatRatio(ratio),
        target: "—",
        verdict: "info",
        headline: true,
      },
      {
        metric: `latency p99 at concurrency ${CONCURRENCY}`,
        ours: formatMs(p99(ours.latencies)),
        reference: formatMs(p99(reference.latencies)),
        ratio: formatRatio(p99(ours.latencies) / p99(reference.latencies)),
        target: "—",
        verdict: "info",
      },
    ];
    const notes = [
      "Both answer from the same OpenAPI description and check the bearer header; the sandbox also checks that it " +
        "issued the token, validates every parameter and searches its data, while Prism returns the description's " +
        "example for the 2XX response.",
    ];
    for (const target of targets) {
      if (target.failures > 0) {
        notes.push(
          `**Warning:** ${target.label}: ${target.failures} answer(s) were not 200 (last status ${target.status}).`,
        );
      }
    }
    return {
      name: "sandbox-prism",
      title: "Sandbox next to Prism (mock mode)",
      measured:
        `Requests per second of the same authenticated \`GET ${PATH}\` against the sandbox and against \`prism mock\` ` +
        "on the sandbox's packaged OpenAPI description, each in its own process, same token, keep-alive.",
      setup: [
        `${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND} requests per server, at most ${CONCURRENCY} in flight, after ${WARMUP} warm-up requests each`,
        `Prism ${PRISM_VERSION} from the npm registry, installed by the bench into \`node_modules/.cache/drill-bench/\` (not a project dependency); it took ${formatMs(prismServer.startupMs)} to answer after spawning`,
        `Spread of rounds: sandbox ${formatPercent(spread(ours.rates))}, Prism ${formatPercent(spread(reference.rates))}`,
      ],
      rows,
      details: [],
      notes,
      durationMs: now() - started,
    };
  } finally {
    prism?.kill("SIGTERM");
    await Promise.all(children.map((child) => child.close()));
  }
}

function notMeasured(started: number, reason: string): BenchmarkResult {
  return {
    name: "sandbox-prism",
    title: "Sandbox next to Prism (mock mode)",
    measured: "Not measured in this run.",
    setup: [],
    rows: [
      {
        metric: "throughput, sandbox vs Prism mock",
        ours: "—",
        reference: "—",
        ratio: "—",
        target: "—",
        verdict: "info",
        headline: true,
      },
    ],
    details: [],
    notes: [`Prism could not be installed or started, so nothing was compared: ${reason.split("\n")[0]}`],
    durationMs: now() - started,
  };
}
