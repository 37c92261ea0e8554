/**
 * Type-check cost for consumers: `tsc --noEmit` of a consumer file that makes ten API 2.0 calls
 * through the client's one-version entry (`@drill-practice/client/v2.0`) and through its
 * all-versions entry, next to the same ten calls written with openapi-fetch's `createClient<paths>`
 * on the 2.0 `paths` as openapi-typescript generates them (the reference with a target), and with
 * plain `fetch` and no client.
 */
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import * as os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import {
  formatBytes,
  formatMs,
  formatPercent,
  formatRatio,
  formatSignedMs,
  isNoisy,
  median,
  NOISE_LIMIT,
  noiseNote,
  now,
  pairedRatios,
  spread,
  withSpread,
} from "./stats.ts";

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
  // 1. Store search
  const store = await client.GET("/api/2/store", {
    params: { query: { query: "spanish AND verbs", searchField: ["NAME", "TAGS"], resultSize: "20" } },
  });
  for (const drill of store.data?.drills ?? []) seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  // 2. Related drills
  const related = await client.GET("/api/2/store/related/{drill_id}", { params: { path: { drill_id: drillId } } });
  seen += related.response.ok ? 1 : 0;
  // 3. One question
  const question = await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: drillId } } });
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  // 4. A question over several drills
  const combined = await client.GET("/api/2/question", { params: { query: { drill: [drillId, "drill-2"] } } });
  const reference = combined.data?.question?.reference ?? "";
  // 5. Answer
  const answer = await client.PUT("/api/2/answer/{reference}", {
    params: { path: { reference } },
    body: { answer: [choices[0] ?? ""] },${answerOptions}
  });
  seen += answer.response.status;
  // 6. Practice preferences
  const preferences = await client.GET("/api/2/practice-preferences/{drill_id}", { params: { path: { drill_id: drillId } } });
  seen += preferences.response.ok ? 1 : 0;
  // 7. Repertoire
  const repertoire = await client.GET("/api/2/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  // 8. Add to repertoire
  const added = await client.PUT("/api/2/repertoire");
  seen += added.response.ok ? 1 : 0;
  // 9. Remove from repertoire
  const removed = await client.DELETE("/api/2/repertoire");
  seen += removed.response.ok ? 1 : 0;
  // 10. Version
  const version = await client.GET("/api/2/version");
  seen += version.response.ok ? 1 : 0;
  return seen + choices.length;
}
`;

const ONE_VERSION = `import { createDrillClient } from "@drill-practice/client/v2.0";

const client = createDrillClient({ baseUrl: "https://drill.example" });
${calls("")}`;

const ALL_VERSIONS = `import { createDrillClient } from "@drill-practice/client";

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
  // 1. Store search
  const search = new URLSearchParams({ query: "spanish AND verbs", resultSize: "20" });
  for (const field of ["NAME", "TAGS"]) search.append("searchField", field);
  const store = await getJson<Drillables>(\`/api/2/store?\${search}\`);
  for (const drill of store.data?.drills ?? []) seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  // 2. Related drills
  const related = await getJson<Drillables>(\`/api/2/store/related/\${id}\`);
  seen += related.response.ok ? 1 : 0;
  // 3. One question
  const question = await getJson<QuestionResponse>(\`/api/2/question/\${id}\`);
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  // 4. A question over several drills
  const drills = new URLSearchParams();
  for (const drill of [drillId, "drill-2"]) drills.append("drill", drill);
  const combined = await getJson<QuestionResponse>(\`/api/2/question?\${drills}\`);
  const reference = combined.data?.question?.reference ?? "";
  // 5. Answer
  const answer = await getJson<unknown>(\`/api/2/answer/\${encodeURIComponent(reference)}\`, {
    method: "PUT",
    body: new URLSearchParams({ answer: choices[0] ?? "" }),
  });
  seen += answer.response.status;
  // 6. Practice preferences
  const preferences = await getJson<unknown>(\`/api/2/practice-preferences/\${id}\`);
  seen += preferences.response.ok ? 1 : 0;
  // 7. Repertoire
  const repertoire = await getJson<unknown>("/api/2/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  // 8. Add to repertoire
  const added = await getJson<unknown>("/api/2/repertoire", { method: "PUT" });
  seen += added.response.ok ? 1 : 0;
  // 9. Remove from repertoire
  const removed = await getJson<unknown>("/api/2/repertoire", { method: "DELETE" });
  seen += removed.response.ok ? 1 : 0;
  // 10. Version
  const version = await getJson<{ version?: string }>("/api/2/version");
  seen += version.response.ok ? 1 : 0;
  return seen + choices.length;
}
`;

function tsconfig(skipLibCheck: boolean): string {
  return JSON.stringify(
    {
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
    },
    null,
    2,
  );
}

interface TscRun {
  readonly wallMs: number;
  readonly checkMs: number;
  readonly parseMs: number;
  readonly bindMs: number;
  readonly types: number;
  /** Type instantiations: deterministic, so it shows the type work even when wall times are noisy. */
  readonly instantiations: number;
  readonly memoryKb: number;
  readonly files: number;
}

function runTsc(project: string): Promise<TscRun> {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const child = spawn(process.execPath, [TSC, "-p", project, "--extendedDiagnostics"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), TSC_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const wallMs = now() - t0;
      if (code !== 0) {
        reject(new Error(`tsc -p ${project} failed (exit ${code}):\n${output.slice(0, 4000)}`));
        return;
      }
      const number = (label: string) => {
        const match = new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(output);
        return match?.[1] === undefined ? Number.NaN : Number(match[1]);
      };
      resolve({
        wallMs,
        checkMs: number("Check time") * 1000,
        parseMs: number("Parse time") * 1000,
        bindMs: number("Bind time") * 1000,
        types: number("Types"),
        instantiations: number("Instantiations"),
        memoryKb: number("Memory used"),
        files: number("Files"),
      });
    });
  });
}

function signedCount(count: number): string {
  return `${count >= 0 ? "+" : "−"}${Math.abs(count).toLocaleString("en-US")}`;
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
  await writeFile(join(dir, "consumer.ts"), SOURCES[name]);
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

type ProjectName = "oneVersion" | "allVersions" | "openapiFetch" | "without";
const PROJECT_LABELS: Record<ProjectName, string> = {
  oneVersion: "one version (`@drill-practice/client/v2.0`)",
  allVersions: "all versions (`@drill-practice/client`)",
  openapiFetch: "openapi-fetch alone (`createClient<paths>`, generated 2.0 `paths`)",
  without: "without a client (plain `fetch`)",
};
const SOURCES: Record<ProjectName, string> = {
  oneVersion: ONE_VERSION,
  allVersions: ALL_VERSIONS,
  openapiFetch: OPENAPI_FETCH,
  without: WITHOUT_CLIENT,
};
const NAMES = Object.keys(PROJECT_LABELS) as ProjectName[];

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const root = await mkdtemp(join(os.tmpdir(), "drill-bench-typecheck-"));
  try {
    const projects = {} as Record<ProjectName, { skip: string; full: string }>;
    const runs = {} as Record<ProjectName, { skip: TscRun[]; full: TscRun[] }>;
    for (const name of NAMES) {
      projects[name] = {
        skip: await makeProject(root, name, true),
        full: await makeProject(root, name, false),
      };
      runs[name] = { skip: [], full: [] };
    }
    // Interleaved, so that a slow patch of the machine hits every project alike.
    for (let i = 0; i < RUNS; i++) {
      for (const name of NAMES) runs[name].skip.push(await runTsc(projects[name].skip));
      if (i < RUNS_FULL_LIB_CHECK) {
        for (const name of NAMES) runs[name].full.push(await runTsc(projects[name].full));
      }
    }
    const pick = (list: TscRun[], field: keyof TscRun) => median(list.map((entry) => entry[field]));
    const series = (list: TscRun[], field: keyof TscRun) => list.map((entry) => entry[field]);
    const reference = runs.openapiFetch.skip;
    const withoutClient = runs.without.skip;

    const sizeRows: [string, number][] = [];
    for (const [label, dir, suffix, recursive] of [
      ["packages/client/src/generated/openapi.d.ts (all versions)", "src/generated", "openapi.d.ts", false],
      ["packages/client/src/generated/openapi-v2.1.d.ts", "src/generated", "openapi-v2.1.d.ts", false],
      ["packages/client/src/generated/openapi-v2.0.d.ts", "src/generated", "openapi-v2.0.d.ts", false],
      ["packages/client/dist/**/*.d.ts (all declarations shipped)", "dist", ".d.ts", true],
    ] as const) {
      sizeRows.push([label, await sizeOf(join(CLIENT_DIR, dir), suffix, recursive)]);
    }

    const rows: ResultRow[] = [];
    for (const name of ["oneVersion", "allVersions"] as const) {
      const ours = runs[name].skip;
      const ratios = pairedRatios(series(ours, "wallMs"), series(reference, "wallMs"));
      const ratio = median(ratios);
      const spreads = [ratios, series(ours, "wallMs"), series(reference, "wallMs")] as const;
      const noisy = isNoisy(...spreads);
      const targeted = name === "oneVersion";
      rows.push({
        metric: `\`tsc --noEmit\` wall time (skipLibCheck), consumer of ${PROJECT_LABELS[name]} vs the same calls through openapi-fetch's \`createClient<paths>\`, median of per-run ratios`,
        ours: withSpread(series(ours, "wallMs"), formatMs),
        reference: `${withSpread(series(reference, "wallMs"), formatMs)} (openapi-fetch alone, generated 2.0 \`paths\`)`,
        ratio: withSpread(ratios, formatRatio),
        target: targeted ? `ratio ≤ ${TARGET_RATIO}` : "—",
        ...(!targeted
          ? { verdict: "info" as const, headline: true }
          : noisy
            ? {
                verdict: "noisy" as const,
                miss: noiseNote(...spreads),
              }
            : ratio <= TARGET_RATIO
              ? { verdict: "met" as const }
              : {
                  verdict: "missed" as const,
                  miss: `${formatPercent(ratio / TARGET_RATIO - 1)} over target`,
                }),
      });
    }
    for (const name of ["oneVersion", "allVersions", "openapiFetch"] as const) {
      rows.push({
        metric: `\`tsc --noEmit\` wall time (skipLibCheck), ${PROJECT_LABELS[name]} vs the same calls without a client`,
        ours: formatMs(pick(runs[name].skip, "wallMs")),
        reference: `${formatMs(pick(withoutClient, "wallMs"))} (plain \`fetch\`)`,
        ratio: withSpread(
          pairedRatios(series(runs[name].skip, "wallMs"), series(withoutClient, "wallMs")),
          formatRatio,
        ),
        target: "—",
        verdict: "info",
      });
    }
    for (const name of ["oneVersion", "allVersions"] as const) {
      const ratios = pairedRatios(series(runs[name].skip, "checkMs"), series(reference, "checkMs"));
      rows.push({
        metric: `Check phase only (\`--extendedDiagnostics\`), ${PROJECT_LABELS[name]} vs openapi-fetch alone`,
        ours: formatMs(pick(runs[name].skip, "checkMs")),
        reference: formatMs(pick(reference, "checkMs")),
        ratio: withSpread(ratios, formatRatio),
        target: "—",
        verdict: "info",
      });
    }
    for (const name of ["oneVersion", "allVersions"] as const) {
      rows.push({
        metric: `Type instantiations (deterministic, unaffected by load), ${PROJECT_LABELS[name]} vs openapi-fetch alone`,
        ours: pick(runs[name].skip, "instantiations").toLocaleString("en-US"),
        reference: pick(reference, "instantiations").toLocaleString("en-US"),
        ratio: formatRatio(pick(runs[name].skip, "instantiations") / pick(reference, "instantiations")),
        target: "—",
        verdict: "info",
      });
    }
    for (const name of ["oneVersion", "allVersions"] as const) {
      rows.push({
        metric: `\`tsc --noEmit\` wall time without skipLibCheck, ${PROJECT_LABELS[name]} vs openapi-fetch alone`,
        ours: formatMs(pick(runs[name].full, "wallMs")),
        reference: formatMs(pick(runs.openapiFetch.full, "wallMs")),
        ratio: withSpread(
          pairedRatios(series(runs[name].full, "wallMs"), series(runs.openapiFetch.full, "wallMs")),
          formatRatio,
        ),
        target: "—",
        verdict: "info",
      });
    }
    for (const [label, bytes] of sizeRows) {
      rows.push({
        metric: `Declarations, \`${label}\``,
        ours: formatBytes(bytes),
        reference: "—",
        ratio: "—",
        target: "—",
        verdict: "info",
        headline: label.includes("(all declarations shipped)"),
      });
    }
    const details: DetailTable[] = [
      {
        title: "Compiler figures (medians)",
        headers: [
          "Project",
          "Runs",
          "Wall",
          "Wall spread",
          "Parse",
          "Bind",
          "Check",
          "Types",
          "Instantiations",
          "Files",
          "Memory",
        ],
        rows: NAMES.flatMap((name) =>
          (["skip", "full"] as const).map((kind) => {
            const list = runs[name][kind];
            return [
              `${PROJECT_LABELS[name]}, ${kind === "skip" ? "skipLibCheck" : "full lib check"}`,
              String(list.length),
              formatMs(pick(list, "wallMs")),
              formatPercent(spread(series(list, "wallMs"))).replace("+", ""),
              formatMs(pick(list, "parseMs")),
              formatMs(pick(list, "bindMs")),
              formatMs(pick(list, "checkMs")),
              pick(list, "types").toLocaleString("en-US"),
              pick(list, "instantiations").toLocaleString("en-US"),
              String(pick(list, "files")),
              `${Math.round(pick(list, "memoryKb") / 1024)} MiB`,
            ];
          }),
        ),
      },
      {
        title: "Wall time of each interleaved run (skipLibCheck)",
        headers: ["Run", ...NAMES.map((name) => PROJECT_LABELS[name])],
        rows: Array.from({ length: RUNS }, (_, i) => [
          String(i + 1),
          ...NAMES.map((name) => formatMs(runs[name].skip[i]?.wallMs ?? Number.NaN)),
        ]),
      },
    ];
    const extra = (name: ProjectName, field: keyof TscRun) =>
      pick(runs[name].skip, field) - pick(reference, field);
    const notes = (["oneVersion", "allVersions"] as const).map(
      (name) =>
        `Through ${PROJECT_LABELS[name]}, a consumer's type check takes ${formatSignedMs(extra(name, "wallMs"))} ` +
        `per run against openapi-fetch alone. Parsing: ${formatSignedMs(extra(name, "parseMs"))}, binding: ` +
        `${formatSignedMs(extra(name, "bindMs"))}, checking: ${formatSignedMs(extra(name, "checkMs"))}, type ` +
        `instantiations: ${signedCount(extra(name, "instantiations"))}; ${signedCount(extra(name, "files"))} files, ` +
        "and the rest reading and resolving them. Both sides include Node and tsc start-up.",
    );
    if (rows.some((row) => row.verdict === "noisy")) {
      notes.push(
        `**Noisy run:** the per-run ratios or either side's times spread more than ${NOISE_LIMIT * 100} % (max − min over median), so ` +
          "this run claims no result against the target; rerun on a quiet machine.",
      );
    }
    return {
      name: "typecheck-cost",
      title: "Type-check cost for consumers",
      measured:
        "Wall time of `tsc --noEmit -p` (TypeScript 5.9) on a one-file consumer project that makes ten typed API 2.0 " +
        "calls (store search, related drills, a question for one drill and for several, answer, practice preferences, " +
        "repertoire list, add and remove, version), once through the one-version entry `@drill-practice/client/v2.0` " +
        "and once through the all-versions entry `@drill-practice/client`, next to the same ten calls through " +
        "openapi-fetch's `createClient<paths>` on the 2.0 `paths` as openapi-typescript generates them (the file the " +
        "client ships, copied into the project; the answer form given a `bodySerializer`), the reference of the target, " +
        "and with plain `fetch` and a few hand-written interfaces, without a client. The client and openapi-fetch are " +
        "resolved from their built packages as a consumer gets them. Ratios are taken per interleaved run; their median is reported " +
        `with its spread, and a spread over ${NOISE_LIMIT * 100} % marks the figure noisy.`,
      setup: [
        `${RUNS} interleaved runs per project with \`skipLibCheck: true\` (the usual setting), ${RUNS_FULL_LIB_CHECK} each without it; medians`,
        "Consumer tsconfig: strict, NodeNext, lib ES2023 + DOM, no @types",
      ],
      rows,
      details,
      notes,
      durationMs: now() - started,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
