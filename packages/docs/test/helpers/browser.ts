/**
 * How the site's browser tests start: the built site served on 127.0.0.1 and one Chromium context
 * to read it, with the same viewport and waits for every test file.
 */
import { mkdir } from "node:fs/promises";
import { type ChromiumContext, chromiumPath, launchChromiumContext } from "@drill-practice/tooling/chromium";
import type { Page } from "playwright-core";
import { declareMissing } from "../../../../scripts/test-requirements.js";
import { type StaticServer, startStaticServer } from "../../src/static-server.ts";
import { assertSiteBuilt, distDir, screenshotDir } from "./site.ts";

/**
 * Debian's Chromium for a browser test file, declared missing when it is not there: the file's tests
 * then skip locally with a boxed warning and fail under CI=true.
 */
export function chromiumFor(suite: string): { path: string; found: boolean } {
  const chromium = chromiumPath();
  declareMissing(
    suite,
    chromium.found
      ? undefined
      : `no Chromium at ${chromium.path} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
  return chromium;
}

/** The served site and the browser reading it; `close` ends both. */
export interface SiteInChromium {
  readonly server: StaticServer;
  readonly browser: ChromiumContext;
  close(): Promise<void>;
}

/** Serves `dist/` on a free port and opens a 1280×900 Chromium context (for a `beforeAll`). */
export async function openSiteInChromium(executablePath: string): Promise<SiteInChromium> {
  assertSiteBuilt();
  await mkdir(screenshotDir, { recursive: true });
  const server = await startStaticServer({ root: distDir, port: 0 });
  let browser: ChromiumContext;
  try {
    browser = await launchChromiumContext({
      executablePath,
      timeoutMs: 60_000,
      viewport: { width: 1280, height: 900 },
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  browser.context.setDefaultTimeout(15_000);
  browser.context.setDefaultNavigationTimeout(30_000);
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Adds a tab's console errors and uncaught exceptions to `errors`, which a test expects to stay empty. */
export function collectPageErrors(page: Page, errors: string[]): void {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => {
    errors.push(`exception: ${error.message}`);
  });
}
