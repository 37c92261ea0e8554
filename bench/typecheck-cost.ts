/**
 * Type-check cost for consumers: `tsc --noEmit` of a consumer file that makes ten API 2.0 calls
 * through the client's one-version entry (`@drill-practice/client/v2.0`) and through its
 * all-versions entry, next to the same ten calls written with openapi-fetch's `createClient<paths>`
 * on the 2.0 `paths` as openapi-typescript generates them (the reference with a target), and with
 * plain `fetch` and no client.
 */
import { copyFile, mkdir, readdir, stat, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import {
  type BenchmarkResult,
  compared,
  fmt,
  info,
  judged,
  median,
  noise,
  pairedRatios,
  type ResultRow,
  ratioRow,
  spread,
  timed,
} from "./harness.ts";

const RUNS = 5;
const RUNS_FULL_LIB_CHECK = 2;
/** One-version consumer against the same calls through openapi-fetch's `createClient<paths>`: at most this ratio. */
const TARGET_RATIO = 1.1;
const TSC_TIMEOUT_MS = 120_000;

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/lib/tsc.js");

// The same ten API 2.0 calls four times: through the one-version entry, through the all-versions
// entry, through openapi-fetch alone on the generated 2.0 paths (the reference), and with plain fetch.
const calls = (answerOptions: string) => `
export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  const store = await client.GET("/api/2/store", {
    params: { query: { query: "spanish AND verbs", searchField: ["NAME", "TAGS"], resultSize: "20" } },
  });
  for (const drill of store.data?.drills ?? []) seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  const related = await client.GET("/api/2/store/related/{drill_id}", { params: { path: { drill_id: drillId } } });
  seen += related.response.ok ? 1 : 0;
  const question = await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: drillId } } });
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  const combined = await client.GET("/api/2/question", { params: { query: { drill: [drillId, "drill-2"] } } });
  const reference = combined.data?.question?.reference ?? "";
  const answer = await client.PUT("/api/2/answer/{reference}", {
    params: { path: { reference } },
    body: { answer: [choices[0] ?? ""] },${answerOptions}
  });
  seen += answer.response.status;
  const preferences = await client.GET("/api/2/practice-preferences/{drill_id}", { params: { path: { drill_id: drillId } } });
  seen += preferences.response.ok ? 1 : 0;
  const repertoire = await client.GET("/api/2/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  const added = await client.PUT("/api/2/repertoire");
  seen += added.response.ok ? 1 : 0;
  const removed = await client.DELETE("/api/2/repertoire");
  seen += removed.response.ok ? 1 : 0;
  const version = await client.GET("/api/2/version");
  seen += version.response.ok ? 1 : 0;
  return seen + choices.length;
}
`;

const throughClient = (entry: string) => `import { createDrillClient } from "${entry}";

const client = createDrillClient({ baseUrl: "https://drill.example" });
${calls("")}`;

/** The generated 2.0 types, copied into the openapi-fetch consumer as a project generates its own. */
const GENERATED_V2_0 = "openapi-v2.0.d.ts";

// openapi-fetch sends JSON unless told otherwise; the answer is a form, so this consumer says how,
// as the client does for its users.
const OPENAPI_FETCH = `import createClient from "openapi-fetch";
import type { paths } from "./${GENERATED_V2_0.replace(".d.ts", ".js")}";

const client = createClient<paths>({ baseUrl: "https://drill.example" });
${calls(`
    bodySerializer: (body) => {
      const form = new URLSearchParams();
      for (const value of body.answer) form.append("answer", value);
      return form;
    },`)}`;

const WITHOUT_CLIENT = `const baseUrl = "https://drill.example";

interface Drillable {
  id: string;
  name: string;
  subject: string;
  type: string;
  description: string;
  practice?: { proficiency?: { receptive: number; productive: number; overall: number } };
}
interface Drillables {
  total: number;
  drills: Drillable[];
}
interface QuestionResponse {
  question?: { reference?: string; tell?: { terms?: { value: string }[] } };
  notifications: unknown[];
}

async function getJson<T>(path: string, init?: RequestInit): Promise<{ data?: T; response: Response }> {
  const response = await fetch(baseUrl + path, init);
  return response.ok ? { data: (await response.json()) as T, response } : { response };
}

export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  const id = encodeURIComponent(drillId);
  const search = new URLSearchParams({ query: "spanish AND verbs", resultSize: "20" });
  for (const field of ["NAME", "TAGS"]) search.append("searchField", field);
  const store = await getJson<Drillables>(\`/api/2/store?\${search}\`);
  for (const drill of store.data?.drills ?? []) seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  const related = await getJson<Drillables>(\`/api/2/store/related/\${id}\`);
  seen += related.response.ok ? 1 : 0;
  const question = await getJson<QuestionResponse>(\`/api/2/question/\${id}\`);
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  const drills = new URLSearchParams();
  for (const drill of [drillId, "drill-2"]) drills.append("drill", drill);
  const combined = await getJson<QuestionResponse>(\`/api/2/question?\${drills}\`);
  const reference = combined.data?.question?.reference ?? "";
  const answer = await getJson<unknown>(\`/api/2/answer/\${encodeURIComponent(reference)}\`, {
    method: "PUT",
    body: new URLSearchParams({ answer: choices[0] ?? "" }),
  });
  seen += answer.response.status;
  const preferences = await getJson<unknown>(\`/api/2/practice-preferences/\${id}\`);
  seen += preferences.response.ok ? 1 : 0;
  const repertoire = await getJson<unknown>("/api/2/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  const added = await getJson<unknown>("/api/2/repertoire", { method: "PUT" });
  seen += added.response.ok ? 1 : 0;
  const removed = await getJson<unknown>("/api/2/repertoire", { method: "DELETE" });
  seen += removed.response.ok ? 1 : 0;
  const version = await getJson<{ version?: string }>("/api/2/version");
  seen += version.response.ok ? 1 : 0;
  return seen + choices.length;
}
`;

function tsconfig(skipLibCheck: boolean): string {
  const lib = ["ES2023", "DOM", "DOM.Iterable"];
  const compilerOptions = {
    target: "ES2022",
    lib,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
  };
  return JSON.stringify({
    compilerOptions: { ...compilerOptions, noEmit: true, skipLibCheck, types: [] },
    files: ["consumer.ts"],
  });
}

interface TscRun {
  readonly wallMs: number;
  readonly checkMs: number;
  readonly parseMs: number;
  readonly bindMs: number;
  readonly instantiations: number;
  readonly files: number;
}

/** One `tsc -p project --extendedDiagnostics`, timed from spawn to exit. */
async function runTsc(project: string): Promise<TscRun> {
  const args = [TSC, "-p", project, "--extendedDiagnostics"];
  const run = await runProcess({
    command: process.execPath,
    args,
    cwd: project,
    env: {},
    timeoutMs: TSC_TIMEOUT_MS,
  });
  const output = run.stdout + run.stderr;
  if (run.exitCode !== 0)
    throw new Error(`tsc -p ${project} failed (exit ${run.exitCode}):\n${output.slice(0, 4000)}`);
  const number = (label: string) =>
    Number(new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(output)?.[1] ?? Number.NaN);
  return {
    wallMs: run.seconds * 1000,
    checkMs: number("Check time") * 1000,
    parseMs: number("Parse time") * 1000,
    bindMs: number("Bind time") * 1000,
    instantiations: number("Instantiations"),
    files: number("Files"),
  };
}

async function sizeOf(dir: string, suffix: string, recursive: boolean): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive })) {
    if (entry.isFile() && entry.name.endsWith(suffix))
      total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function makeProject(root: string, name: ProjectName, skipLibCheck: boolean): Promise<string> {
  const dir = join(root, `${name}-${skipLibCheck ? "skip" : "full"}`);
  await mkdir(join(dir, "node_modules", "@drill-practice"), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  await writeFile(join(dir, "tsconfig.json"), tsconfig(skipLibCheck));
  await writeFile(join(dir, "consumer.ts"), PROJECTS[name].source);
  await symlink(CLIENT_DIR, join(dir, "node_modules", "@drill-practice", "client"), "dir");
  if (name === "openapiFetch") {
    // The very openapi-fetch the client depends on, and the 2.0 types as the client ships them.
    await symlink(
      join(CLIENT_DIR, "node_modules", "openapi-fetch"),
      join(dir, "node_modules", "openapi-fetch"),
      "dir",
    );
    await copyFile(join(CLIENT_DIR, "dist", "generated", GENERATED_V2_0), join(dir, GENERATED_V2_0));
  }
  return dir;
}

const PROJECTS = {
  oneVersion: {
    label: "one version (`@drill-practice/client/v2.0`)",
    source: throughClient("@drill-practice/client/v2.0"),
  },
  allVersions: {
    label: "all versions (`@drill-practice/client`)",
    source: throughClient("@drill-practice/client"),
  },
  openapiFetch: {
    label: "openapi-fetch alone (`createClient<paths>`, generated 2.0 `paths`)",
    source: OPENAPI_FETCH,
  },
  without: { label: "without a client (plain `fetch`)", source: WITHOUT_CLIENT },
};
type ProjectName = keyof typeof PROJECTS;
const NAMES = Object.keys(PROJECTS) as ProjectName[];
type Runs = Record<ProjectName, { skip: TscRun[]; full: TscRun[] }>;

/** Every project type-checked in interleaved runs, so a slow patch of the machine hits all alike. */
async function measure(root: string): Promise<Runs> {
  const runs = {} as Runs;
  const projects: Record<string, string> = {};
  for (const name of NAMES) {
    runs[name] = { skip: [], full: [] };
    for (const skip of [true, false]) projects[`${name} ${skip}`] = await makeProject(root, name, skip);
  }
  for (let i = 0; i < RUNS; i++)
    for (const skip of i < RUNS_FULL_LIB_CHECK ? [true, false] : [true])
      for (const name of NAMES)
        runs[name][skip ? "skip" : "full"].push(await runTsc(projects[`${name} ${skip}`] as string));
  return runs;
}

const series = (list: TscRun[], field: keyof TscRun) => list.map((entry) => entry[field]);
const pick = (list: TscRun[], field: keyof TscRun) => median(series(list, field));

function wallRows(runs: Runs): ResultRow[] {
  const wall = (name: ProjectName) => series(runs[name].skip, "wallMs");
  const versus = "vs the same calls through openapi-fetch's `createClient<paths>`, median of per-run ratios";
  const rows = (["oneVersion", "allVersions"] as const).map((name) => {
    const ratios = pairedRatios(wall(name), wall("openapiFetch"));
    const metric = `\`tsc --noEmit\` wall time (skipLibCheck), consumer of ${PROJECTS[name].label} ${versus}`;
    const cells = {
      ours: fmt.spread(wall(name), fmt.ms),
      reference: `${fmt.spread(wall("openapiFetch"), fmt.ms)} (openapi-fetch alone, generated 2.0 \`paths\`)`,
      ratio: fmt.spread(ratios, fmt.ratio),
    };
    if (name === "allVersions") return info(metric, cells, true);
    const [ratio, noisy] = [median(ratios), noise(ratios, wall(name), wall("openapiFetch"))];
    const miss = `${fmt.percent(ratio / TARGET_RATIO - 1)} over target`;
    return judged(
      metric,
      { ...cells, target: `ratio ≤ ${TARGET_RATIO}` },
      { met: ratio <= TARGET_RATIO, miss, noisy },
    );
  });
  for (const name of ["oneVersion", "allVersions", "openapiFetch"] as const) {
    const metric = `\`tsc --noEmit\` wall time (skipLibCheck), ${PROJECTS[name].label} vs the same calls without a client`;
    const row = ratioRow(metric, { ours: wall(name), reference: wall("without"), format: fmt.ms });
    const reference = `${fmt.ms(median(wall("without")))} (plain \`fetch\`)`;
    rows.push({ ...row, ours: fmt.ms(median(wall(name))), reference });
  }
  return rows;
}

function compilerRows(runs: Runs): ResultRow[] {
  const reference = runs.openapiFetch;
  const paired = (a: TscRun[], b: TscRun[], field: keyof TscRun) => ({
    ours: fmt.ms(pick(a, field)),
    reference: fmt.ms(pick(b, field)),
    ratio: fmt.spread(pairedRatios(series(a, field), series(b, field)), fmt.ratio),
  });
  return (["oneVersion", "allVersions"] as const).flatMap((name) => {
    const ours = runs[name];
    const label = `${PROJECTS[name].label} vs openapi-fetch alone`;
    const instantiations = compared(
      pick(ours.skip, "instantiations"),
      pick(reference.skip, "instantiations"),
      fmt.count,
    );
    return [
      info(
        `Check phase only (\`--extendedDiagnostics\`), ${label}`,
        paired(ours.skip, reference.skip, "checkMs"),
      ),
      info(`Type instantiations (deterministic, unaffected by load), ${label}`, instantiations),
      info(
        `\`tsc --noEmit\` wall time without skipLibCheck, ${label}`,
        paired(ours.full, reference.full, "wallMs"),
      ),
    ];
  });
}

async function declarationRows(): Promise<ResultRow[]> {
  const files = [
    ["packages/client/src/generated/openapi.d.ts (all versions)", "src/generated", "openapi.d.ts", false],
    ["packages/client/src/generated/openapi-v2.1.d.ts", "src/generated", "openapi-v2.1.d.ts", false],
    ["packages/client/src/generated/openapi-v2.0.d.ts", "src/generated", "openapi-v2.0.d.ts", false],
    ["packages/client/dist/**/*.d.ts (all declarations shipped)", "dist", ".d.ts", true],
  ] as const;
  const rows: ResultRow[] = [];
  for (const [label, dir, suffix, recursive] of files) {
    const bytes = await sizeOf(join(CLIENT_DIR, dir), suffix, recursive);
    rows.push(info(`Declarations, \`${label}\``, { ours: fmt.bytes(bytes) }, label.includes("shipped")));
  }
  return rows;
}

function notes(runs: Runs): string[] {
  const extra = (name: ProjectName, field: keyof TscRun) =>
    pick(runs[name].skip, field) - pick(runs.openapiFetch.skip, field);
  const signed = (n: number) => `${n >= 0 ? "+" : "−"}${fmt.count(Math.abs(n))}`;
  return (["oneVersion", "allVersions"] as const).map(
    (name) =>
      `Through ${PROJECTS[name].label}, a consumer's type check takes ${fmt.signedMs(extra(name, "wallMs"))} per run ` +
      `against openapi-fetch alone: parsing ${fmt.signedMs(extra(name, "parseMs"))}, binding ${fmt.signedMs(extra(name, "bindMs"))}, ` +
      `checking ${fmt.signedMs(extra(name, "checkMs"))}, type instantiations ${signed(extra(name, "instantiations"))}, ` +
      `${signed(extra(name, "files"))} files. Both sides include Node and tsc start-up; wall spread of ours ` +
      `${fmt.percent(spread(series(runs[name].skip, "wallMs")))}.`,
  );
}

export function run(): Promise<BenchmarkResult> {
  return timed("typecheck-cost", async () => {
    const runs = await withScratchDir("drill-bench-typecheck-", measure);
    return {
      setup: [
        `${RUNS} interleaved runs per project with \`skipLibCheck: true\` (the usual setting), ${RUNS_FULL_LIB_CHECK} each without it; medians`,
      ],
      rows: [...wallRows(runs), ...compilerRows(runs), ...(await declarationRows())],
      notes: notes(runs),
    };
  });
}
