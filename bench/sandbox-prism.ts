/**
 * Sandbox next to Prism: the same authenticated store search against the sandbox (its own process)
 * and `prism mock` on the sandbox's packaged description. Prism is installed by the bench into a
 * cache folder, not a project dependency.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess, startProcess } from "@drill-practice/tooling/process";
import { bearer, startSandboxServer } from "./fixtures.ts";
import {
  type BenchmarkResult,
  fmt,
  info,
  loadCompared,
  loadSetup,
  now,
  rounds,
  SERVER_LOAD,
  spread,
  timed,
} from "./harness.ts";
import { withServers } from "./sandbox-setup.ts";

const PRISM_VERSION = "5.16.0";
const CACHE = fileURLToPath(
  new URL(`../node_modules/.cache/drill-bench/prism-${PRISM_VERSION}/`, import.meta.url),
);
const SPEC = fileURLToPath(new URL("../packages/sandbox/openapi/openapi.json", import.meta.url));
const PATH = "/api/2/store?query=spanish&resultSize=10";
const WARMUP = { calls: 100, timeMs: 8000 };
const LOAD = { ...SERVER_LOAD, rounds: 5, calls: 400, timeMs: 8000, maxMs: 90_000, warmup: WARMUP };

async function installPrism(): Promise<string> {
  const bin = join(CACHE, "node_modules", ".bin", "prism");
  if (existsSync(bin)) return bin;
  await mkdir(CACHE, { recursive: true });
  const args = [
    "install",
    `@stoplight/prism-cli@${PRISM_VERSION}`,
    "--prefix",
    CACHE,
    "--no-audit",
    "--no-fund",
  ];
  // The user's npm settings (registry, proxy) apply; a loaded machine needs minutes for the install.
  const env = { ...process.env, npm_config_update_notifier: "false", npm_config_loglevel: "error" };
  const run = await runProcess({ command: "npm", args, cwd: CACHE, env, timeoutMs: 420_000 });
  const why = run.timedOut ? "timed out after 420 s" : `ended (exit ${run.exitCode})`;
  if (!existsSync(bin))
    throw new Error(`npm install ${why} but ${bin} is missing: ${run.stderr.slice(-500)}`);
  return bin;
}

/** Prism on a port picked at random, ready once it says it listens. */
async function startPrism(bin: string) {
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  const started = now();
  const prism = await startProcess({
    command: bin,
    args: ["mock", SPEC, "--host", "127.0.0.1", "--port", port, "--errors", "false"],
    ...{ cwd: CACHE, env: process.env, startMs: 60_000, name: "prism" },
    readyWhen: /Prism is listening on (http:\S+)/,
  });
  const close = () => prism.child.kill("SIGTERM");
  return { url: prism.ready[1] as string, startupMs: now() - started, close };
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-prism", () =>
    withServers(async (open) => {
      const sandbox = await open(startSandboxServer());
      const authorization = await bearer(sandbox.ready);
      const prism = await open(installPrism().then(startPrism)).catch((error: Error) => error);
      if (prism instanceof Error) {
        const why = `Prism could not be installed or started, so nothing was compared: ${prism.message.split("\n")[0]}`;
        return { rows: [info("throughput, sandbox vs Prism mock", { ours: "—" }, true)], notes: [why] };
      }
      let failures = 0;
      const call = (base: string) => async () => {
        const response = await fetch(`${base}${PATH}`, { headers: { authorization } });
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      };
      const r = await rounds({ sandbox: call(sandbox.ready.url), prism: call(prism.url) }, LOAD);
      return {
        setup: [
          loadSetup(r.rounds, LOAD, "requests", "server"),
          `Prism ${PRISM_VERSION}; it took ${fmt.ms(prism.startupMs)} to answer after spawning`,
          `Spread of rounds: sandbox ${fmt.percent(spread(r.sandbox.rates))}, Prism ${fmt.percent(spread(r.prism.rates))}`,
        ],
        rows: [
          loadCompared(
            `\`GET ${PATH}\`: throughput, sandbox vs Prism mock, median of rounds`,
            [r.sandbox, r.prism],
            "throughput",
            true,
          ),
          loadCompared(`latency p99 at concurrency ${LOAD.concurrency}`, [r.sandbox, r.prism], "p99"),
        ],
        notes: [`Answers other than 200: ${failures}.`],
      };
    }),
  );
}
