/**
 * The one Chromium every browser test and benchmark drives: Debian's (or `CHROMIUM_PATH`), never a
 * downloaded one, started headless with everything that could phone home switched off.
 */
import { existsSync } from "node:fs";

/**
 * Where Chromium is (`CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`) and whether it is there.
 *
 * @example
 * ```ts
 * import { chromiumPath } from "./chromium.ts";
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
 * import { chromium } from "playwright-core";
 * import { CHROMIUM_FLAGS, chromiumPath } from "./chromium.ts";
 *
 * const browser = await chromium.launch({ executablePath: chromiumPath().path, args: [...CHROMIUM_FLAGS] });
 * await browser.close();
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
