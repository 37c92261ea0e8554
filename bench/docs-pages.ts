/**
 * Docs pages: each API reference loaded cold in Chromium next to the stock page `redocly build-docs`
 * makes of the same bundle, given the site build's treatment so both load the very same Redoc
 * (bench/README.md says what each figure is). Needs a built site (`pnpm run docs`) and Chromium.
 */
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { localizeRedocAssets } from "../packages/docs/src/offline-assets.ts";
import { runBuildDocs } from "../packages/docs/src/redoc-build.ts";
import { splitRedocBundle } from "../packages/docs/src/shared-redoc.ts";
import {
  coldLoad,
  freshContext,
  interleavedLoads,
  type Load,
  PAGES,
  type Page,
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

const SPEC_DIST = fileURLToPath(new URL("../spec/dist/", import.meta.url));
const RUNS = 9;

/**
 * The stock pages: `redocly build-docs` of each bundle with no template, configuration or
 * additions, then the site build's treatment, written into the site's copy so both load one Redoc file.
 */
async function writeStockPages(root: string): Promise<string[]> {
  for (const page of PAGES) {
    const output = join(root, `stock-${page.dir}`, "index.html");
    await mkdir(join(root, `stock-${page.dir}`));
    await runBuildDocs({ input: join(SPEC_DIST, `openapi-v${page.id}.json`), output });
    const split = splitRedocBundle(localizeRedocAssets(await readFile(output, "utf8"), "../"), "../");
    if (!(await stat(join(root, split.file)).catch(() => undefined)))
      throw new Error(
        `the stock page's Redoc (${split.file}) differs from the site's; rebuild it with \`pnpm run docs\``,
      );
    await writeFile(output, split.html);
  }
  return PAGES.map((page) => `stock-${page.dir}/index.html`);
}

/** Cold loads of our page and the stock one, interleaved in pairs (order alternating), and their rows. */
async function comparePage(browser: Browser, id: string, ours: string, stock: string) {
  const [o, s] = await interleavedLoads((url) => coldLoad(browser, url), ours, stock, RUNS);
  const m = (loads: Load[], field: keyof Load) => median(loads.map((l) => l[field]));
  const pair = (field: keyof Load, format: (v: number) => string) =>
    compared(m(o, field), m(s, field), format);
  const usable = (loads: Load[]) => loads.map((l) => l.usableMs);
  const name = `API ${id} reference`;
  const own = `${name}: own transfer on first load (all but the shared Redoc bundle)`;
  return [
    atMost(own, m(o, "ownBytes"), 100_000, " B", pair("ownBytes", fmt.bytes)),
    ratioJudged(
      `${name}: menu clickable, cold (median of ${RUNS}, loopback)`,
      pair("usableMs", fmt.ms),
      m(o, "usableMs") / m(s, "usableMs"),
      { at: USABLE_RATIO_TARGET, against: " stock", noisy: noise(pairedRatios(usable(o), usable(s))) },
    ),
    info(`${name}: main-thread CPU time until usable (median of ${RUNS})`, pair("cpuMs", fmt.ms)),
    info(`${name}: transferred on first load, shared Redoc bundle included`, pair("bytes", fmt.bytes)),
  ];
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("docs-pages", async () => ({
    setup: [
      `${RUNS} cold loads per page and variant, interleaved in pairs (order alternating), after one uncounted warm-up of each`,
      "site from `pnpm run docs`; stock pages from `redocly build-docs <bundle>` of `spec/dist`",
    ],
    rows: await withSite(writeStockPages, async (browser, base) => {
      const url = (page: Page, prefix = "") => new URL(`${prefix}${page.dir}/index.html`, base).href;
      const rows = [];
      for (const page of PAGES)
        rows.push(...(await comparePage(browser, page.id, url(page), url(page, "stock-"))));
      // The second reference in the same browser session: the shared Redoc bundle comes from the cache.
      const context = await freshContext(browser);
      await coldLoad(browser, url(PAGES[0]), { keep: context });
      const second = await coldLoad(browser, url(PAGES[1]), { keep: context });
      await context.close();
      const cached = { ours: fmt.bytes(second.bytes) };
      return [...rows, info("API 2.0 reference after 2.1 (shared Redoc bundle cached)", cached)];
    }),
  }));
}
