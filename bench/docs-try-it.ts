/**
 * Docs: the Try it panel, what it costs a reference before the first Send and how fast that Send
 * answers (bench/README.md says what each figure is). Needs a built site (`pnpm run docs`) and
 * Debian's Chromium.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Browser } from "playwright-core";
import { readTryItPage, withoutTryIt } from "../packages/docs/src/try-it/page-config.ts";
import {
  coldLoad,
  DIST,
  freshContext,
  hydrated,
  interleavedLoads,
  type Load,
  PAGES,
  type Page,
  trackTransfer,
  USABLE_RATIO_TARGET,
  withSite,
} from "./docs-load.ts";
import {
  atMost,
  type BenchmarkResult,
  compared,
  fmt,
  info,
  median,
  noise,
  pairedRatios,
  ratioJudged,
  timed,
} from "./harness.ts";

const RUNS = 3;
const LATER = 5;
/** Cold loads of each page, with and without the panel's script, interleaved in pairs. */
const USABLE_PAIRS = 5;
/** Redoc's address of the search sent in each reference: `<tag>/<operationId in lower case>`. */
const slug = (page: Page) => `v${page.id}-${page.send}_v${page.id.replaceAll(".", "_")}`;

/**
 * What the first Send loads, by kind, as served with brotli: the worker module named in the page's
 * Try it configuration, the modules it imports (statically, and the sandbox's chunk the worker's
 * entry imports at once), with theirs statically, and the JSON files they fetch. Ajv's chunk, behind
 * a dynamic import inside the sandbox that only a `spec` option takes, is not loaded. Read from the
 * files because a dedicated worker's own loads are not reported to the page.
 */
async function sandboxBytes(dir: string) {
  const page = `${dir}/index.html`;
  const { config } = readTryItPage(await readFile(`${DIST}${page}`, "utf8"), page);
  // Relative to the assets, where the worker imports its chunks and files from.
  const worker = relative(join(DIST, "assets"), join(DIST, dir, config.worker));
  const bytes = { code: 0, description: 0, data: 0 };
  const seen = new Set<string>();
  const chunk = String.raw`\.\/(try-it-sandbox-chunk\.[0-9a-f]{16}\.js)`;
  const visit = async (file: string, followDynamic: boolean): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const kind = file.endsWith(".js") ? "code" : file.includes("-description.") ? "description" : "data";
    bytes[kind] += (await stat(`${DIST}assets/${file}.br`)).size;
    if (kind !== "code") return;
    const text = await readFile(`${DIST}assets/${file}`, "utf8");
    const imports = [
      new RegExp(`from\\s*"${chunk}"`, "g"),
      /"(try-it-sandbox-(?:description|data)\.[0-9a-f]{16}\.json)"/g,
    ];
    if (followDynamic) imports.push(new RegExp(`import\\("${chunk}"\\)`, "g"));
    for (const pattern of imports) for (const m of text.matchAll(pattern)) await visit(m[1] as string, false);
  };
  await visit(worker, true);
  return bytes;
}

/** The first Send's steps the panel put on the timeline, in the order they ran. */
const FIRST_SEND_STEPS = `performance.getEntriesByType("measure")
  .filter((m) => m.name.startsWith("try-it "))
  .map((m) => [m.name.slice(7), m.duration])`;

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

/** One cold load with a first Send and `LATER` more: the own transfer before Send, the answers' times and steps. */
async function sends(browser: Browser, base: string, page: Page) {
  const context = await freshContext(browser);
  const tab = await context.newPage();
  const transfer = trackTransfer(tab);
  await tab.goto(new URL(`${page.dir}/index.html#/${slug(page)}`, base).href);
  await hydrated(tab);
  const panel = tab.locator(`[data-section-id$="/${slug(page)}"] .dp-tryit`);
  await panel.waitFor({ state: "attached", timeout: 30_000 });
  await tab.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  const ownBytes = await transfer.own();
  await panel.locator(".dp-tryit-toggle").click();
  const send = async () => (await tab.evaluate(`${SEND_AND_TIME}(${JSON.stringify(slug(page))})`)) as number;
  const firstAnswerMs = await send();
  const steps = new Map((await tab.evaluate(FIRST_SEND_STEPS)) as [string, number][]);
  const later: number[] = [];
  for (let i = 0; i < LATER; i++) later.push(await send());
  await context.close();
  return { ownBytes, firstAnswerMs, laterAnswerMs: median(later), steps };
}

/** The references without Try it's loader and configuration (`without-try-it.html`), in the site's copy. */
async function writePagesWithoutPanel(root: string): Promise<string[]> {
  for (const page of PAGES) {
    const html = await readFile(join(DIST, page.dir, "index.html"), "utf8");
    const without = withoutTryIt(html, `${page.dir}/index.html`);
    await writeFile(join(root, page.dir, "without-try-it.html"), without);
  }
  return PAGES.map((page) => `${page.dir}/without-try-it.html`);
}

/** Interleaved cold loads of a reference with and without the panel, as rows. */
async function compareUsable(browser: Browser, base: string, page: Page) {
  const withUrl = new URL(`${page.dir}/index.html`, base).href;
  const cold = (url: string) => coldLoad(browser, url, { settle: url === withUrl ? ".dp-tryit" : true });
  const without = new URL(`${page.dir}/without-try-it.html`, base).href;
  const [on, off] = await interleavedLoads(cold, withUrl, without, USABLE_PAIRS);
  const cells = (key: keyof Load) => {
    const [o, f] = [on.map((u) => u[key]), off.map((u) => u[key])];
    const ratios = pairedRatios(o, f);
    // The ratio cell is the median of the pairs' ratios, not the ratio of the medians.
    return { ...compared(median(o), median(f), fmt.ms), ratio: fmt.ratio(median(ratios)), ratios };
  };
  const { ratios, ...cpu } = cells("cpuMs");
  const name = `API ${page.id} reference`;
  return [
    ratioJudged(
      `${name}: main-thread CPU until usable, with the panel's script vs without (median of ${USABLE_PAIRS} pairs)`,
      cpu,
      median(ratios),
      { at: USABLE_RATIO_TARGET, against: " without", noisy: noise(ratios) },
    ),
    info(`${name}: wall time until usable, with the panel's script vs without`, cells("usableMs")),
    info(
      `${name}: main-thread CPU until settled (panel attached, main thread idle), with vs without`,
      cells("settledCpuMs"),
    ),
  ];
}

/** The rows and detail lines of one reference: time to usable with and without the panel, then Sends. */
async function measurePage(browser: Browser, base: string, page: Page) {
  const usable = await compareUsable(browser, base, page);
  const runs: Awaited<ReturnType<typeof sends>>[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await sends(browser, base, page));
  const pick = (key: "ownBytes" | "firstAnswerMs" | "laterAnswerMs") => median(runs.map((r) => r[key]));
  const bytes = await sandboxBytes(page.dir);
  const loaded = bytes.code + bytes.description + bytes.data;
  const row = (what: string, value: number, limit: number, format: (n: number) => string) =>
    atMost(`API ${page.id} reference: ${what}`, value, limit, format);
  const rows = [
    row("own transfer before the first Send (panel included)", pick("ownBytes"), 100_000, fmt.bytes),
    ...usable,
    row(
      "sandbox loaded on the first Send (worker, chunks, description and data, compressed)",
      loaded,
      160_000,
      fmt.bytes,
    ),
    row(`first answer after the click on Send (median of ${RUNS})`, pick("firstAnswerMs"), 1000, fmt.ms),
    row(`later answers (median of ${RUNS}×${LATER})`, pick("laterAnswerMs"), 100, fmt.ms),
  ];
  const names = [...new Set(runs.flatMap((r) => [...r.steps.keys()]))].filter(
    (step) => !step.startsWith("answer shown") && step !== "answer the request",
  );
  const steps = names.map((step) => {
    const values = runs.flatMap((r) => r.steps.get(step) ?? []);
    return [page.id, step, fmt.ms(median(values)), values.map((v) => Math.round(v)).join(", ")];
  });
  return { rows, loaded: [page.id, ...[bytes.code, bytes.description, bytes.data].map(fmt.bytes)], steps };
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("docs-try-it", async () => {
    const pages = await withSite(writePagesWithoutPanel, async (browser, base) => {
      const measured: Awaited<ReturnType<typeof measurePage>>[] = [];
      for (const page of PAGES) measured.push(await measurePage(browser, base, page));
      return measured;
    });
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
      ],
    };
  });
}
