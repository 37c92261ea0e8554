/**
 * Docs pages: each API reference loaded cold in Chromium from `docs:serve`'s server, measuring the
 * bytes transferred (headers and encoded bodies) and the time until the side menu answers a click.
 * The reference in the same run is the same site fetched without compression (`Accept-Encoding:
 * identity`), which is what the server sent before precompression. Needs a built site
 * (`pnpm run docs`) and Debian's Chromium.
 */
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium as playwrightChromium } from "playwright-core";
import { startStaticServer } from "../packages/docs/src/static-server.ts";
import { chromiumArgs, chromiumPath } from "../packages/docs/test/helpers/browser.ts";
import type { BenchmarkResult, ResultRow } from "./report.ts";
import { formatBytes, formatMs, formatRatio, median, now } from "./stats.ts";

const DIST = fileURLToPath(new URL("../packages/docs/dist/", import.meta.url));
const BYTES_TARGET = 400_000;
const USABLE_TARGET_MS = 600;
const RUNS = 5;
const PAGES = [
  { id: "2.1", path: "v2.1/index.html" },
  { id: "2.0", path: "v2.0/index.html" },
] as const;

interface Load {
  bytes: number;
  usableMs: number;
}

/** One page load in `context`: bytes of every response, and ms until a menu group opens on click. */
async function load(context: BrowserContext, url: string): Promise<Load> {
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on("requestfinished", (request) => {
    sizes.push(
      request
        .sizes()
        .then((s) => s.responseBodySize + s.responseHeadersSize)
        .catch(() => 0),
    );
  });
  const started = now();
  await page.goto(url, { waitUntil: "commit" });
  const group = page.locator(".menu-item-type-group > a").first();
  // Clickable means hydrated: a click on a group opens its operations.
  for (let attempt = 0; attempt < 200; attempt++) {
    await group.click({ timeout: 10_000 });
    const opened = await page
      .locator(".menu-item-type-operation a")
      .first()
      .isVisible()
      .catch(() => false);
    if (opened) break;
    await page.waitForTimeout(10);
  }
  const usableMs = now() - started;
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await page.close();
  return { bytes, usableMs };
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
    args: [...chromiumArgs],
  });
  const rows: ResultRow[] = [];
  const detail: string[][] = [];
  try {
    const measure = async (path: string, identity: boolean): Promise<Load[]> => {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A fresh context per run: an empty cache, as on a first visit.
        const context = await browser.newContext({
          viewport: { width: 1280, height: 900 },
          extraHTTPHeaders: identity ? { "accept-encoding": "identity" } : {},
        });
        loads.push(await load(context, new URL(path, server.url).href));
        await context.close();
      }
      return loads;
    };
    for (const page of PAGES) {
      const ours = await measure(page.path, false);
      const plain = await measure(page.path, true);
      const bytes = median(ours.map((l) => l.bytes));
      const plainBytes = median(plain.map((l) => l.bytes));
      const usable = median(ours.map((l) => l.usableMs));
      const plainUsable = median(plain.map((l) => l.usableMs));
      rows.push({
        metric: `API ${page.id} reference: transferred on first load`,
        ours: formatBytes(bytes),
        reference: formatBytes(plainBytes),
        ratio: formatRatio(bytes / plainBytes),
        target: `≤ ${formatBytes(BYTES_TARGET)}`,
        verdict: bytes <= BYTES_TARGET ? "met" : "missed",
        ...(bytes > BYTES_TARGET ? { miss: `+${formatBytes(bytes - BYTES_TARGET)}` } : {}),
      });
      rows.push({
        metric: `API ${page.id} reference: menu clickable (median of ${RUNS}, loopback)`,
        ours: formatMs(usable),
        reference: formatMs(plainUsable),
        ratio: formatRatio(usable / plainUsable),
        target: `≤ ${USABLE_TARGET_MS} ms`,
        verdict: usable <= USABLE_TARGET_MS ? "met" : "missed",
        ...(usable > USABLE_TARGET_MS ? { miss: `+${formatMs(usable - USABLE_TARGET_MS)}` } : {}),
      });
      detail.push([
        page.id,
        ...ours.map((l) => `${Math.round(l.usableMs)} ms / ${Math.round(l.bytes / 1000)} kB`),
      ]);
    }
    // The second reference in the same browser session: the shared Redoc bundle comes from the cache.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await load(context, new URL(PAGES[0].path, server.url).href);
    const second = await load(context, new URL(PAGES[1].path, server.url).href);
    await context.close();
    rows.push({
      metric: "API 2.0 reference after 2.1 (shared Redoc bundle cached)",
      ours: formatBytes(second.bytes),
      reference: "—",
      ratio: "—",
      target: "—",
      verdict: "info",
    });
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    name: "docs-pages",
    title: "Docs: reference page weight and time to usable",
    measured:
      "Each API reference opened cold (fresh browser context) in headless Chromium from `docs:serve`'s server " +
      "on loopback: bytes transferred (headers plus encoded bodies) and the time from navigation until a click " +
      "on a side-menu group opens it. Reference: the same pages fetched with `Accept-Encoding: identity`.",
    setup: [
      `${RUNS} cold loads per page and variant`,
      "Debian Chromium, headless, 1280×900",
      "site from `pnpm run docs`",
    ],
    rows,
    details: [
      {
        title: "Each cold load (ours): time to usable / transferred",
        headers: ["reference", ...Array.from({ length: RUNS }, (_, i) => `run ${i + 1}`)],
        rows: detail,
      },
    ],
    notes: [
      "Redoc 3's bundle is about 2.3 MB of minified JavaScript (about 520 kB with brotli); it is one file shared by both " +
        "references and cached for a year under its content hash, so only the first reference of a visit pays for it.",
    ],
    durationMs: now() - started,
  };
}
