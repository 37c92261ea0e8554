/**
 * The runtime matrix: the packed client and auth, installed as a user installs them, run through
 * discovery, token exchange, store search, a question and an answer against a fresh sandbox in
 * every runtime of `src/runtimes.ts`. A runtime that is not installed is skipped with a loud
 * warning locally and fails under CI=true.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { IN_PROCESS_URL, type Sandbox, startSandbox } from "@drill-practice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declareMissing } from "../../../scripts/test-requirements.js";
import { type CaseInput, type CaseOutcome, runCase, runInProcessCase } from "../src/run-case.js";
import { pinnedVersion, RUNTIME_CASES, type RuntimeCase, unavailable } from "../src/runtimes.js";
import type { ScenarioReport } from "../src/scenario.js";
import { prepareScratch, type Scratch } from "../src/scratch.js";
import { operationsOf } from "./request-log.js";

/** Each runtime gets this long to start, run the whole scenario and stop. */
const CASE_DEADLINE_MS = 30_000;
/** A lifetime no default has, so the token's lifetime proves it came from this sandbox. */
const TOKEN_LIFETIME_SECONDS = 1234;

/**
 * The one word the runtimes search for. Only some in-store names hold it, as a word of its own, so
 * which entries the search must find is evident from the data below.
 */
const SEARCH_WORD = "quokka";

interface DataItem {
  readonly ask: string;
  readonly tell: string;
}
interface DataEntry {
  readonly id: string;
  readonly name: string;
  readonly inStore?: boolean;
  readonly items?: readonly DataItem[];
}

/** Drills and a course in the sandbox's data file format (packages/sandbox/data/FORMAT.md). */
const DRILLS: readonly DataEntry[] = [
  {
    id: "drill-quokka-colours",
    name: "Quokka colours",
    items: [
      { ask: "red", tell: "rot" },
      { ask: "green", tell: "grün" },
      { ask: "blue", tell: "blau" },
      { ask: "yellow", tell: "gelb" },
    ],
  },
  {
    id: "drill-quokka-numbers",
    name: "Quokka numbers",
    items: [
      { ask: "one", tell: "eins" },
      { ask: "two", tell: "zwei" },
      { ask: "three", tell: "drei" },
      { ask: "four", tell: "vier" },
    ],
  },
  // Holds the word but is not in the store: the search must not find it.
  {
    id: "drill-quokka-hidden",
    name: "Quokka secrets",
    inStore: false,
    items: [
      { ask: "key", tell: "Schlüssel" },
      { ask: "door", tell: "Tür" },
    ],
  },
  // In the store without the word.
  {
    id: "drill-harbour-birds",
    name: "Harbour birds",
    items: [
      { ask: "gull", tell: "Möwe" },
      { ask: "heron", tell: "Reiher" },
    ],
  },
];
const COURSES: readonly (DataEntry & { readonly drillIds: readonly string[] })[] = [
  { id: "course-quokka-basics", name: "Quokka basics", drillIds: ["drill-quokka-colours"] },
];

const storeEntries = [...DRILLS, ...COURSES].filter((entry) => entry.inStore !== false);
const expectedIds = storeEntries
  .filter((entry) => entry.name.toLowerCase().split(" ").includes(SEARCH_WORD))
  .map((entry) => entry.id);
/** Every ask of the data with its right tell; the runtime answers from it. */
const answerKey = Object.fromEntries(
  DRILLS.flatMap((drill) => drill.items ?? []).map((item) => [item.ask, item.tell]),
);

function dataFileText(): string {
  return JSON.stringify(matrixData());
}

function matrixData() {
  const serviceAccountId = "svc-matrix";
  return {
    formatVersion: 1,
    organizations: [{ id: "org-matrix", name: "Runtime matrix", serviceAccountId }],
    users: [{ id: serviceAccountId, name: "Runtime matrix integration", organizationId: "org-matrix" }],
    drills: DRILLS.map((drill) => ({
      id: drill.id,
      type: "DRILL",
      name: drill.name,
      subject: "German",
      inStore: drill.inStore !== false,
      askName: "English",
      tellName: "German",
      items: drill.items,
    })),
    courses: COURSES.map((course) => ({
      id: course.id,
      name: course.name,
      subject: "German",
      drillIds: course.drillIds,
    })),
  };
}

const available = RUNTIME_CASES.map((runtime) => ({ runtime, missing: unavailable(runtime) }));
let scratch: Scratch | undefined;
let dataFile: string | undefined;

describe("runtime matrix", () => {
  beforeAll(async () => {
    if (available.some(({ missing }) => missing === undefined)) {
      scratch = await prepareScratch();
      dataFile = join(scratch.dir, "matrix-data.json");
      await writeFile(dataFile, dataFileText());
    }
  }, 180_000);

  afterAll(async () => {
    await scratch?.close();
  });

  for (const { runtime, missing } of available) {
    if (declareMissing(runtime.name, missing)) continue;
    it(
      `${runtime.name}: discovery, token exchange, store search, question and answer with the packed packages`,
      async () => {
        await runAndCheck(runtime);
      },
      CASE_DEADLINE_MS + 20_000,
    );
    it(
      `${runtime.name}: the same scenario against the in-process sandbox (createSandbox from its Web entry, no server on the host)`,
      async () => {
        await runInProcessAndCheck(runtime);
      },
      CASE_DEADLINE_MS + 20_000,
    );
  }
});

async function runAndCheck(runtime: RuntimeCase): Promise<void> {
  if (scratch === undefined || dataFile === undefined) {
    throw new Error("the scratch project was not prepared");
  }
  const requests: string[] = [];
  const sandbox = await startSandbox({
    dataFile,
    tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
    onRequest: (line) => requests.push(line),
  });
  try {
    const input = await caseInput(runtime, sandbox, scratch);
    const outcome = await runCase(runtime, scratch, input, CASE_DEADLINE_MS);
    const context = `${runtime.name} (${outcome.seconds.toFixed(1)} s)\nsandbox saw:\n  ${requests.join("\n  ")}\n${outcome.diagnostics}`;
    const report = outcome.report;
    if (report === undefined) throw new Error(`${runtime.name} printed no report: ${context}`);
    checkOutcome(runtime, outcome, report, requests, context, "HTTP");

    // Nothing secret reaches the runtime's output.
    const key = JSON.parse(input.keyJson) as { privateKey: string };
    const pemBody = key.privateKey.split("\n")[1] ?? key.privateKey;
    expect(outcome.diagnostics.includes(input.clientSecret), "client secret in output").toBe(false);
    expect(outcome.diagnostics.includes(pemBody), "private key in output").toBe(false);
  } finally {
    await sandbox.close();
  }
}

/**
 * The in-process case: the runtime makes the sandbox itself from the same data and reports its
 * request log; the host starts no server.
 */
async function runInProcessAndCheck(runtime: RuntimeCase): Promise<void> {
  if (scratch === undefined) throw new Error("the scratch project was not prepared");
  const outcome = await runInProcessCase(
    runtime,
    scratch,
    {
      data: matrixData(),
      tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      searchQuery: SEARCH_WORD,
      answerKey,
    },
    CASE_DEADLINE_MS,
  );
  const report = outcome.report;
  const requests = report?.requests ?? [];
  const context = `${runtime.name}, in process (${outcome.seconds.toFixed(1)} s)\nsandbox saw:\n  ${requests.join("\n  ")}\n${outcome.diagnostics}`;
  if (report === undefined) throw new Error(`${runtime.name} printed no report: ${context}`);
  // The runtime's own sandbox answered, at its fixed origin, with responses that match the description.
  expect(report.url, context).toBe(IN_PROCESS_URL);
  expect(report.violations, context).toEqual([]);
  checkOutcome(runtime, outcome, report.scenario, requests, context, "in process");
}

/** The checks both cases share: the runtime's version, its report against the data, the request log. */
function checkOutcome(
  runtime: RuntimeCase,
  outcome: Omit<CaseOutcome<unknown>, "report">,
  report: ScenarioReport,
  requests: readonly string[],
  context: string,
  door: string,
): void {
  if (!report.ok) {
    throw new Error(`${runtime.name} (${door}) failed at step "${report.step}": ${report.error}\n${context}`);
  }
  console.info(
    `runtime matrix: ${runtime.name} ${outcome.version} (${door}) passed in ${outcome.seconds.toFixed(1)} s`,
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
  expect(operationsOf(requests), context).toEqual([
    "getAuthorizationServerMetadata 200",
    "exchangeToken 200",
    "searchStore_v2_0 200",
    "getQuestion_v2_0 200",
    "submitAnswer_v2_0 200",
  ]);
}

function checkReport(report: Extract<ScenarioReport, { ok: true }>, context: string): void {
  expect(report.token.tokenType.toLowerCase(), context).toBe("bearer");
  // Measured between request and response, so a second may go either way.
  expect(Math.abs(report.token.lifetimeSeconds - TOKEN_LIFETIME_SECONDS), context).toBeLessThanOrEqual(2);

  expect(new Set(report.store.ids), context).toEqual(new Set(expectedIds));
  expect(report.store.total, context).toBe(expectedIds.length);

  const drill = DRILLS.find((candidate) => candidate.id === report.question.drillId);
  if (drill === undefined) {
    throw new Error(`question for a drill that is not in the data: ${report.question.drillId}\n${context}`);
  }
  expect(expectedIds, context).toContain(drill.id);
  const items = drill.items ?? [];
  const item = items.find((candidate) => candidate.ask === report.question.ask);
  if (item === undefined) throw new Error(`"${report.question.ask}" is not asked by ${drill.id}\n${context}`);
  // The right tell and the other choices, all from the same drill.
  expect(report.question.choices, context).toContain(item.tell);
  const tells = items.map((candidate) => candidate.tell);
  for (const choice of report.question.choices) expect(tells, context).toContain(choice);

  // Sent: the right tell, then another choice; one wrong value makes the whole answer wrong.
  const [right, wrong] = report.answer.values;
  expect(right, context).toBe(item.tell);
  expect(report.question.choices, context).toContain(wrong);
  expect(wrong, context).not.toBe(item.tell);
  expect(report.answer.result, context).toBe("INCORRECT");
  expect(report.answer.terms, context).toEqual(
    expect.arrayContaining([
      { value: item.tell, result: "CORRECT" },
      { value: wrong, result: "INCORRECT" },
    ]),
  );
  expect(report.answer.terms, context).toHaveLength(2);
  const overall = report.answer.overallProficiency;
  expect(Number.isInteger(overall) && overall !== undefined && overall >= 0 && overall <= 100, context).toBe(
    true,
  );
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
    searchQuery: SEARCH_WORD,
    answerKey,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    keyJson,
    keyFile,
  };
}
