/**
 * Sandbox next to Prism: the same authenticated store search against the sandbox (its own process)
 * and `prism mock` on the sandbox's packaged description. Prism is installed by the bench into a
 * cache folder, not a project dependency.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { startSandboxServer } from "./fixtures.ts";
import { type BenchmarkResult, fmt, info, loadRounds, median, now, p99, spread, timed } from "./harness.ts";

const PRISM_VERSION = "5.16.0";
const CACHE = fileURLToPath(
  new URL(`../node_modules/.cache/drill-bench/prism-${PRISM_VERSION}/`, import.meta.url),
);
const SPEC = fileURLToPath(new URL("../packages/sandbox/openapi/openapi.json", import.meta.url));
const PATH = "/api/2/store?query=spanish&resultSize=10";
const LOAD = {
  rounds: 5,
  total: 400,
  concurrency: 16,
  roundMaxMs: 8000,
  maxMs: 90_000,
  warmup: { total: 100, maxMs: 8000 },
};
const START_TIMEOUT_MS = 60_000;
const TITLE = "Sandbox next to Prism (mock mode)";

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
    "--loglevel=error",
  ];
  await promisify(execFile)("npm", args, {
    timeout: 180_000,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  if (!existsSync(bin)) throw new Error(`npm install finished but ${bin} is missing`);
  return bin;
}

/** Prism on a port it is given (picked at random), polled until it answers. */
async function startPrism(bin: string): Promise<{ url: string; process: ChildProcess; startupMs: number }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
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
  while (now() - started < START_TIMEOUT_MS && child.exitCode === null) {
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

export function run(): Promise<BenchmarkResult> {
  return timed("sandbox-prism", async () => {
    const sandbox = await startSandboxServer();
    let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
    try {
      const { url, clientId, clientSecret, keyFile } = sandbox.ready;
      const key = await parseServiceAccountKey(keyFile);
      const bearer = `Bearer ${(await createTokenProvider({ baseUrl: url, clientId, clientSecret, key }).getToken()).value}`;
      try {
        prism = await startPrism(await installPrism());
      } catch (error) {
        const reason = (error as Error).message.split("\n")[0];
        return {
          title: TITLE,
          measured: "Not measured in this run.",
          setup: [],
          rows: [info("throughput, sandbox vs Prism mock", { ours: "—" }, true)],
          details: [],
          notes: [`Prism could not be installed or started, so nothing was compared: ${reason}`],
        };
      }
      let failures = 0;
      const call = (base: string) => async () => {
        const response = await fetch(`${base}${PATH}`, { headers: { authorization: bearer } });
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      };
      const { rounds, figures } = await loadRounds({ sandbox: call(url), prism: call(prism.url) }, LOAD);
      const { sandbox: ours, prism: reference } = figures;
      return {
        title: TITLE,
        measured:
          `Requests per second of the same authenticated \`GET ${PATH}\` against the sandbox and against \`prism mock\` ` +
          "on the sandbox's packaged OpenAPI description, each in its own process, same token, keep-alive.",
        setup: [
          `${rounds} interleaved rounds of ${LOAD.total} requests per server, at most ${LOAD.concurrency} in flight, after ${LOAD.warmup.total} warm-up requests each`,
          `Prism ${PRISM_VERSION} from the npm registry, installed by the bench into \`node_modules/.cache/drill-bench/\` (not a project dependency); it took ${fmt.ms(prism.startupMs)} to answer after spawning`,
          `Spread of rounds: sandbox ${fmt.percent(spread(ours.rates))}, Prism ${fmt.percent(spread(reference.rates))}`,
        ],
        rows: [
          info(
            `\`GET ${PATH}\`: throughput, sandbox vs Prism mock, median of rounds`,
            {
              ours: fmt.rate(median(ours.rates)),
              reference: fmt.rate(median(reference.rates)),
              ratio: fmt.ratio(median(ours.rates) / median(reference.rates)),
            },
            true,
          ),
          info(`latency p99 at concurrency ${LOAD.concurrency}`, {
            ours: fmt.ms(p99(ours.latencies)),
            reference: fmt.ms(p99(reference.latencies)),
            ratio: fmt.ratio(p99(ours.latencies) / p99(reference.latencies)),
          }),
        ],
        details: [],
        notes: [
          "Both answer from the same OpenAPI description and check the bearer header; the sandbox also checks that it " +
            "issued the token, validates every parameter and searches its data, while Prism returns the description's " +
            `example for the 2XX response. Answers other than 200: ${failures}.`,
        ],
      };
    } finally {
      prism?.process.kill("SIGTERM");
      await sandbox.close();
    }
  });
}
