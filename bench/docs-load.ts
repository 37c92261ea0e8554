/**
 * What the docs benchmarks share: the built site's references, a copy of it served to Chromium, and
 * cold loads of a page (what it transfers, when it is usable and the main thread's CPU time until
 * then), alone or in interleaved pairs of two variants.
 */
import { cp, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromiumPath, launchChromium } from "@drill-practice/tooling/chromium";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import type { Browser, BrowserContext, Page as Tab } from "playwright-core";
import { precompress } from "../packages/docs/src/precompress.ts";
import { startStaticServer } from "../packages/docs/src/static-server.ts";
import { now } from "./harness.ts";

/** The site `pnpm run docs` builds. */
export const DIST = fileURLToPath(new URL("../packages/docs/dist/", import.meta.url));
/** The references of the site, by API version: their folders, and the search Try it's bench sends there. */
export const PAGES = [
  { id: "2.1", dir: "v2.1", send: "store/searchstore" },
  { id: "2.0", dir: "v2.0", send: "store/searchstore" },
  { id: "2.1.1", dir: "v2.1.1", send: "groups/searchgroups" }, // it has no store
] as const;
export type Page = (typeof PAGES)[number];

/** Either reference against its variant, with the panel or stock: at most this ratio. */
export const USABLE_RATIO_TARGET = 1.05;

/**
 * A scratch copy of the built site with the variant pages `write` adds (it names them, to be
 * precompressed as the build does), served to headless Chromium; all closed whatever happens.
 */
export async function withSite<T>(
  write: (root: string) => Promise<string[]>,
  work: (browser: Browser, base: string) => Promise<T>,
): Promise<T> {
  const chromium = chromiumPath();
  if (!chromium.found) throw new Error(`Chromium not found at ${chromium.path} (set CHROMIUM_PATH)`);
  if (!(await stat(`${DIST}v2.1/index.html`).catch(() => undefined)))
    throw new Error(`${DIST} has no built site; run \`pnpm run docs\` first`);
  return withScratchDir("drill-docs-bench-", async (root) => {
    await cp(DIST, root, { recursive: true });
    await precompress(root, await write(root));
    const server = await startStaticServer({ root, port: 0 });
    const browser = await launchChromium({ timeoutMs: 60_000 });
    try {
      return await work(browser, server.url);
    } finally {
      await browser.close();
      await server.close();
    }
  });
}

/** A fresh browser context (an empty cache, as on a first visit) in the benchmarks' window size. */
export const freshContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ viewport: { width: 1280, height: 900 } });

/** The shared Redoc bundle, the floor every reference loads. */
const SHARED_REDOC = /\/assets\/redoc\.[0-9a-f]{16}\.js$/;

/** What a page has transferred so far (headers and encoded bodies); `own` without the shared Redoc bundle. */
export function trackTransfer(page: Tab): { all(): Promise<number>; own(): Promise<number> } {
  const sizes: Promise<{ url: string; size: number }>[] = [];
  page.on("requestfinished", (request) => {
    const size = request.sizes().then(
      (s) => s.responseBodySize + s.responseHeadersSize,
      () => 0,
    );
    sizes.push(size.then((n) => ({ url: request.url(), size: n })));
  });
  const sum = async (own: boolean) =>
    (await Promise.all([...sizes]))
      .filter((r) => !own || !SHARED_REDOC.test(new URL(r.url).pathname))
      .reduce((total, r) => total + r.size, 0);
  return { all: () => sum(false), own: () => sum(true) };
}

/** Resolves once Redoc has hydrated the side menu: its credit logo, mounted by an effect, is in the DOM. */
export const hydrated = (page: Tab): Promise<void> =>
  page.locator('.menu-content img[alt="redocly logo"]').waitFor({ state: "attached", timeout: 30_000 });

export interface Load {
  /** Every response: headers and encoded body; `ownBytes` the same without the shared Redoc bundle. */
  bytes: number;
  ownBytes: number;
  usableMs: number;
  /** CPU time of the page's main thread until usable: the work itself, whatever else the machine runs. */
  cpuMs: number;
  /** The same until the page has settled (`settle` given): its selector attached and the main thread idle. */
  settledCpuMs: number;
}

export interface LoadOptions {
  /** A context to load in and keep (its cache warm); by default a fresh one, closed afterwards. */
  keep?: BrowserContext;
  /** Wait until the page has settled too: `true`, or a selector that must be attached first. */
  settle?: boolean | string;
}

/**
 * One page load: ms until usable — Redoc has hydrated the side menu (its credit logo, mounted by an
 * effect, is in the DOM; a click before would follow the group link as a plain link), a click on the
 * first group has been handled, and that group's first operation is visible — timed from just before
 * the navigation, with the main thread's CPU time (thread ticks) over the same span.
 */
export async function coldLoad(browser: Browser, url: string, options: LoadOptions = {}): Promise<Load> {
  const context = options.keep ?? (await freshContext(browser));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  const threadTime = async () =>
    ((await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime")?.value ??
      Number.NaN) * 1000;
  const threadStart = await threadTime();
  const transfer = trackTransfer(page);
  const started = now();
  await page.goto(url, { waitUntil: "commit" });
  await hydrated(page);
  await page.locator(".menu-item-type-group > a").first().click({ timeout: 10_000 });
  await page.locator(".menu-item-type-operation a").first().waitFor({ state: "visible", timeout: 10_000 });
  const usableMs = now() - started;
  const cpuMs = (await threadTime()) - threadStart;
  let settledCpuMs = Number.NaN;
  if (options.settle !== undefined && options.settle !== false) {
    await page.waitForLoadState("load");
    if (typeof options.settle === "string")
      await page.locator(options.settle).first().waitFor({ state: "attached", timeout: 30_000 });
    // Idle twice: work a page schedules from an observer runs in a later frame.
    await page.evaluate(`new Promise((r) => requestIdleCallback(() => requestIdleCallback(r)))`);
    settledCpuMs = (await threadTime()) - threadStart;
  }
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
  const [bytes, ownBytes] = [await transfer.all(), await transfer.own()];
  await (options.keep === undefined ? context.close() : page.close());
  return { bytes, ownBytes, usableMs, cpuMs, settledCpuMs };
}

/**
 * `runs` cold loads of each of two variants, interleaved in pairs with the order alternating, after
 * one uncounted load of each so that neither side's first pair starts colder.
 */
export async function interleavedLoads(
  load: (url: string) => Promise<Load>,
  ours: string,
  reference: string,
  runs: number,
): Promise<[Load[], Load[]]> {
  await load(ours);
  await load(reference);
  const [o, r]: [Load[], Load[]] = [[], []];
  for (let i = 0; i < runs; i++)
    for (const url of i % 2 === 0 ? [ours, reference] : [reference, ours])
      (url === ours ? o : r).push(await load(url));
  return [o, r];
}
