/**
 * The one Chromium every browser test and benchmark drives: Debian's (or `CHROMIUM_PATH`), never a
 * downloaded one, started headless with everything that could phone home switched off.
 *
 * @example
 * ```ts
 * import { chromiumPath, launchChromium } from "@drill-practice/tooling/chromium";
 *
 * // A browser test that cannot find Chromium says so instead of downloading one.
 * if (chromiumPath().found) {
 *   const browser = await launchChromium({ timeoutMs: 60_000 });
 *   await browser.close();
 * }
 * ```
 */
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { makeScratchDir, removeScratchDir } from "./scratch.js";

/**
 * Where Chromium is (`CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`) and whether it is there.
 *
 * @example
 * ```ts
 * import { chromiumPath } from "@drill-practice/tooling/chromium";
 *
 * const { path, found } = chromiumPath();
 * if (!found) console.warn(`no Chromium at ${path} (apt-get install chromium, or set CHROMIUM_PATH)`);
 * ```
 */
export function chromiumPath(): { path: string; found: boolean } {
  const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  return { path, found: existsSync(path) };
}

/**
 * The flags Chromium is launched with: headless, and offline from everything but the pages under test.
 *
 * @example
 * ```ts
 * import { spawn } from "node:child_process";
 * import { CHROMIUM_FLAGS, chromiumPath } from "@drill-practice/tooling/chromium";
 *
 * // Chromium started without Playwright keeps the same flags.
 * spawn(chromiumPath().path, [...CHROMIUM_FLAGS, "--dump-dom", "about:blank"], { stdio: "inherit" });
 * ```
 */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Chromium 15x's headless mode loads the omnibox popup (a WebUI page in a renderer of its own)
  // for every new browser context: about a second of CPU that runs alongside the page under test
  // and, on a small machine, takes turns with it at random. Nothing here uses the omnibox.
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
] as const;

/**
 * Where to find Chromium and how long its start may take.
 *
 * @example
 * ```ts
 * import { type ChromiumLaunch, launchChromium } from "@drill-practice/tooling/chromium";
 *
 * const launch: ChromiumLaunch = { timeoutMs: process.env.CI ? 120_000 : 60_000 };
 * const browser = await launchChromium(launch);
 * await browser.close();
 * ```
 */
export interface ChromiumLaunch {
  /** Defaults to {@link chromiumPath}. */
  readonly executablePath?: string;
  readonly timeoutMs: number;
}

/**
 * A headless Chromium with the shared flags and no profile kept; close it with `browser.close()`.
 *
 * @example
 * ```ts
 * import { launchChromium } from "@drill-practice/tooling/chromium";
 *
 * const browser = await launchChromium({ timeoutMs: 60_000 });
 * try {
 *   const page = await browser.newPage();
 *   await page.goto("about:blank");
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
export function launchChromium(options: ChromiumLaunch): Promise<Browser> {
  return chromium.launch({
    executablePath: options.executablePath ?? chromiumPath().path,
    headless: true,
    timeout: options.timeoutMs,
    args: [...CHROMIUM_FLAGS],
  });
}

/**
 * A Chromium context in a throw-away profile folder; `close` ends the browser and removes the folder.
 *
 * @example
 * ```ts
 * import { type ChromiumContext, launchChromiumContext } from "@drill-practice/tooling/chromium";
 *
 * async function titleOf(browser: ChromiumContext, url: string): Promise<string> {
 *   const page = await browser.context.newPage();
 *   await page.goto(url);
 *   return page.title();
 * }
 * const browser = await launchChromiumContext({ timeoutMs: 60_000 });
 * try {
 *   console.log(await titleOf(browser, "about:blank"));
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
export interface ChromiumContext {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A headless Chromium in a fresh profile folder (the persistent kind of context, which some
 * browser features need, such as service workers across reloads).
 *
 * @example
 * ```ts
 * import { launchChromiumContext } from "@drill-practice/tooling/chromium";
 *
 * const browser = await launchChromiumContext({ timeoutMs: 60_000, viewport: { width: 1280, height: 900 } });
 * try {
 *   const page = await browser.context.newPage();
 *   await page.goto("about:blank");
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
export async function launchChromiumContext(
  options: ChromiumLaunch & { readonly viewport?: { width: number; height: number } },
): Promise<ChromiumContext> {
  const profile = await makeScratchDir("drill-chromium-profile-");
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: options.executablePath ?? chromiumPath().path,
      headless: true,
      timeout: options.timeoutMs,
      args: [...CHROMIUM_FLAGS],
      ...(options.viewport === undefined ? {} : { viewport: options.viewport }),
    });
    return {
      context,
      close: async () => {
        await context.close();
        await removeScratchDir(profile);
      },
    };
  } catch (error) {
    await removeScratchDir(profile);
    throw error;
  }
}
