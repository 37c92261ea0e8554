import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { ApiVersion } from "../../src/site-header.ts";
import { readTryItPage } from "../../src/try-it/page-config.ts";
import type { TryItOperation } from "../../src/try-it/protocol.ts";
import { distDir } from "./site.ts";

/** The table of operations the build wrote for a reference (named in the page's Try it configuration). */
export async function builtTable(version: ApiVersion): Promise<TryItOperation[]> {
  const page = join(version.dir, "index.html");
  const { config } = readTryItPage(await readFile(join(distDir, page), "utf8"), page);
  const table = await readFile(join(distDir, version.dir, config.operations), "utf8");
  return JSON.parse(table) as TryItOperation[];
}

/** What the panel showed for one Send. */
export interface PanelAnswer {
  status: number;
  verdict: string;
  /** The verdict's sentence as the reader sees it. */
  verdictText: string;
  body: string;
  text: string;
}

/**
 * Moves the reference to an operation (Redoc follows the hash, so the page and its sandbox stay),
 * opens its Try it panel and returns it.
 */
export async function openPanel(page: Page, slug: string) {
  await page.evaluate(`location.hash = ${JSON.stringify(`#/${slug}`)}`);
  const section = page.locator(`[data-section-id$="/${slug}"]`).first();
  const panel = section.locator(".dp-tryit");
  await panel.waitFor({ state: "attached", timeout: 30_000 });
  const toggle = panel.locator(".dp-tryit-toggle");
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  return panel;
}

/**
 * Sends what the panel holds (after `fill`, a field name to its values) and waits for its answer.
 */
export async function sendFrom(
  page: Page,
  slug: string,
  fill: Record<string, string> = {},
  timeout = 30_000,
): Promise<PanelAnswer> {
  const panel = await openPanel(page, slug);
  for (const [name, value] of Object.entries(fill)) {
    await panel.locator(`[data-key$=":${name}"]`).first().fill(value);
  }
  const shown = panel.locator(".dp-tryit-answer");
  const before = (await shown.count()) > 0 ? await shown.getAttribute("data-sent") : null;
  await panel.locator(".dp-tryit-send").click();
  const answer = panel.locator(`.dp-tryit-answer:not([data-sent="${before ?? ""}"])`);
  await answer.waitFor({ state: "attached", timeout });
  return {
    status: Number(await answer.getAttribute("data-status")),
    verdict: (await answer.getAttribute("data-verdict")) ?? "",
    body: (await answer.locator(".dp-tryit-body").textContent()) ?? "",
    text: (await answer.textContent()) ?? "",
    verdictText: (await answer.locator(".dp-tryit-verdict").textContent()) ?? "",
  };
}

/** One step of a flow: an operation, what to fill in, and what its answer must show. */
export interface FlowStep {
  operationId: string;
  /** Fixed values, or values taken from the answers of the steps before (such as an ID a create assigned). */
  fill?: Record<string, string> | ((earlier: readonly PanelAnswer[]) => Record<string, string>);
  check(answer: PanelAnswer): void;
}
