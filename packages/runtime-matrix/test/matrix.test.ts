/**
 * The runtime matrix: the packed client and auth, installed as a user installs them, run through
 * discovery, token exchange, store search, a question and an answer against a fresh sandbox in
 * every runtime of `src/runtimes.ts`. A runtime that is not installed is skipped with a loud
 * warning locally and fails under CI=true.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createDefaultDataset,
  type Sandbox,
  type SandboxData,
  startSandbox,
  tokenize,
} from "@drill-practice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaseInput, runCase } from "../src/run-case.js";
import { pinnedVersion, RUNTIME_CASES, type RuntimeCase, unavailable } from "../src/runtimes.js";
import type { ScenarioReport } from "../src/scenario.js";
import { prepareScratch, type Scratch } from "../src/scratch.js";

const underCI = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase());

/** Each runtime gets this long to start, run the whole scenario and stop. */
const CASE_DEADLINE_MS = 30_000;
/** A lifetime no default has, so the token's lifetime proves it came from this sandbox. */
const TOKEN_LIFETIME_SECONDS = 1234;

const dataset = createDefaultDataset();
const search = chooseSearch(dataset);

const available = RUNTIME_CASES.map((runtime) => ({ runtime, missing: unavailable(runtime) }));
for (const { missing } of available) {
  if (missing !== undefined && !underCI) {
    console.warn(`\n!!! RUNTIME MATRIX: SKIPPED ${missing}\n`);
  }
}

let scratch: Scratch | undefined;

describe("runtime matrix", () => {
  beforeAll(async () => {
    if (available.some(({ missing }) => missing === undefined)) scratch = await prepareScratch();
  }, 180_000);

  afterAll(async () => {
    await scratch?.close();
  });

  for (const { runtime, missing } of available) {
    if (missing !== undefined) {
      if (underCI) {
        it(`${runtime.name} is installed (CI=true)`, () => {
          throw new Error(`runtime not available under CI: ${missing}`);
        });
      } else {
        it.skip(`${runtime.name}: SKIPPED, not available here (${missing})`, () => {});
      }
      continue;
    }
    it(
      `${runtime.name}: discovery, token exchange, store search, question and answer with the packed packages`,
      async () => {
        await runAndCheck(runtime);
      },
      CASE_DEADLINE_MS + 20_000,
    );
  }
});

async function runAndCheck(runtime: RuntimeCase): Promise<void> {
  if (scratch === undefined) throw new Error("the scratch project was not prepared");
  const requests: string[] = [];
  const sandbox = await startSandbox({
    data: dataset,
    tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
    onRequest: (line) => requests.push(line),
  });
  try {
    const input = await caseInput(runtime, sandbox, scratch);
    const outcome = await runCase(runtime, scratch, input, CASE_DEADLINE_MS);
    const context = `${runtime.name} (${outcome.seconds.toFixed(1)} s)\nsandbox saw:\n  ${requests.join("\n  ")}\n${outcome.diagnostics}`;
    const report = outcome.report;
    if (report === undefined) throw new Error(`${runtime.name} printed no report: ${context}`);
    if (!report.ok) {
      throw new Error(`${runtime.name} failed at step "${report.step}": ${report.error}\n${context}`);
    }
    console.info(
      `runtime matrix: ${runtime.name} ${outcome.version} passed in ${outcome.seconds.toFixed(1)} s`,
    );

    if (runtime.kind === "chromium") {
      // The worker's user agent names the major version of the browser that was launched.
      const major = outcome.version?.split(".")[0] ?? "none";
      expect(report.runtime, context).toContain(`Chrome/${major}.`);
    } else {
      expect(outcome.version, context).toContain(expectedVersion(runtime));
    }
    checkReport(report, context);

    // Discovery and the token exchange once, then the three API calls; nothing retried, nothing failed.
    const operations = requests.map((line) => {
      const [, , status, operationId] = line.split(" ");
      return `${operationId} ${status}`;
    });
    expect(operations, context).toEqual([
      "getAuthorizationServerMetadata 200",
      "exchangeToken 200",
      "searchStore_v2_0 200",
      "getQuestion_v2_0 200",
      "submitAnswer_v2_0 200",
    ]);

    // Nothing secret reaches the runtime's output.
    const key = JSON.parse(input.keyJson) as { privateKey: string };
    const pemBody = key.privateKey.split("\n")[1] ?? key.privateKey;
    expect(outcome.diagnostics.includes(input.clientSecret), "client secret in output").toBe(false);
    expect(outcome.diagnostics.includes(pemBody), "private key in output").toBe(false);
  } finally {
    await sandbox.close();
  }
}

function checkReport(report: Extract<ScenarioReport, { ok: true }>, context: string): void {
  expect(report.token.tokenType.toLowerCase(), context).toBe("bearer");
  // Measured between request and response, so a second may go either way.
  expect(Math.abs(report.token.lifetimeSeconds - TOKEN_LIFETIME_SECONDS), context).toBeLessThanOrEqual(2);

  expect(new Set(report.store.ids), context).toEqual(new Set(search.expectedIds));
  expect(report.store.total, context).toBe(search.expectedIds.length);

  const drill = dataset.drills.find((candidate) => candidate.id === report.question.drillId);
  if (drill === undefined)
    throw new Error(`question for an unknown drill ${report.question.drillId}\n${context}`);
  expect(search.expectedIds, context).toContain(drill.id);
  const item = drill.items.find((candidate) => candidate.ask === report.question.ask);
  if (item === undefined) throw new Error(`"${report.question.ask}" is not asked by ${drill.id}\n${context}`);
  expect(report.question.choices, context).toContain(item.tell);

  expect(report.answer.expected, context).toBe(item.tell);
  expect(report.answer.correct, context).toBe(report.answer.value === item.tell);
}

/** The version the case must report: the pinned one, or the host's own Node. */
function expectedVersion(runtime: RuntimeCase): string {
  if (runtime.id === "node20") return `node ${process.versions.node}`;
  if (runtime.npmPackage === undefined) throw new Error(`${runtime.id}: no version to expect`);
  return pinnedVersion(runtime.npmPackage);
}

async function caseInput(runtime: RuntimeCase, sandbox: Sandbox, dir: Scratch): Promise<CaseInput> {
  const key = sandbox.credentials.keyFile();
  if (key === undefined) throw new Error("the sandbox made no service account");
  const keyJson = JSON.stringify(key);
  const keysDir = join(dir.dir, "keys");
  await mkdir(keysDir, { recursive: true, mode: 0o700 });
  const keyFile = join(keysDir, `${runtime.id}.json`);
  await writeFile(keyFile, keyJson, { mode: 0o600 });
  await chmod(keyFile, 0o600);
  return {
    baseUrl: sandbox.url,
    searchQuery: search.query,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    keyJson,
    keyFile,
  };
}

/**
 * A word of a drill's name that few store entries share, and the entries whose names hold it:
 * the search must find exactly those, whichever runtime asks.
 */
function chooseSearch(data: SandboxData): { query: string; expectedIds: string[] } {
  const entries = [...data.drills, ...data.courses].filter((entry) => entry.inStore);
  let best: { query: string; expectedIds: string[] } | undefined;
  for (const drill of data.drills.filter((d) => d.inStore && d.items.length > 0)) {
    for (const word of tokenize(drill.name)) {
      const expectedIds = entries.filter((e) => tokenize(e.name).includes(word)).map((e) => e.id);
      if (
        expectedIds.length >= 2 &&
        expectedIds.length <= 6 &&
        (!best || expectedIds.length < best.expectedIds.length)
      )
        best = { query: word, expectedIds };
    }
  }
  if (best === undefined) throw new Error("the dataset has no drill name word to search for");
  return best;
}
