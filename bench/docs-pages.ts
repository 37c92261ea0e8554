/**
 * Docs pages: each API reference loaded cold in Chromium from `docs:serve`'s server, next to the
 * stock page `redocly build-docs` makes of the same bundle, built in the same run.
 *
 * Redoc's own bundle (about 520 kB with brotli) is the floor both pages share: the stock page is
 * given the same treatment the site's build gives its references (Redoc's credit logo served locally,
 * Redoc moved into the one shared, cached file, the page precompressed), so it loads the very same file. What is compared is what
 * the project adds: each reference's own transfer (every byte but that shared bundle), and its time
 * to usable (navigation until a click on a side-menu group opens it), median of interleaved cold loads.
 * Needs a built site (`pnpm run docs`) and Debian's Chromium.
 */
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_FLAGS, chromiumPath } from "@drill-practice/tooling/chromium";
import { type BrowserContext, chromium as playwrightChromium } from "playwright-core";
import { localizeRedocAssets, redocCreditFile } from "../packages/docs/src/offline-assets.ts";
import { precompress } from "../packages/docs/src/precompress.ts";
import { runBuildDocs } from "../packages/docs/src/redoc-build.ts";
import { splitRedocBundle } from "../packages/docs/src/shared-redoc.ts";
import { startStaticServer } from "../packages/docs/src/static-server.ts";
import {
  type BenchmarkResult,
  fmt,
  info,
  judged,
  median,
  now,
  pairedRatios,
  type ResultRow,
  spread,
  timed,
} from "./harness.ts";

const DIST = fileURLToPath(new URL("../packages/docs/dist/", import.meta.url));
const SPEC_DIST = fileURLToPath(new URL("../spec/dist/", import.meta.url));
const OWN_BYTES_TARGET = 100_000;
const USABLE_RATIO_TARGET = 1.05;
const RUNS = 9;
const PAGES = [
  { id: "2.1", dir: "v2.1", bundle: "openapi-v2.1.json" },
  { id: "2.0", dir: "v2.0", bundle: "openapi-v2.0.json" },
] as const;
/** The shared Redoc bundle, the floor every reference loads. */
const SHARED_REDOC = /\/assets\/redoc\.[0-9a-f]{16}\.js$/;

interface Load {
  /** Every response: headers and encoded body. */
  bytes: number;
  /** The same without the shared Redoc bundle. */
  ownBytes: number;
  usableMs: number;
  /** CPU time of the page's main thread until usable: the work itself, whatever else the machine runs. */
  mainThreadCpuMs: number;
}

/**
 * One page load in `context`: bytes of every response, and ms until a menu group opens on click.
 * Usable is one defined moment, the same on both kinds of page: Redoc has hydrated the side menu
 * (its credit logo, mounted by an effect, is in the DOM), a click on the first group has been
 * handled, and that group's first operation is visible. Timed from just before the navigation.
 */
async function load(context: BrowserContext, url: string): Promise<Load> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // Thread ticks: ThreadTime below is the CPU time of the renderer's main thread.
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  const threadTime = async (): Promise<number> => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return (metrics.find((m) => m.name === "ThreadTime")?.value ?? Number.NaN) * 1000;
  };
  const threadStart = await threadTime();
  const sizes: Promise<{ url: string; size: number }>[] = [];
  page.on("requestfinished", (request) => {
    sizes.push(
      request
        .sizes()
        .then((s) => ({ url: request.url(), size: s.responseBodySize + s.responseHeadersSize }))
        .catch(() => ({ url: request.url(), size: 0 })),
    );
  });
  const started = now();
  await page.goto(url, { waitUntil: "commit" });
  // Hydrated: the side bar's credit logo is mounted by an effect, which runs once hydration is done.
  // (Clicking before that would follow the group link as a plain link, which on the stock page
  // leads nowhere.) Then usable: a click on a group opens its operations.
  await page.locator('.menu-content img[alt="redocly logo"]').waitFor({ state: "attached", timeout: 30_000 });
  await page.locator(".menu-item-type-group > a").first().click({ timeout: 10_000 });
  await page.locator(".menu-item-type-operation a").first().waitFor({ state: "visible", timeout: 10_000 });
  const usableMs = now() - started;
  const mainThreadCpuMs = (await threadTime()) - threadStart;
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  const responses = await Promise.all(sizes);
  const bytes = responses.reduce((sum, r) => sum + r.size, 0);
  const ownBytes = responses
    .filter((r) => !SHARED_REDOC.test(new URL(r.url).pathname))
    .reduce((sum, r) => sum + r.size, 0);
  await page.close();
  return { bytes, ownBytes, usableMs, mainThreadCpuMs };
}

/**
 * The stock pages: `redocly build-docs` of each bundle with no template, configuration or
 * additions, Redoc inlined (the default would load it from Redocly's CDN) and then moved into the
 * shared file exactly as the site's build does, precompressed the same way. Written next to a link
 * to the site's `assets/`, so both kinds of page load one and the same Redoc file.
 */
async function buildStockPages(root: string): Promise<void> {
  // Copies, not links: the static server serves nothing that resolves outside its root.
  await cp(join(DIST, "assets"), join(root, "assets"), { recursive: true });
  await copyFile(join(DIST, redocCreditFile), join(root, redocCreditFile));
  const files: string[] = [];
  await Promise.all(
    PAGES.map(async (page) => {
      const dir = join(root, `stock-${page.dir}`);
      await mkdir(dir);
      const output = join(dir, "index.html");
      await runBuildDocs({ input: join(SPEC_DIST, page.bundle), output });
      // As in the site: the side bar's credit logo from this server rather than Redoc's CDN.
      const split = splitRedocBundle(localizeRedocAssets(await readFile(output, "utf8"), "../"), "../");
      const shared = await stat(join(DIST, split.file)).catch(() => undefined);
      if (!shared) {
        throw new Error(
          `the stock page's Redoc (${split.file}) differs from the site's; rebuild the site with \`pnpm run docs\``,
        );
      }
      await writeFile(output, split.html);
      files.push(`stock-${page.dir}/index.html`);
    }),
  );
  await precompress(root, files);
}

/** Cold loads of our page and the stock one, interleaved in pairs (order alternating), and their rows. */
async function comparePage(
  cold: (url: string) => Promise<Load>,
  page: (typeof PAGES)[number],
  ours: string,
  stock: string,
) {
  // One uncounted load of each side first, so that neither side's first pair starts colder.
  await cold(ours);
  await cold(stock);
  const o: Load[] = [];
  const s: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    const first = i % 2 === 0 ? [ours, stock] : [stock, ours];
    for (const url of first) (url === ours ? o : s).push(await cold(url));
  }
  const m = (loads: Load[], field: keyof Load) => median(loads.map((l) => l[field]));
  const pair = (field: keyof Load, format: (v: number) => string) => ({
    ours: format(m(o, field)),
    reference: format(m(s, field)),
    ratio: fmt.ratio(m(o, field) / m(s, field)),
  });
  const paired = pairedRatios(
    o.map((l) => l.usableMs),
    s.map((l) => l.usableMs),
  );
  const ratio = m(o, "usableMs") / m(s, "usableMs");
  const name = `API ${page.id} reference`;
  return [
    judged(
      `${name}: own transfer on first load (all but the shared Redoc bundle)`,
      { ...pair("ownBytes", fmt.bytes), target: `≤ ${fmt.bytes(OWN_BYTES_TARGET)}` },
      {
        met: m(o, "ownBytes") <= OWN_BYTES_TARGET,
        miss: `+${fmt.bytes(m(o, "ownBytes") - OWN_BYTES_TARGET)}`,
      },
    ),
    judged(
      `${name}: menu clickable, cold (median of ${RUNS}, loopback)`,
      { ...pair("usableMs", fmt.ms), target: `≤ ${fmt.ratio(USABLE_RATIO_TARGET)} stock` },
      {
        met: ratio <= USABLE_RATIO_TARGET,
        miss: `+${fmt.ratio(ratio - USABLE_RATIO_TARGET)}`,
        noisy:
          spread(paired) > 0.3 ? `paired ratios spread ${(spread(paired) * 100).toFixed(0)} %` : undefined,
      },
    ),
    info(`${name}: main-thread CPU time until usable (median of ${RUNS})`, pair("mainThreadCpuMs", fmt.ms)),
    info(`${name}: transferred on first load, shared Redoc bundle included`, pair("bytes", fmt.bytes)),
  ];
}

async function measure(stockRoot: string): Promise<ResultRow[]> {
  const chromium = chromiumPath();
  if (!chromium.found) throw new Error(`Chromium not found at ${chromium.path} (set CHROMIUM_PATH)`);
  if (!(await stat(`${DIST}v2.1/index.html`).catch(() => undefined)))
    throw new Error(`${DIST} has no built site; run \`pnpm run docs\` first`);
  await buildStockPages(stockRoot);
  const server = await startStaticServer({ root: DIST, port: 0 });
  const stockServer = await startStaticServer({ root: stockRoot, port: 0 });
  const browser = await playwrightChromium.launch({
    executablePath: chromium.path,
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
  try {
    const viewport = { width: 1280, height: 900 };
    // A fresh context per load: an empty cache, as on a first visit.
    const cold = async (url: string) => {
      const context = await browser.newContext({ viewport });
      return load(context, url).finally(() => context.close());
    };
    const rows: ResultRow[] = [];
    for (const page of PAGES) {
      const ours = new URL(`${page.dir}/index.html`, server.url).href;
      rows.push(
        ...(await comparePage(
          cold,
          page,
          ours,
          new URL(`stock-${page.dir}/index.html`, stockServer.url).href,
        )),
      );
    }
    // The second reference in the same browser session: the shared Redoc bundle comes from the cache.
    const context = await browser.newContext({ viewport });
    await load(context, new URL(`${PAGES[0].dir}/index.html`, server.url).href);
    const second = await load(context, new URL(`${PAGES[1].dir}/index.html`, server.url).href);
    await context.close();
    return [
      ...rows,
      info("API 2.0 reference after 2.1 (shared Redoc bundle cached)", { ours: fmt.bytes(second.bytes) }),
    ];
  } finally {
    await browser.close();
    await server.close();
    await stockServer.close();
  }
}

export function run(): Promise<BenchmarkResult> {
  return timed("docs-pages", async () => {
    const stockRoot = await mkdtemp(join(tmpdir(), "drill-docs-stock-"));
    try {
      return {
        title: "Docs: reference page weight and time to usable",
        measured:
          "Each API reference opened cold (fresh browser context) in headless Chromium from `docs:serve`'s server on " +
          "loopback: its own transfer (headers plus encoded bodies of every response except the shared Redoc bundle) " +
          "and the time from navigation until a click on a side-menu group opens it, once Redoc has hydrated the menu " +
          "(the main thread's CPU time over the same span beside it). Reference: the stock page `redocly build-docs` " +
          "makes of the same bundle in the same run, Redoc moved into the same shared file and the page precompressed " +
          "as the site's build does, loaded in turns with ours.",
        setup: [
          `${RUNS} cold loads per page and variant, interleaved in pairs (order alternating), after one uncounted warm-up of each`,
          "Debian Chromium, headless, 1280×900, a fresh browser context per load, the omnibox popup switched off (@drill-practice/tooling/chromium)",
          "site from `pnpm run docs`; stock pages from `redocly build-docs <bundle>` of `spec/dist`",
        ],
        rows: await measure(stockRoot),
        details: [],
        notes: [
          "Redoc 3's bundle (about 2.3 MB minified, 520 kB with brotli) is one file shared by both references and " +
            "cached for a year under its content hash, so only the first reference of a visit pays for it; the stock " +
            "pages load the same file. A row whose paired ratios spread more than 30 % says so instead of a verdict.",
        ],
      };
    } finally {
      await rm(stockRoot, { recursive: true, force: true });
    }
  });
}
