/**
 * Docs: the Try it panel. Each reference opened cold in Chromium from `docs:serve`'s server: what
 * the site's own files weigh before the first Send (the panel's script and table included), what
 * the first Send loads (the sandbox worker and its chunks), the time from the click on Send to the
 * first answer shown (worker start, sandbox, token exchange, request), and then to later answers.
 * Needs a built site (`pnpm run docs`) and Debian's Chromium.
 */
import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { CHROMIUM_FLAGS, chromiumPath } from "@drill-practice/tooling/chromium";
import { type BrowserContext, chromium as playwrightChromium } from "playwright-core";
import { startStaticServer } from "../packages/docs/src/static-server.ts";
import { type BenchmarkResult, fmt, judged, median, now, type ResultRow } from "./harness.ts";

const DIST = fileURLToPath(new URL("../packages/docs/dist/", import.meta.url));
const RUNS = 3;
const LATER = 5;
const OWN_BYTES_TARGET = 100_000;
const CHUNK_TARGET = 160_000;
const FIRST_ANSWER_TARGET_MS = 1000;
const LATER_ANSWER_TARGET_MS = 100;
const PAGES = [
  { id: "2.1", dir: "v2.1", slug: "v2.1-store/searchstore_v2_1" },
  { id: "2.0", dir: "v2.0", slug: "v2.0-store/searchstore_v2_0" },
] as const;
const SHARED_REDOC = /\/assets\/redoc\.[0-9a-f]{16}\.js$/;

/**
 * What the first Send loads, as served with brotli: the worker module named in the page's loader and
 * the chunks it imports statically (Ajv's chunk, behind a dynamic import nobody takes, is not loaded).
 * Read from the files because a dedicated worker's own script load is not reported to the page.
 */
async function sandboxBytes(dir: string): Promise<number> {
  const html = await readFile(`${DIST}${dir}/index.html`, "utf8");
  const worker = /"worker":"\.\.\/(assets\/try-it-sandbox\.[0-9a-f]{16}\.js)"/.exec(html)?.[1];
  if (worker === undefined) throw new Error(`${dir}/index.html names no Try it worker`);
  const text = await readFile(`${DIST}${worker}`, "utf8");
  const chunks = [...text.matchAll(/(?:from|import)\s*"\.\/(try-it-sandbox-chunk\.[0-9a-f]{16}\.js)"/g)].map(
    (m) => `assets/${m[1]}`,
  );
  let total = 0;
  for (const file of [worker, ...new Set(chunks)]) total += (await stat(`${DIST}${file}.br`)).size;
  return total;
}

interface Run {
  ownBytesBeforeSend: number;
  sandboxBytes: number;
  firstAnswerMs: number;
  laterAnswerMs: number;
}

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
  const later: number[] = [];
  for (let i = 0; i < LATER; i++)
    later.push((await tab.evaluate(`${SEND_AND_TIME}(${JSON.stringify(page.slug)})`)) as number);
  const responses = await Promise.all(sizes);
  await tab.close();
  const own = responses.filter((r) => !r.sent && !SHARED_REDOC.test(new URL(r.url).pathname));
  return {
    ownBytesBeforeSend: own.reduce((sum, r) => sum + r.size, 0),
    sandboxBytes: await sandboxBytes(page.dir),
    firstAnswerMs,
    laterAnswerMs: median(later),
  };
}

function row(metric: string, value: number, target: number, format: (n: number) => string): ResultRow {
  return judged(
    metric,
    { ours: format(value), target: `≤ ${format(target)}` },
    { met: value <= target, miss: `+${format(value - target)}` },
  );
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const chromium = chromiumPath();
  if (!chromium.found) throw new Error(`Chromium not found at ${chromium.path} (set CHROMIUM_PATH)`);
  if (!(await stat(`${DIST}v2.1/index.html`).catch(() => undefined))) {
    throw new Error(`${DIST} has no built site; run \`pnpm run docs\` first`);
  }
  const server = await startStaticServer({ root: DIST, port: 0 });
  const browser = await playwrightChromium.launch({
    executablePath: chromium.path,
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
  const rows: ResultRow[] = [];
  const detail: string[][] = [];
  try {
    for (const page of PAGES) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          runs.push(await measure(context, server.url, page));
        } finally {
          await context.close();
        }
      }
      const pick = (key: keyof Run) => median(runs.map((r) => r[key]));
      rows.push(
        row(
          `API ${page.id} reference: own transfer before the first Send (panel included)`,
          pick("ownBytesBeforeSend"),
          OWN_BYTES_TARGET,
          fmt.bytes,
        ),
        row(
          `API ${page.id} reference: sandbox loaded on the first Send (worker and chunks, compressed)`,
          pick("sandboxBytes"),
          CHUNK_TARGET,
          fmt.bytes,
        ),
        row(
          `API ${page.id} reference: first answer after the click on Send (median of ${RUNS})`,
          pick("firstAnswerMs"),
          FIRST_ANSWER_TARGET_MS,
          fmt.ms,
        ),
        row(
          `API ${page.id} reference: later answers (median of ${RUNS}×${LATER})`,
          pick("laterAnswerMs"),
          LATER_ANSWER_TARGET_MS,
          fmt.ms,
        ),
      );
      detail.push([
        page.id,
        ...runs.map(
          (r) =>
            `${Math.round(r.ownBytesBeforeSend / 1000)} kB + ${Math.round(r.sandboxBytes / 1000)} kB, first ${Math.round(r.firstAnswerMs)} ms, later ${Math.round(r.laterAnswerMs)} ms`,
        ),
      ]);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    name: "docs-try-it",
    setup: [
      `${RUNS} cold loads per reference, ${LATER} later Sends each`,
      "Debian Chromium, headless, 1280×900, the omnibox popup switched off (@drill-practice/tooling/chromium)",
      "site from `pnpm run docs`",
    ],
    rows,
    details: [
      {
        title: "Each cold load: own transfer before Send + sandbox on Send, first and later answer",
        headers: ["reference", ...Array.from({ length: RUNS }, (_, i) => `run ${i + 1}`)],
        rows: detail,
      },
    ],
    notes: [],
    durationMs: now() - started,
  };
}
