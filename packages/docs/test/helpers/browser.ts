import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium, or `CHROMIUM_PATH`; never a downloaded browser. */
export function chromiumPath(): { path: string; found: boolean } {
  const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  return { path, found: existsSync(path) };
}

/** Headless, and everything that could phone home switched off (also used by `bench/docs-pages.ts`). */
export const chromiumArgs = [
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

/** A headless Chromium with a throw-away profile; `close` removes the profile too. */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts Chromium headless with everything that could phone home switched off, in a fresh
 * profile directory.
 */
export async function launchBrowser(executablePath: string): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), "drill-docs-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
    args: [...chromiumArgs],
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
