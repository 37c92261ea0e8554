/**
 * Type-check cost for consumers: `tsc --noEmit` of ten calls of a version through each client entry,
 * through openapi-fetch alone and with plain `fetch` (bench/README.md says what each row is).
 */
import { readFileSync } from "node:fs";
import { copyFile, mkdir, readdir, stat, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import {
  type BenchmarkResult,
  fmt,
  info,
  infoCompared,
  median,
  pairedRatios,
  type ResultRow,
  ratioRow,
  timed,
} from "./harness.ts";

const RUNS = 5;
const RUNS_FULL_LIB_CHECK = 2;
/** One-version consumer against the same calls through openapi-fetch's `createClient<paths>`: at most this ratio. */
const TARGET_RATIO = 1.1;

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/lib/tsc.js");
const consumer = (file: string) =>
  readFileSync(new URL(`./typecheck-consumers/${file}`, import.meta.url), "utf8");
const THROUGH_CLIENT = consumer("through-client.ts");
const THROUGH_CLIENT_V2_1 = consumer("through-client-v2.1.ts");
const THROUGH_CLIENT_V2_1_1 = consumer("through-client-v2.1.1.ts");
const DECLARATIONS = ["openapi.d.ts", "openapi-v2.1.1.d.ts", "openapi-v2.1.d.ts", "openapi-v2.0.d.ts"];

/** A client consumer with each `[text, by]` replaced; every `text` must be there. */
function rewritten(consumerSource: string, ...changes: [text: string, by: string][]): string {
  return changes.reduce((source, [text, by]) => {
    if (!source.includes(text)) throw new Error(`a typecheck consumer has no ${text}`);
    return source.replace(text, by);
  }, consumerSource);
}

/** The calls through openapi-fetch alone on the version's `paths`, answering with a form as the client does. */
function viaOpenapiFetch(version: "2.0" | "2.1" | "2.1.1", source: string, answerBody: string) {
  const rewrite = rewritten(
    source,
    [
      `import { createDrillClient } from "@drill-practice/client/v${version}";\n\nconst client = createDrillClient(`,
      `import createClient from "openapi-fetch";
import type { paths } from "./openapi-v${version}.js";

const client = createClient<paths>(`,
    ],
    [
      answerBody,
      `${answerBody}
    bodySerializer: (body) => new URLSearchParams(((body?.answer ?? []) as string[]).map((value) => ["answer", value])),`,
    ],
  );
  const label = `openapi-fetch alone (\`createClient<paths>\`, generated ${version} \`paths\`)`;
  return { label, source: rewrite, generated: `openapi-v${version}.d.ts` };
}

const PROJECTS = {
  oneVersion: { label: "one version (`@drill-practice/client/v2.0`)", source: THROUGH_CLIENT },
  allVersions: {
    label: "all versions (`@drill-practice/client`)",
    source: rewritten(THROUGH_CLIENT, ['"@drill-practice/client/v2.0"', '"@drill-practice/client"']),
  },
  openapiFetch: viaOpenapiFetch("2.0", THROUGH_CLIENT, 'body: { answer: [choices[0] ?? ""] },'),
  oneVersion21: { label: "one version (`@drill-practice/client/v2.1`)", source: THROUGH_CLIENT_V2_1 },
  openapiFetch21: viaOpenapiFetch("2.1", THROUGH_CLIENT_V2_1, 'body: { answer: ["a"] },'),
  oneVersion211: { label: "one version (`@drill-practice/client/v2.1.1`)", source: THROUGH_CLIENT_V2_1_1 },
  openapiFetch211: viaOpenapiFetch("2.1.1", THROUGH_CLIENT_V2_1_1, 'body: { answer: ["a"] },'),
  without: { label: "without a client (plain `fetch`)", source: consumer("plain-fetch.ts") },
};
/** Each client consumer's reference: the same calls through openapi-fetch alone on its version's types. */
const AGAINST = {
  oneVersion: ["openapiFetch", "2.0"],
  allVersions: ["openapiFetch", "2.0"],
  oneVersion21: ["openapiFetch21", "2.1"],
  oneVersion211: ["openapiFetch211", "2.1.1"],
} as const;
type ProjectName = keyof typeof PROJECTS;
const NAMES = Object.keys(PROJECTS) as ProjectName[];

type TscRun = { readonly wallMs: number; readonly instantiations: number };
type Runs = Record<ProjectName, { skip: TscRun[]; full: TscRun[] }>;

/** One `tsc -p project --extendedDiagnostics`, timed from spawn to exit. */
async function runTsc(project: string): Promise<TscRun> {
  const args = [TSC, "-p", project, "--extendedDiagnostics"];
  const run = await runProcess({
    command: process.execPath,
    args,
    cwd: project,
    env: {},
    timeoutMs: 120_000,
  });
  const output = run.stdout + run.stderr;
  if (run.exitCode !== 0)
    throw new Error(`tsc -p ${project} failed (exit ${run.exitCode}):\n${output.slice(0, 4000)}`);
  const instantiations = Number(/^Instantiations:\s+(\d+)/m.exec(output)?.[1] ?? Number.NaN);
  return { wallMs: run.seconds * 1000, instantiations };
}

/** A consumer project (strict, NodeNext, lib ES2023 + DOM, no @types) on the built client, as installed. */
async function makeProject(root: string, name: ProjectName, skipLibCheck: boolean): Promise<string> {
  const dir = join(root, `${name}-${skipLibCheck ? "skip" : "full"}`);
  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "@drill-practice"), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  const lib = ["ES2023", "DOM", "DOM.Iterable"];
  const resolution = { target: "ES2022", lib, module: "NodeNext", moduleResolution: "NodeNext" };
  const compilerOptions = { ...resolution, strict: true, noEmit: true, skipLibCheck, types: [] };
  const tsconfig = { compilerOptions, files: ["consumer.ts"] };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  await writeFile(join(dir, "consumer.ts"), PROJECTS[name].source);
  await symlink(CLIENT_DIR, join(modules, "@drill-practice", "client"), "dir");
  const project = PROJECTS[name];
  if ("generated" in project) {
    // The very openapi-fetch the client depends on, and the version's types as the client ships them.
    await symlink(join(CLIENT_DIR, "node_modules", "openapi-fetch"), join(modules, "openapi-fetch"), "dir");
    await copyFile(join(CLIENT_DIR, "dist", "generated", project.generated), join(dir, project.generated));
  }
  return dir;
}

/** Every project type-checked in interleaved runs, so a slow patch of the machine hits all alike. */
async function measure(root: string): Promise<Runs> {
  const runs = {} as Runs;
  const projects = new Map<string, string>();
  for (const name of NAMES) {
    runs[name] = { skip: [], full: [] };
    for (const skip of [true, false]) projects.set(`${name} ${skip}`, await makeProject(root, name, skip));
  }
  for (let i = 0; i < RUNS; i++)
    for (const skip of i < RUNS_FULL_LIB_CHECK ? [true, false] : [true])
      for (const name of NAMES)
        runs[name][skip ? "skip" : "full"].push(await runTsc(projects.get(`${name} ${skip}`) as string));
  return runs;
}

function rows(runs: Runs): ResultRow[] {
  const wall = (name: ProjectName, lib: "skip" | "full" = "skip") => runs[name][lib].map((run) => run.wallMs);
  /** Medians without their spread, beside the spread of the per-run ratios. */
  const medians = (ours: number[], reference: number[]) => ({
    ours: fmt.ms(median(ours)),
    reference: fmt.ms(median(reference)),
    ratio: fmt.spread(pairedRatios(ours, reference), fmt.ratio),
  });
  const tsc = "`tsc --noEmit` wall time (skipLibCheck)";
  const versus = "vs the same calls through openapi-fetch's `createClient<paths>`, median of per-run ratios";
  const versusOpenapiFetch = (name: keyof typeof AGAINST, target?: { ratio: number; atLeast: false }) => {
    const [reference, version] = AGAINST[name];
    const series = { ours: wall(name), reference: wall(reference), format: fmt.ms };
    const row = ratioRow(`${tsc}, consumer of ${PROJECTS[name].label} ${versus}`, series, target, true);
    return { ...row, reference: `${row.reference} (openapi-fetch alone, generated ${version} \`paths\`)` };
  };
  const withoutClient = (["oneVersion", "allVersions", "openapiFetch"] as const).map((name) => {
    const cells = medians(wall(name), wall("without"));
    const metric = `${tsc}, ${PROJECTS[name].label} vs the same calls without a client`;
    return info(metric, { ...cells, reference: `${cells.reference} (plain \`fetch\`)` });
  });
  const instantiations = (name: ProjectName) => median(runs[name].skip.map((run) => run.instantiations));
  const compiler = (["oneVersion", "oneVersion211", "allVersions"] as const).flatMap((name) => {
    const [reference, version] = AGAINST[name];
    const label = `${PROJECTS[name].label} vs openapi-fetch alone (generated ${version} \`paths\`)`;
    const counts = [instantiations(name), instantiations(reference)] as const;
    return [
      infoCompared(`Type instantiations (deterministic, unaffected by load), ${label}`, counts, fmt.count),
      info(
        `\`tsc --noEmit\` wall time without skipLibCheck, ${label}`,
        medians(wall(name, "full"), wall(reference, "full")),
      ),
    ];
  });
  return [
    ...(["oneVersion", "oneVersion21", "oneVersion211"] as const).map((name) =>
      versusOpenapiFetch(name, { ratio: TARGET_RATIO, atLeast: false }),
    ),
    versusOpenapiFetch("allVersions"),
    ...withoutClient,
    ...compiler,
  ];
}

/** Bytes of the files under a folder of the client whose names end with `suffix`. */
async function sizeOf(dir: string, suffix: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(join(CLIENT_DIR, dir), { withFileTypes: true, recursive: true }))
    if (entry.isFile() && entry.name.endsWith(suffix))
      total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

/** What the client's generated declarations weigh, one by one, then all it ships. */
async function declarationRows(): Promise<ResultRow[]> {
  const generated = DECLARATIONS.map(async (file) => {
    const label = `packages/client/src/generated/${file}${file === "openapi.d.ts" ? " (all versions)" : ""}`;
    return info(`Declarations, \`${label}\``, { ours: fmt.bytes(await sizeOf("src/generated", file)) });
  });
  const shipped = { ours: fmt.bytes(await sizeOf("dist", ".d.ts")) };
  const all = "Declarations, `packages/client/dist/**/*.d.ts (all declarations shipped)`";
  return [...(await Promise.all(generated)), info(all, shipped, true)];
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("typecheck-cost", async () => {
    const runs = await withScratchDir("drill-bench-typecheck-", measure);
    return {
      setup: [
        `${RUNS} interleaved runs per project with \`skipLibCheck: true\` (the usual setting), ${RUNS_FULL_LIB_CHECK} each without it; medians`,
      ],
      rows: [...rows(runs), ...(await declarationRows())],
    };
  });
}
