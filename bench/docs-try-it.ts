/**
 * Docs: the Try it panel. Each reference opened cold in Chromium from `docs:serve`'s server: what
 * the site's own files weigh before the first Send (the panel's script and table included), the
 * main thread's time to usable with the panel's script and without it (the same page, its loader
 * left out), what the first Send loads (the sandbox worker, its chunks, description and data), the
 * time from the click on Send to the first answer shown (split into the steps the panel puts on the
 * page's performance timeline), and then to later answers.
 * Needs a built site (`pnpm run docs`) and Debian's Chromium.
 */
import { cp, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "@drill-practice/tooling/chromium";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import type { Browser, BrowserContext } from "playwright-core";
import { precompress } from "../packages/docs/src/precompress.ts";
import { startStaticServer } from "../packages/docs/src/static-server.ts";
import { coldLoad, interleavedLoads, type Load, SHARED_REDOC } from "./docs-load.ts";
import {
  type BenchmarkResult,
  fmt,
  info,
  judged,
  median,
  noise,
  pairedRatios,
  type ResultRow,
  timed,
} from "./harness.ts";

const DIST = fileURLToPath(new URL("../packages/docs/dist/", import.meta.url));
const RUNS = 3;
const LATER = 5;
const OWN_BYTES_TARGET = 100_000;
const CHUNK_TARGET = 160_000;
const FIRST_ANSWER_TARGET_MS = 1000;
const LATER_ANSWER_TARGET_MS = 100;
const USABLE_RATIO_TARGET = 1.05;
/** Cold loads of each page, with and without the panel's script, interleaved in pairs. */
const USABLE_PAIRS = 5;
const PAGES = [
  { id: "2.1", dir: "v2.1", slug: "v2.1-store/searchstore_v2_1" },
  { id: "2.0", dir: "v2.0", slug: "v2.0-store/searchstore_v2_0" },
] as const;
/** The loader the build puts before `</body>`: left out of the page "without the panel". */
const TRY_IT_LOADER = /<script type="module">const o=\{"operations":.*?<\/script>\n?/s;

/** What the first Send loads, as served with brotli, by kind. */
interface SandboxBytes {
  code: number;
  description: number;
  data: number;
}

/**
 * What the first Send loads: the worker module named in the page's loader, the modules it imports
 * (statically, and the sandbox's chunk the worker's entry imports at once), with theirs statically,
 * and the JSON files they fetch. Ajv's chunk, behind a dynamic import inside the sandbox that only a
 * `spec` option takes, is not loaded. Read from the files because a dedicated worker's own loads are
 * not reported to the page.
 */
async function sandboxBytes(dir: string): Promise<SandboxBytes> {
  const html = await readFile(`${DIST}${dir}/index.html`, "utf8");
  const worker = /"worker":"\.\.\/assets\/(try-it-sandbox\.[0-9a-f]{16}\.js)"/.exec(html)?.[1];
  if (worker === undefined) throw new Error(`${dir}/index.html names no Try it worker`);
  const bytes: SandboxBytes = { code: 0, description: 0, data: 0 };
  const seen = new Set<string>();
  const visit = async (file: string, followDynamic: boolean): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const size = (await stat(`${DIST}assets/${file}.br`)).size;
    if (file.endsWith(".js")) bytes.code += size;
    else if (file.startsWith("try-it-sandbox-description.")) bytes.description += size;
    else bytes.data += size;
    if (!file.endsWith(".js")) return;
    const text = await readFile(`${DIST}assets/${file}`, "utf8");
    for (const m of text.matchAll(/from\s*"\.\/(try-it-sandbox-chunk\.[0-9a-f]{16}\.js)"/g))
      await visit(m[1] as string, false);
    if (followDynamic)
      for (const m of text.matchAll(/import\("\.\/(try-it-sandbox-chunk\.[0-9a-f]{16}\.js)"\)/g))
        await visit(m[1] as string, false);
    for (const m of text.matchAll(/"(try-it-sandbox-(?:description|data)\.[0-9a-f]{16}\.json)"/g))
      await visit(m[1] as string, false);
  };
  await visit(worker, true);
  return bytes;
}

const total = (b: SandboxBytes) => b.code + b.description + b.data;

interface Run {
  ownBytesBeforeSend: number;
  firstAnswerMs: number;
  laterAnswerMs: number;
  /** The steps of the first Send as the panel timed them (`try-it …` measures), ms by name. */
  steps: Map<string, number>;
}

/** The first Send's steps the panel put on the timeline, in the order they ran. */
const FIRST_SEND_STEPS = `performance.getEntriesByType("measure")
  .filter((m) => m.name.startsWith("try-it "))
  .map((m) => [m.name.slice(7), m.startTime, m.duration])`;

/** Clicks Send and resolves with the ms until the panel shows a new answer (timed in the page). */
const SEND_AND_TIME = `(async (slug) => {
  const panel = document.querySelector('[data-section-id$="/' + slug + '"] .dp-tryit');
  const last = panel.querySelector(".dp-tryit-answer")?.dataset.sent ?? "";
  const started = performance.now();
  panel.querySelector(".dp-tryit-send").click();
  for (;;) {
    const answer = panel.querySelector(".dp-tryit-answer");
    if (answer && answer.dataset.sent !== last) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
})`;

async function measure(context: BrowserContext, base: string, page: (typeof PAGES)[number]): Promise<Run> {
  const tab = await context.newPage();
  const sizes: Promise<{ url: string; size: number; sent: boolean }>[] = [];
  let sent = false;
  context.on("requestfinished", (request) => {
    const during = sent;
    sizes.push(
      request
        .sizes()
        .then((s) => ({ url: request.url(), size: s.responseBodySize + s.responseHeadersSize, sent: during }))
        .catch(() => ({ url: request.url(), size: 0, sent: during })),
    );
  });
  await tab.goto(new URL(`${page.dir}/index.html#/${page.slug}`, base).href);
  await tab.locator('.menu-content img[alt="redocly logo"]').waitFor({ state: "attached", timeout: 30_000 });
  const panel = tab.locator(`[data-section-id$="/${page.slug}"] .dp-tryit`);
  await panel.waitFor({ state: "attached", timeout: 30_000 });
  await tab.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  await panel.locator(".dp-tryit-toggle").click();
  sent = true;
  const firstAnswerMs = (await tab.evaluate(`${SEND_AND_TIME}(${JSON.stringify(page.slug)})`)) as number;
  const steps = new Map<string, number>();
  for (const [name, , duration] of (await tab.evaluate(FIRST_SEND_STEPS)) as [string, number, number][])
    steps.set(name, duration);
  const later: number[] = [];
  for (let i = 0; i < LATER; i++)
    later.push((await tab.evaluate(`${SEND_AND_TIME}(${JSON.stringify(page.slug)})`)) as number);
  const responses = await Promise.all(sizes);
  await tab.close();
  const own = responses.filter((r) => !r.sent && !SHARED_REDOC.test(new URL(r.url).pathname));
  return {
    ownBytesBeforeSend: own.reduce((sum, r) => sum + r.size, 0),
    firstAnswerMs,
    laterAnswerMs: median(later),
    steps,
  };
}

/** A copy of the site whose references also exist without the panel's loader (`without-try-it.html`). */
async function siteWithoutPanel(root: string): Promise<void> {
  await cp(DIST, root, { recursive: true });
  const written: string[] = [];
  for (const page of PAGES) {
    const html = await readFile(join(DIST, page.dir, "index.html"), "utf8");
    if (!TRY_IT_LOADER.test(html)) throw new Error(`${page.dir}/index.html has no Try it loader`);
    await writeFile(join(root, page.dir, "without-try-it.html"), html.replace(TRY_IT_LOADER, ""));
    written.push(`${page.dir}/without-try-it.html`);
  }
  await precompress(root, written);
}

/** Interleaved cold loads of a reference with and without the panel; rows and the per-pair figures. */
async function compareUsable(
  browser: Browser,
  base: string,
  page: (typeof PAGES)[number],
): Promise<{ rows: ResultRow[]; detail: string[] }> {
  const withUrl = new URL(`${page.dir}/index.html`, base).href;
  const cold = (url: string) => coldLoad(browser, url, { settle: url === withUrl ? ".dp-tryit" : true });
  const [on, off] = await interleavedLoads(
    cold,
    withUrl,
    new URL(`${page.dir}/without-try-it.html`, base).href,
    USABLE_PAIRS,
  );
  const series = (key: keyof Load) => ({ on: on.map((u) => u[key]), off: off.map((u) => u[key]) });
  const cells = (key: keyof Load) => {
    const { on: o, off: f } = series(key);
    return {
      ours: fmt.ms(median(o)),
      reference: fmt.ms(median(f)),
      ratio: fmt.ratio(median(pairedRatios(o, f))),
    };
  };
  const cpu = series("cpuMs");
  const cpuRatios = pairedRatios(cpu.on, cpu.off);
  const ratio = median(cpuRatios);
  const name = `API ${page.id} reference`;
  return {
    rows: [
      judged(
        `${name}: main-thread CPU until usable, with the panel's script vs without (median of ${USABLE_PAIRS} pairs)`,
        { ...cells("cpuMs"), target: `≤ ${fmt.ratio(USABLE_RATIO_TARGET)} without` },
        {
          met: ratio <= USABLE_RATIO_TARGET,
          miss: `+${fmt.ratio(ratio - USABLE_RATIO_TARGET)}`,
          noisy: noise(cpuRatios),
        },
      ),
      info(`${name}: wall time until usable, with the panel's script vs without`, cells("usableMs")),
      info(
        `${name}: main-thread CPU until settled (panel attached, main thread idle), with vs without`,
        cells("settledCpuMs"),
      ),
    ],
    detail: [
      page.id,
      ...on.map(
        (u, i) =>
          `${Math.round(u.cpuMs)} / ${Math.round(off[i]?.cpuMs ?? Number.NaN)} ms CPU, ${Math.round(u.settledCpuMs)} / ${Math.round(off[i]?.settledCpuMs ?? Number.NaN)} settled`,
      ),
    ],
  };
}

function row(metric: string, value: number, target: number, format: (n: number) => string): ResultRow {
  return judged(
    metric,
    { ours: format(value), target: `≤ ${format(target)}` },
    { met: value <= target, miss: `+${format(value - target)}` },
  );
}

/** The rows and detail lines of one reference: time to usable with and without the panel, then Sends. */
async function measurePage(browser: Browser, base: string, page: (typeof PAGES)[number]) {
  const usable = await compareUsable(browser, base, page);
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    // A fresh context per load: an empty cache, as on a first visit.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    runs.push(await measure(context, base, page).finally(() => context.close()));
  }
  const pick = (key: "ownBytesBeforeSend" | "firstAnswerMs" | "laterAnswerMs") =>
    median(runs.map((r) => r[key]));
  const bytes = await sandboxBytes(page.dir);
  const name = `API ${page.id} reference`;
  const rows = [
    row(
      `${name}: own transfer before the first Send (panel included)`,
      pick("ownBytesBeforeSend"),
      OWN_BYTES_TARGET,
      fmt.bytes,
    ),
    ...usable.rows,
    row(
      `${name}: sandbox loaded on the first Send (worker, chunks, description and data, compressed)`,
      total(bytes),
      CHUNK_TARGET,
      fmt.bytes,
    ),
    row(
      `${name}: first answer after the click on Send (median of ${RUNS})`,
      pick("firstAnswerMs"),
      FIRST_ANSWER_TARGET_MS,
      fmt.ms,
    ),
    row(
      `${name}: later answers (median of ${RUNS}×${LATER})`,
      pick("laterAnswerMs"),
      LATER_ANSWER_TARGET_MS,
      fmt.ms,
    ),
  ];
  const names = [...new Set(runs.flatMap((r) => [...r.steps.keys()]))].filter(
    (step) => !step.startsWith("answer shown") && step !== "answer the request",
  );
  const steps = names.map((step) => {
    const values = runs.map((r) => r.steps.get(step)).filter((v): v is number => v !== undefined);
    return [page.id, step, fmt.ms(median(values)), values.map((v) => Math.round(v)).join(", ")];
  });
  const each = runs.map(
    (r) =>
      `${Math.round(r.ownBytesBeforeSend / 1000)} kB, first ${Math.round(r.firstAnswerMs)} ms, later ${Math.round(r.laterAnswerMs)} ms`,
  );
  const loaded = [page.id, fmt.bytes(bytes.code), fmt.bytes(bytes.description), fmt.bytes(bytes.data)];
  return { rows, usable: usable.detail, loaded, steps, each: [page.id, ...each] };
}

async function measureAll(root: string) {
  if (!(await stat(`${DIST}v2.1/index.html`).catch(() => undefined)))
    throw new Error(`${DIST} has no built site; run \`pnpm run docs\` first`);
  await siteWithoutPanel(root);
  const server = await startStaticServer({ root, port: 0 });
  const browser = await launchChromium({ timeoutMs: 60_000 });
  try {
    const pages = [];
    for (const page of PAGES) pages.push(await measurePage(browser, server.url, page));
    return pages;
  } finally {
    await browser.close();
    await server.close();
  }
}

export function run(): Promise<BenchmarkResult> {
  return timed("docs-try-it", async () => {
    const pages = await withScratchDir("drill-docs-try-it-", measureAll);
    return {
      setup: [
        `${USABLE_PAIRS} pairs of cold loads per reference with and without the panel's script, order alternating, after one uncounted load of each`,
        `${RUNS} cold loads per reference with a first Send, ${LATER} later Sends each`,
        "Debian Chromium, headless, 1280×900, the omnibox popup switched off (@drill-practice/tooling/chromium)",
        "site from `pnpm run docs`",
      ],
      rows: pages.flatMap((p) => p.rows),
      details: [
        {
          title:
            "Each pair of cold loads: main-thread CPU until usable and until settled, with / without the panel",
          headers: ["reference", ...Array.from({ length: USABLE_PAIRS }, (_, i) => `pair ${i + 1}`)],
          rows: pages.map((p) => p.usable),
        },
        {
          title: "What the first Send loads (brotli, as served)",
          headers: ["reference", "code (worker and chunks)", "description (without prose)", "default data"],
          rows: pages.map((p) => p.loaded),
        },
        {
          title:
            "The first Send, step by step (the panel's performance measures; the worker's steps run in turn)",
          headers: ["reference", "step", "median", "each run"],
          rows: pages.flatMap((p) => p.steps),
        },
        {
          title: "Each cold load: own transfer before Send, first and later answer",
          headers: ["reference", ...Array.from({ length: RUNS }, (_, i) => `run ${i + 1}`)],
          rows: pages.map((p) => p.each),
        },
      ],
    };
  });
}
