/**
 * Runs the browser bundle in a dedicated Web Worker of Debian's headless Chromium. The page is
 * served at the sandbox's own origin (intercepted by the browser driver), so the worker's
 * requests to the sandbox are same-origin and need no CORS; in the in-process case the page's origin
 * is a fake one and the worker sends nothing.
 */
import { readFile } from "node:fs/promises";
import { launchChromium } from "@drill-practice/tooling/chromium";

export interface ChromiumOutcome {
  /** What the worker posted back: the case's report. */
  readonly report: unknown;
  readonly version: string;
  /** Console messages and page errors, for the failure message. */
  readonly log: readonly string[];
}

/** Runs one bundle in a worker of the given Chromium and returns what the worker posted back. */
export async function runInChromium(
  executablePath: string,
  bundleFile: string,
  input: unknown,
  pageOrigin: string,
  timeoutMs: number,
): Promise<ChromiumOutcome> {
  const bundle = await readFile(bundleFile, "utf8");
  // One deadline for the whole case: each step gets what the previous ones left.
  const deadline = performance.now() + timeoutMs;
  const remaining = () => Math.max(1, Math.round(deadline - performance.now()));
  const browser = await launchChromium({ executablePath, timeoutMs: remaining() });
  const log: string[] = [];
  try {
    const version = browser.version();
    const page = await browser.newPage();
    page.on("console", (message) => log.push(`console.${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => log.push(`page error: ${error.message}`));
    const pageUrl = `${pageOrigin}/__runtime-matrix__/`;
    await page.route(pageUrl, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>matrix</title>" }),
    );
    await page.goto(pageUrl, { timeout: remaining() });
    const report = await page.evaluate(
      ({ source, scenarioInput, deadline }) =>
        new Promise<unknown>((resolve, reject) => {
          const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
          const worker = new Worker(url);
          const timer = setTimeout(() => reject(new Error(`no report within ${deadline} ms`)), deadline);
          worker.onmessage = (event) => {
            clearTimeout(timer);
            resolve(event.data);
          };
          worker.onerror = (event) => {
            clearTimeout(timer);
            reject(new Error(`worker error: ${event.message}`));
          };
          worker.postMessage(scenarioInput);
        }),
      { source: bundle, scenarioInput: input, deadline: remaining() },
    );
    return { report, version, log };
  } finally {
    await browser.close();
  }
}
