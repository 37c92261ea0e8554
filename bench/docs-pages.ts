/**
 * Docs pages: each API reference loaded cold in Chromium from `docs:serve`'s server, next to the
 * stock page `redocly build-docs` makes of the same bundle in the same run, given the site build's
 * treatment (Redoc's credit logo served locally, Redoc moved into the one shared file, precompressed)
 * so both load the very same Redoc. Needs a built site (`pnpm run docs`) and Debian's Chromium.
 */
import { copyFile, cp, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import { localizeRedocAssets, redocCreditFile } from "../packages/docs/src/offline-assets.ts";
import { precompress } from "../packages/docs/src/precompress.ts";
import { runBuildDocs } from "../packages/docs/src/redoc-build.ts";
import { splitRedocBundle } from "../packages/docs/src/shared-redoc.ts";
import {
  coldLoad,
  DIST,
  freshContext,
  interleavedLoads,
  type Load,
  PAGES,
  withBrowser,
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
const USABLE_RATIO_TARGET = 1.05;
const RUNS = 9;

/**
 * The stock pages: `redocly build-docs` of each bundle with no template, configuration or
 * additions, then the site build's treatment; written next to a copy of the site's `assets/` (the
 * static server serves nothing that resolves outside its root), so both load one Redoc file.
 */
async function buildStockPages(root: string): Promise<void> {
  await cp(join(DIST, "assets"), join(root, "assets"), { recursive: true });
  await copyFile(join(DIST, redocCreditFile), join(root, redocCreditFile));
  for (const page of PAGES) {
    const output = join(root, `stock-${page.dir}`, "index.html");
    await mkdir(join(root, `stock-${page.dir}`));
    await runBuildDocs({ input: join(SPEC_DIST, `openapi-v${page.id}.json`), output });
    const split = splitRedocBundle(localizeRedocAssets(await readFile(output, "utf8"), "../"), "../");
    if (!(await stat(join(DIST, split.file)).catch(() => undefined)))
      throw new Error(
        `the stock page's Redoc (${split.file}) differs from the site's; rebuild it with \`pnpm run docs\``,
      );
    await writeFile(output, split.html);
  }
  await precompress(
    root,
    PAGES.map((page) => `stock-${page.dir}/index.html`),
  );
}

/** Cold loads of our page and the stock one, interleaved in pairs (order alternating), and their rows. */
async function comparePage(cold: (url: string) => Promise<Load>, id: string, ours: string, stock: string) {
  const [o, s] = await interleavedLoads(cold, ours, stock, RUNS);
  const m = (loads: Load[], field: keyof Load) => median(loads.map((l) => l[field]));
  const pair = (field: keyof Load, format: (v: number) => string) =>
    compared(m(o, field), m(s, field), format);
  const usable = (loads: Load[]) => loads.map((l) => l.usableMs);
  const name = `API ${id} reference`;
  return [
    atMost(
      `${name}: own transfer on first load (all but the shared Redoc bundle)`,
      m(o, "ownBytes"),
      100_000,
      " B",
      pair("ownBytes", fmt.bytes),
    ),
    ratioJudged(
      `${name}: menu clickable, cold (median of ${RUNS}, loopback)`,
      pair("usableMs", fmt.ms),
      m(o, "usableMs") / m(s, "usableMs"),
      {
        at: USABLE_RATIO_TARGET,
        against: " stock",
        noisy: noise(pairedRatios(usable(o), usable(s))),
      },
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
    rows: await withScratchDir("drill-docs-stock-", (stockRoot) =>
      withBrowser([DIST, stockRoot], async (browser, [site, stockSite]) => {
        await buildStockPages(stockRoot);
        const ours = (page: (typeof PAGES)[number]) => new URL(`${page.dir}/index.html`, site).href;
        const rows = [];
        for (const page of PAGES) {
          const stock = new URL(`stock-${page.dir}/index.html`, stockSite).href;
          rows.push(...(await comparePage((url) => coldLoad(browser, url), page.id, ours(page), stock)));
        }
        // The second reference in the same browser session: the shared Redoc bundle comes from the cache.
        const context = await freshContext(browser);
        await coldLoad(browser, ours(PAGES[0]), { keep: context });
        const second = await coldLoad(browser, ours(PAGES[1]), { keep: context });
        await context.close();
        const cached = { ours: fmt.bytes(second.bytes) };
        return [...rows, info("API 2.0 reference after 2.1 (shared Redoc bundle cached)", cached)];
      }),
    ),
  }));
}
