/**
 * Type-check cost for consumers: `tsc --noEmit` of a consumer file that makes ten API 2.0 calls
 * through the client's one-version entry (`@drill-practice/client/v2.0`) and through its
 * all-versions entry, next to the same ten calls written with openapi-fetch's `createClient<paths>`
 * on the 2.0 `paths` as openapi-typescript generates them (the reference with a target), and with
 * plain `fetch` and no client.
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
  spread,
  timed,
} from "./harness.ts";

const RUNS = 5;
const RUNS_FULL_LIB_CHECK = 2;
/** One-version consumer against the same calls through openapi-fetch's `createClient<paths>`: at most this ratio. */
const TARGET_RATIO = 1.1;

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/lib/tsc.js");

const CONSUMERS = new URL("./typecheck-consumers/", import.meta.url);
const THROUGH_CLIENT = readFileSync(new URL("through-client.ts", CONSUMERS), "utf8");
/** The generated 2.0 types, copied into the openapi-fetch consumer as a project generates its own. */
const GENERATED_V2_0 = "openapi-v2.0.d.ts";

/** The client's consumer with one change: `text` replaced by `by`, which must be there. */
function rewritten(text: string, by: string, source = THROUGH_CLIENT): string {
  if (!source.includes(text)) throw new Error(`typecheck-consumers/through-client.ts has no ${text}`);
  return source.replace(text, by);
}

// openapi-fetch sends JSON unless told otherwise; the answer is a form, so this consumer says how,
// as the client does for its users.
const OPENAPI_FETCH = rewritten(
  'import { createDrillClient } from "@drill-practice/client/v2.0";\n\nconst client = createDrillClient(',
  `import createClient from "openapi-fetch";
import type { paths } from "./${GENERATED_V2_0.replace(".d.ts", ".js")}";

const client = createClient<paths>(`,
  rewritten(
    'body: { answer: [choices[0] ?? ""] },',
    `body: { answer: [choices[0] ?? ""] },
    bodySerializer: (body) => {
      const form = new URLSearchParams();
      for (const value of body.answer) form.append("answer", value);
      return form;
    },`,
  ),
);

/** The consumer's tsconfig: strict, NodeNext, lib ES2023 + DOM, no @types. */
const tsconfig = (skipLibCheck: boolean): string =>
  JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023", "DOM", "DOM.Iterable"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      skipLibCheck,
      types: [],
    },
    files: ["consumer.ts"],
  });

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
    timeoutMs: 120_000,
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
  oneVersion: { label: "one version (`@drill-practice/client/v2.0`)", source: THROUGH_CLIENT },
  allVersions: {
    label: "all versions (`@drill-practice/client`)",
    source: rewritten('"@drill-practice/client/v2.0"', '"@drill-practice/client"'),
  },
  openapiFetch: {
    label: "openapi-fetch alone (`createClient<paths>`, generated 2.0 `paths`)",
    source: OPENAPI_FETCH,
  },
  without: {
    label: "without a client (plain `fetch`)",
    source: readFileSync(new URL("plain-fetch.ts", CONSUMERS), "utf8"),
  },
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
  const of = (ours: ProjectName, reference: ProjectName) => ({
    ours: wall(ours),
    reference: wall(reference),
    format: fmt.ms,
  });
  const tsc = "`tsc --noEmit` wall time (skipLibCheck)";
  const versus = "vs the same calls through openapi-fetch's `createClient<paths>`, median of per-run ratios";
  const throughOpenapiFetch = [
    ratioRow(`${tsc}, consumer of ${PROJECTS.oneVersion.label} ${versus}`, of("oneVersion", "openapiFetch"), {
      ratio: TARGET_RATIO,
      atLeast: false,
    }),
    ratioRow(
      `${tsc}, consumer of ${PROJECTS.allVersions.label} ${versus}`,
      of("allVersions", "openapiFetch"),
      undefined,
      true,
    ),
  ].map((row) => ({ ...row, reference: `${row.reference} (openapi-fetch alone, generated 2.0 \`paths\`)` }));
  const withoutClient = (["oneVersion", "allVersions", "openapiFetch"] as const).map((name) => ({
    ...ratioRow(`${tsc}, ${PROJECTS[name].label} vs the same calls without a client`, of(name, "without")),
    ours: fmt.ms(median(wall(name))),
    reference: `${fmt.ms(median(wall("without")))} (plain \`fetch\`)`,
  }));
  return [...throughOpenapiFetch, ...withoutClient];
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
    const instantiations = [
      pick(ours.skip, "instantiations"),
      pick(reference.skip, "instantiations"),
    ] as const;
    return [
      info(
        `Check phase only (\`--extendedDiagnostics\`), ${label}`,
        paired(ours.skip, reference.skip, "checkMs"),
      ),
      infoCompared(
        `Type instantiations (deterministic, unaffected by load), ${label}`,
        instantiations,
        fmt.count,
      ),
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

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
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
