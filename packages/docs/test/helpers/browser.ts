import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../../../../scripts/chromium.ts";

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
    args: [...CHROMIUM_FLAGS],
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
