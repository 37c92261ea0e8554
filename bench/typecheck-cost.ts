/**
 * Type-check cost for consumers: `tsc --noEmit` of a consumer file that calls ten operations
 * through the client, next to the same ten calls written with plain `fetch` and no client.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import * as os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import { formatBytes, formatMs, formatRatio, formatSignedMs, median, now } from "./stats.ts";

const RUNS = 5;
const RUNS_FULL_LIB_CHECK = 3;
const TSC_TIMEOUT_MS = 120_000;

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/lib/tsc.js");

const WITH_CLIENT = `import { createDrillClient } from "@drill-practice/client";

const client = createDrillClient({ baseUrl: "https://drill.example" });

export async function practise(drillId: string): Promise<number> {
  let seen = 0;
  // 1. Store search, API 2.0
  const store = await client.GET("/api/2/store", {
    params: { query: { query: "spanish AND verbs", searchField: ["NAME", "TAGS"], resultSize: "20" } },
  });
  for (const drill of store.data?.drills ?? []) seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  // 2. Store search, API 2.1
  const store21 = await client.GET("/api/2.1/store", { params: { query: { query: "verbs" } } });
  seen += store21.data === undefined ? 0 : 1;
  // 3. One question, API 2.0
  const question = await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: drillId } } });
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  // 4. A question over several drills, API 2.0
  const combined = await client.GET("/api/2/question", { params: { query: { drill: [drillId, "drill-2"] } } });
  const reference = combined.data?.question?.reference ?? "";
  // 5. One question, API 2.1
  const question21 = await client.GET("/api/2.1/question/{drill}", { params: { path: { drill: drillId } } });
  seen += question21.error === undefined ? 0 : 1;
  // 6. Answer, API 2.1
  const answer = await client.PUT("/api/2.1/answer/{reference}", { params: { path: { reference } } });
  seen += answer.response.status;
  // 7. Practice status
  const rendition = await client.GET("/api/2.1/rendition/{drillable}", { params: { path: { drillable: drillId } } });
  seen += rendition.response.ok ? 1 : 0;
  // 8. Repertoire
  const repertoire = await client.GET("/api/2.1/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  // 9. Add to repertoire
  const added = await client.PUT("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: drillId } } });
  seen += added.response.ok ? 1 : 0;
  // 10. Remove from repertoire
  const removed = await client.DELETE("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: drillId } } });
  seen += removed.response.ok ? 1 : 0;
  return seen + choices.length;
}
`;

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
  // 1. Store search, API 2.0
  const search = new URLSearchParams({ query: "spanish AND verbs", resultSize: "20" });
  for (const field of ["NAME", "TAGS"]) search.append("searchField", field);
  const store = await getJson<Drillables>(\`/api/2/store?\${search}\`);
  for (const drill of store.data?.drills ?? []) seen += drill.name.length + (drill.practice?.proficiency?.overall ?? 0);
  // 2. Store search, API 2.1
  const store21 = await getJson<unknown>(\`/api/2.1/store?\${new URLSearchParams({ query: "verbs" })}\`);
  seen += store21.data === undefined ? 0 : 1;
  // 3. One question, API 2.0
  const question = await getJson<QuestionResponse>(\`/api/2/question/\${id}\`);
  const choices = question.data?.question?.tell?.terms?.map((term) => term.value) ?? [];
  // 4. A question over several drills, API 2.0
  const drills = new URLSearchParams();
  for (const drill of [drillId, "drill-2"]) drills.append("drill", drill);
  const combined = await getJson<QuestionResponse>(\`/api/2/question?\${drills}\`);
  const reference = combined.data?.question?.reference ?? "";
  // 5. One question, API 2.1
  const question21 = await getJson<unknown>(\`/api/2.1/question/\${id}\`);
  seen += question21.data === undefined ? 1 : 0;
  // 6. Answer, API 2.1
  const answer = await getJson<unknown>(\`/api/2.1/answer/\${encodeURIComponent(reference)}\`, { method: "PUT" });
  seen += answer.response.status;
  // 7. Practice status
  const rendition = await getJson<unknown>(\`/api/2.1/rendition/\${id}\`);
  seen += rendition.response.ok ? 1 : 0;
  // 8. Repertoire
  const repertoire = await getJson<unknown>("/api/2.1/repertoire");
  seen += repertoire.response.ok ? 1 : 0;
  // 9. Add to repertoire
  const added = await getJson<unknown>(\`/api/2.1/repertoire/\${id}\`, { method: "PUT" });
  seen += added.response.ok ? 1 : 0;
  // 10. Remove from repertoire
  const removed = await getJson<unknown>(\`/api/2.1/repertoire/\${id}\`, { method: "DELETE" });
  seen += removed.response.ok ? 1 : 0;
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
        memoryKb: number("Memory used"),
        files: number("Files"),
      });
    });
  });
}

async function sizeOf(dir: string, suffix: string, recursive: boolean): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive })) {
    if (entry.isFile() && entry.name.endsWith(suffix))
      total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function makeProject(
  root: string,
  name: string,
  source: string,
  skipLibCheck: boolean,
): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "node_modules", "@drill-practice"), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  await writeFile(join(dir, "tsconfig.json"), tsconfig(skipLibCheck));
  await writeFile(join(dir, "consumer.ts"), source);
  await symlink(CLIENT_DIR, join(dir, "node_modules", "@drill-practice", "client"), "dir");
  return dir;
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const root = await mkdtemp(join(os.tmpdir(), "drill-bench-typecheck-"));
  try {
    const projects = {
      withClient: await makeProject(root, "with-client", WITH_CLIENT, true),
      withoutClient: await makeProject(root, "without-client", WITHOUT_CLIENT, true),
      withClientFull: await makeProject(root, "with-client-full", WITH_CLIENT, false),
      withoutClientFull: await makeProject(root, "without-client-full", WITHOUT_CLIENT, false),
    };
    const runs: Record<keyof typeof projects, TscRun[]> = {
      withClient: [],
      withoutClient: [],
      withClientFull: [],
      withoutClientFull: [],
    };
    // Interleaved, so that a slow patch of the machine hits both sides alike.
    for (let i = 0; i < RUNS; i++) {
      runs.withClient.push(await runTsc(projects.withClient));
      runs.withoutClient.push(await runTsc(projects.withoutClient));
      if (i < RUNS_FULL_LIB_CHECK) {
        runs.withClientFull.push(await runTsc(projects.withClientFull));
        runs.withoutClientFull.push(await runTsc(projects.withoutClientFull));
      }
    }
    const pick = (list: TscRun[], field: keyof TscRun) => median(list.map((entry) => entry[field]));
    const wallWith = pick(runs.withClient, "wallMs");
    const wallWithout = pick(runs.withoutClient, "wallMs");
    const checkWith = pick(runs.withClient, "checkMs");
    const checkWithout = pick(runs.withoutClient, "checkMs");

    const generatedDts = await sizeOf(join(CLIENT_DIR, "src", "generated"), ".d.ts", false);
    const distDts = await sizeOf(join(CLIENT_DIR, "dist"), ".d.ts", true);
    const distGeneratedDts = await sizeOf(join(CLIENT_DIR, "dist", "generated"), ".d.ts", false);

    const rows: ResultRow[] = [
      {
        metric: "`tsc --noEmit` wall time (skipLibCheck), median",
        ours: formatMs(wallWith),
        reference: formatMs(wallWithout),
        ratio: formatRatio(wallWith / wallWithout),
        target: "—",
        verdict: "info",
        headline: true,
      },
      {
        metric: "Check phase only (`--extendedDiagnostics`), median",
        ours: formatMs(checkWith),
        reference: formatMs(checkWithout),
        ratio: formatRatio(checkWith / checkWithout),
        target: "—",
        verdict: "info",
      },
      {
        metric: "`tsc --noEmit` wall time without skipLibCheck, median",
        ours: formatMs(pick(runs.withClientFull, "wallMs")),
        reference: formatMs(pick(runs.withoutClientFull, "wallMs")),
        ratio: formatRatio(pick(runs.withClientFull, "wallMs") / pick(runs.withoutClientFull, "wallMs")),
        target: "—",
        verdict: "info",
      },
      {
        metric: "Generated types, `packages/client/src/generated/*.d.ts`",
        ours: formatBytes(generatedDts),
        reference: "—",
        ratio: "—",
        target: "—",
        verdict: "info",
        headline: true,
      },
      {
        metric: "Built declarations, `packages/client/dist/**/*.d.ts`",
        ours: formatBytes(distDts),
        reference: "—",
        ratio: "—",
        target: "—",
        verdict: "info",
        headline: true,
      },
    ];
    const details: DetailTable[] = [
      {
        title: "Compiler figures (medians)",
        headers: ["Project", "Runs", "Wall", "Parse", "Bind", "Check", "Types", "Files", "Memory"],
        rows: (
          [
            ["with client, skipLibCheck", runs.withClient],
            ["without client, skipLibCheck", runs.withoutClient],
            ["with client, full lib check", runs.withClientFull],
            ["without client, full lib check", runs.withoutClientFull],
          ] as const
        ).map(([label, list]) => [
          label,
          String(list.length),
          formatMs(pick(list, "wallMs")),
          formatMs(pick(list, "parseMs")),
          formatMs(pick(list, "bindMs")),
          formatMs(pick(list, "checkMs")),
          pick(list, "types").toLocaleString("en-US"),
          String(pick(list, "files")),
          `${Math.round(pick(list, "memoryKb") / 1024)} MiB`,
        ]),
      },
      {
        title: "Declaration sizes",
        headers: ["Files", "Bytes"],
        rows: [
          ["packages/client/src/generated/*.d.ts", formatBytes(generatedDts)],
          ["packages/client/dist/generated/*.d.ts", formatBytes(distGeneratedDts)],
          ["packages/client/dist/**/*.d.ts (all declarations shipped)", formatBytes(distDts)],
        ],
      },
    ];
    const extra = (field: keyof TscRun) => pick(runs.withClient, field) - pick(runs.withoutClient, field);
    const notes = [
      `With the client, a consumer's type check takes ${formatMs(wallWith - wallWithout)} longer per run ` +
        `(${formatRatio(wallWith / wallWithout)}). Parsing: ${formatSignedMs(extra("parseMs"))}, binding: ` +
        `${formatSignedMs(extra("bindMs"))}, checking: ${formatSignedMs(extra("checkMs"))} (the generated ` +
        "declarations, openapi-fetch's types and the per-call path, parameter and response types); the rest is " +
        "reading and resolving the extra files. Both sides include Node and tsc start-up.",
    ];
    return {
      name: "typecheck-cost",
      title: "Type-check cost for consumers",
      measured:
        "Wall time of `tsc --noEmit -p` (TypeScript 5.9) on a one-file consumer project that makes ten typed calls " +
        "through `createDrillClient` (store search 2.0 and 2.1, questions 2.0 ×2 and 2.1, answer, rendition, repertoire " +
        "list, add and remove), next to the same project making the same ten calls with plain `fetch` and a few " +
        "hand-written interfaces, without the client. The client is resolved from its built `dist` as a consumer gets it.",
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
