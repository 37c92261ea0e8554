/**
 * The built site in a real browser: Debian's Chromium driven by playwright-core, against
 * `dist/` served on 127.0.0.1. Every request any page makes is recorded; one that leaves the
 * local origin fails the test. Screenshots land in `screenshots/` for review.
 */
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, type OpenApiDocument } from "../src/openapi-document.ts";
import { sandboxLead, undocumentedLead } from "../src/operation-notes.ts";
import { type ApiVersion, apiVersions } from "../src/site-header.ts";
import {
  chromiumFor,
  collectPageErrors,
  openSiteInChromium,
  type SiteInChromium,
} from "./helpers/browser.ts";
import { loadBundle, operationIds, screenshotDir, sitePages } from "./helpers/site.ts";

const chromium = chromiumFor("docs browser tests");

const storeSearchParameters = ["query", "searchField", "catalog", "resultStart", "resultSize"];

/**
 * The references whose walks below go through the store search. API 2.1.1 has no store page (the
 * spec README's "2.1 operations without a 2.1.1 page"): the walks that need no store (axe, phone,
 * wide samples) open its group search instead.
 */
const storeVersions = apiVersions.filter((version) => version.id !== "2.1.1");

/** The operation a walk opens in a reference: the store search, or 2.1.1's group search. */
function walked(version: ApiVersion): { tag: string; operationId: string; term: string } {
  const [tag, name] = storeVersions.includes(version) ? ["store", "searchStore"] : ["groups", "searchGroups"];
  return { tag, operationId: `${name}_v${version.id.replaceAll(".", "_")}`, term: tag };
}

/** The walked operation of a version, as Redoc addresses it: `v2.1-store/searchstore_v2_1`. */
function operationSlug(version: ApiVersion): string {
  const { tag, operationId } = walked(version);
  return `${version.dir}-${tag}/${operationId.toLowerCase()}`;
}

/** What one page load did: requests, console errors, uncaught exceptions. */
interface Recording {
  requests: string[];
  errors: string[];
}

describe.runIf(chromium.found)("docs site in Chromium", () => {
  let site: SiteInChromium;
  let origin: string;
  const bundles = new Map<string, OpenApiDocument>();
  // Every request of every page, across the whole run.
  const allRequests: string[] = [];

  beforeAll(async () => {
    for (const version of apiVersions) bundles.set(version.id, await loadBundle(version));
    site = await openSiteInChromium(chromium.path);
    origin = new URL(site.server.url).origin;
    site.browser.context.on("request", (request) => {
      allRequests.push(request.url());
    });
  }, 90_000);

  afterAll(() => site?.close());

  function isLocal(url: string): boolean {
    if (url.startsWith("data:")) return true;
    // blob: URLs carry the origin that created them.
    return new URL(url.startsWith("blob:") ? url.slice(5) : url).origin === origin;
  }

  /** Opens a page with recording switched on; the caller closes it. */
  async function open(path: string): Promise<{ page: Page; recording: Recording }> {
    const page = await site.browser.context.newPage();
    const recording: Recording = { requests: [], errors: [] };
    page.on("request", (request) => {
      recording.requests.push(request.url());
    });
    collectPageErrors(page, recording.errors);
    page.on("requestfailed", (request) => {
      const reason = request.failure()?.errorText ?? "";
      // Redoc loads its search worker from a blob: URL of the page itself; leaving the page before
      // that load ends aborts it, which no reader sees. Any other failure counts.
      // The same holds for the Try it panel's modules, prefetched while the page is idle.
      const prefetched =
        request.url().startsWith("blob:") || new URL(request.url()).pathname.includes("/try-it-");
      if (prefetched && reason === "net::ERR_ABORTED") return;
      recording.errors.push(`failed: ${request.url()} ${reason}`);
    });
    const response = await page.goto(new URL(path, site.server.url).href, { waitUntil: "load" });
    expect(response?.status(), path).toBe(200);
    return { page, recording };
  }

  async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
    // A string, because these tests are typed for Node and the page's globals are not.
    await page.waitForFunction("Array.from(document.images).every((image) => image.complete)");
    // A very tall page (the changes page since 2.1.1 came in) takes longer to capture whole than a
    // test may wait on a loaded machine: its first screens show the same.
    const height = Number(await page.evaluate("document.documentElement.scrollHeight"));
    await page.screenshot({
      path: join(screenshotDir, `${name}.png`),
      fullPage: fullPage && height <= 12_000,
      animations: "disabled",
    });
  }

  /**
   * Redoc hydrates after load and only then answers clicks. The side bar's credit image is
   * mounted by a client-side effect, so its presence tells that hydration is done.
   */
  async function waitForReference(page: Page): Promise<void> {
    await page.locator(".menu-content [data-testid=search-trigger]").waitFor({ state: "visible" });
    await page.locator(".menu-item-type-group > a").first().waitFor({ state: "visible" });
    await page.locator('.menu-content img[alt="redocly logo"]').waitFor({ state: "visible" });
  }

  /**
   * Collects the operations listed in the side menu. Redoc shows the operations of one tag at
   * a time, so each tag is opened in turn (bounded by the number of tags).
   */
  async function menuOperations(
    page: Page,
  ): Promise<{ hrefs: Set<string>; groups: string[]; tags: string[] }> {
    const tags = page.locator(".menu-item-type-group > a");
    const count = await tags.count();
    expect(count).toBeLessThanOrEqual(50);
    const hrefs = new Set<string>();
    for (let index = 0; index < count; index++) {
      const tag = tags.nth(index);
      const tagHref = await tag.getAttribute("href");
      await tag.click();
      const items = page.locator(`.menu-item-type-operation a[href^="${tagHref?.replace(/^\//, "#/")}/"]`);
      await items.first().waitFor({ state: "visible" });
      for (const href of await items.evaluateAll((links) =>
        links.map((link) => link.getAttribute("href") ?? ""),
      )) {
        hrefs.add(href);
      }
    }
    const groups = await page.locator(".menu-item-type-separator").allTextContents();
    const tagLabels = await tags.allTextContents();
    return { hrefs, groups: groups.map((text) => text.trim()), tags: tagLabels.map((text) => text.trim()) };
  }

  function displayNames(bundle: OpenApiDocument): string[] {
    const names = new Map(bundle.tags?.map((tag) => [tag.name, String(tag["x-displayName"] ?? tag.name)]));
    return (bundle["x-tagGroups"] ?? []).flatMap((group) => group.tags.map((tag) => names.get(tag) ?? tag));
  }

  it.each(sitePages)(
    "$path loads without console errors and without requests off the local origin",
    async ({ name, path }) => {
      const { page, recording } = await open(path);
      if (path.includes("/")) await waitForReference(page);
      await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
      await screenshot(page, name, !path.includes("/"));
      expect(recording.errors).toEqual([]);
      expect(recording.requests.length).toBeGreaterThan(0);
      expect(recording.requests.filter((url) => !isLocal(url))).toEqual([]);
      await expect(page.title()).resolves.toMatch(/Drill Practice API/);
      await expect(page.locator(".site-header .version-switch a").count()).resolves.toBe(apiVersions.length);
      await page.close();
    },
    90_000,
  );

  describe.each(apiVersions)("reference $id", (version: ApiVersion) => {
    it("lists every operation of this version in the side menu, grouped as the bundle says, and none of the other", async () => {
      const bundle = bundles.get(version.id) as OpenApiDocument;
      const { page, recording } = await open(`${version.dir}/index.html`);
      await waitForReference(page);
      const { hrefs, groups, tags } = await menuOperations(page);

      const ids = operationIds(bundle);
      const listed = [...hrefs].map((href) => href.split("/").pop() ?? "");
      expect(hrefs.size).toBe(listOperations(bundle).length);
      expect(listed.sort()).toEqual(ids.map((id) => id.toLowerCase()).sort());

      const others = apiVersions.filter((other) => other.id !== version.id);
      for (const other of others) {
        const shared = new Set(ids);
        const foreign = operationIds(bundles.get(other.id) as OpenApiDocument).filter(
          (id) => !shared.has(id),
        );
        expect(foreign.length).toBeGreaterThan(0);
        expect(listed.filter((slug) => foreign.some((id) => id.toLowerCase() === slug))).toEqual([]);
      }

      expect(groups).toEqual((bundle["x-tagGroups"] ?? []).map((group) => group.name));
      expect(tags).toEqual(displayNames(bundle));
      expect(recording.errors).toEqual([]);
      await page.close();
    }, 120_000);

    it.runIf(storeVersions.includes(version))(
      'finds the store search by searching for "store" and shows its parameters and note',
      async () => {
        const bundle = bundles.get(version.id) as OpenApiDocument;
        const store = listOperations(bundle).find((entry) => entry.path === `${version.prefix}store`);
        const operationId = store?.operation.operationId;
        expect(operationId).toBe(`searchStore_v${version.id.replace(".", "_")}`);
        const slug = (operationId as string).toLowerCase();

        const { page, recording } = await open(`${version.dir}/index.html`);
        await waitForReference(page);
        await page.locator(".menu-content [data-testid=search-trigger]").click();
        const input = page.getByPlaceholder("Search docs...");
        await input.waitFor({ state: "visible" });
        await input.fill("store");
        const result = page.locator(`[data-component-name="Search/SearchItem"][href$="/${slug}"]`);
        await result.waitFor({ state: "visible" });
        await expect(result.textContent()).resolves.toContain(`${version.prefix}store`);
        // The store search is the first operation found (tags come as `#/<tag>`, operations as
        // `#/<tag>/<operation>`): no operation that merely has the word "store" in its summary outranks it.
        const hrefs = await page
          .locator('[data-component-name="Search/SearchItem"]')
          .evaluateAll((items) => items.map((item) => item.getAttribute("href") ?? ""));
        const operations = hrefs.filter((href) => /#\/[^/]+\/[^/]+$/.test(href));
        expect(operations[0], hrefs.join(", ")).toMatch(new RegExp(`/${slug}$`));
        await screenshot(page, `${version.dir}-search`);
        await result.click();

        await page.waitForURL((url) => url.hash.endsWith(`/${slug}`));
        const section = page.locator(`[data-section-id$="/${slug}"]`).first();
        await section.waitFor({ state: "visible" });
        for (const name of storeSearchParameters) {
          await expect(section.getByText(name, { exact: true }).first().isVisible(), name).resolves.toBe(
            true,
          );
        }
        const note = section.locator(".dp-note-unknown", { hasText: undocumentedLead }).first();
        await expect(note.isVisible()).resolves.toBe(true);
        await screenshot(page, `${version.dir}-store-search`);
        expect(recording.errors).toEqual([]);
        await page.close();
      },
      60_000,
    );
  });

  it("resolves every link of the landing page and the guide", async () => {
    for (const path of [
      "index.html",
      "authentication.html",
      "errors.html",
      "versioning.html",
      "check-integration.html",
      "changes.html",
    ]) {
      const { page } = await open(path);
      const hrefs = await page
        .locator("a[href]")
        .evaluateAll((links) => links.map((link) => (link as unknown as { href: string }).href));
      expect(hrefs.length).toBeGreaterThan(4);
      for (const href of new Set(hrefs)) {
        const url = new URL(href);
        expect(url.origin, `${path} links off-site to ${href}`).toBe(origin);
        const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        expect(response.status, `${path} → ${href}`).toBe(200);
        const body = await response.text();
        if (url.hash.length > 1 && url.pathname.endsWith(".html") && !url.hash.startsWith("#/")) {
          expect(body, `${path} → ${href}: no element with that id`).toContain(`id="${url.hash.slice(1)}"`);
        }
      }
      await page.close();
    }
  }, 60_000);

  it("switches versions from the landing page and between the references", async () => {
    const { page, recording } = await open("index.html");
    const switcher = page.locator(".site-header .version-switch");
    await expect(switcher.locator("[aria-current]").count()).resolves.toBe(0);

    await switcher.getByRole("link", { name: "2.1", exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/v2.1/index.html"));
    await waitForReference(page);
    await expect(switcher.locator('[aria-current="page"]').textContent()).resolves.toBe("2.1");
    await expect(page.locator(".menu-content").textContent()).resolves.toContain("API 2.1");

    await switcher.getByRole("link", { name: "2.0", exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/v2.0/index.html"));
    await waitForReference(page);
    await expect(switcher.locator('[aria-current="page"]').textContent()).resolves.toBe("2.0");
    const firstTag = page.locator(".menu-item-type-group > a").first();
    await firstTag.click();
    const firstOperation = page.locator(".menu-item-type-operation a").first();
    await firstOperation.waitFor({ state: "visible" });
    await expect(firstOperation.getAttribute("href")).resolves.toMatch(/_v2_0$/);

    await page.locator(".site-header .site-nav").getByRole("link", { name: "Authentication" }).click();
    await page.waitForURL((url) => url.pathname.endsWith("/authentication.html"));
    await expect(page.locator("h1").textContent()).resolves.toBe("Authentication");
    expect(recording.errors).toEqual([]);
    await page.close();
  }, 60_000);

  /** Opens a reference at one operation, hydrated, with its section in view. */
  async function openOperation(page: Page, version: ApiVersion, slug: string): Promise<void> {
    await page.goto(new URL(`${version.dir}/index.html#/${slug}`, site.server.url).href, {
      waitUntil: "load",
    });
    await waitForReference(page);
    await page
      .locator(`[data-section-id$="${slug.split("/").pop()}"]`)
      .first()
      .waitFor({ state: "visible" });
  }

  it.each(storeVersions)(
    "reference $id shows the store search with its TypeScript and curl samples",
    async (version) => {
      const slug = `${version.dir}-store/searchstore_v${version.id.replace(".", "_")}`;
      const page = await site.browser.context.newPage();
      await openOperation(page, version, slug);
      const section = page
        .locator(`[data-section-id$="/searchstore_v${version.id.replace(".", "_")}"]`)
        .first();
      const samples = section.locator(".panel-request-samples");
      // Redoc remembers the last language picked, so start from whichever is showing.
      const typescript = `client.GET("${version.prefix}store"`;
      const curl = "npx -p @drill-practice/auth drill-token";
      const shownFirst = (await samples.textContent()) ?? "";
      const startsWithTs = shownFirst.includes(typescript);
      expect(startsWithTs || shownFirst.includes(curl), shownFirst).toBe(true);
      await expect(section.locator(".dp-note-sandbox").textContent()).resolves.toContain(sandboxLead);
      await screenshot(page, `${version.dir}-store-search-samples`);
      await samples.locator('[data-component-name="Dropdown/Dropdown"] > button').last().click();
      await page.getByRole("menuitem", { name: startsWithTs ? "curl" : "TypeScript" }).click();
      await expect(samples.textContent()).resolves.toContain(startsWithTs ? curl : "createDrillClient");
      await page.close();
    },
    60_000,
  );

  /**
   * What a reader sees of each error answer: opens every operation in `slugs` as a link to it does,
   * clicks each of its response status tabs in turn, and reads the Responses block (its text and its
   * code spans) and the response sample beside it. Redoc 3 renders an operation only once it is
   * navigated or scrolled to (the others are empty placeholders) and, of its answers, only the
   * selected status tab (the success, until the reader clicks another), so no single read of the page
   * holds the error answers; that is why reading the page's text missed them. Clicking in one
   * evaluate keeps the few hundred clicks of a reference to one round trip.
   */
  const readErrorAnswers = (slugs: string[]) => `(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const until = async (what, ready) => {
      const start = performance.now();
      for (let value = ready(); !value; value = ready()) {
        if (performance.now() - start > 10000) throw new Error(what);
        await frame();
      }
    };
    const shown = {};
    for (const slug of ${JSON.stringify(slugs)}) {
      location.hash = "#/" + slug;
      const selector = '[data-section-id$="/' + slug.split("/")[1] + '"] [data-response-codes-tablist]';
      await until(slug + ": no response status tabs rendered", () => document.querySelector(selector));
      const tablist = document.querySelector(selector);
      const section = tablist.closest("[data-section-id]");
      // The heading with the tabs, and beside it the selected answer.
      const block = tablist.closest('[id$="/responses"]').parentElement;
      const answers = {};
      for (const tab of tablist.querySelectorAll("[role=tab]")) {
        const code = tab.textContent.trim();
        tab.click();
        // Selected, and no part of the answer shown before it left (its parts carry the code in their id).
        await until(slug + ": the " + code + " tab did not open", () =>
          tab.getAttribute("aria-selected") === "true" &&
          Array.from(block.querySelectorAll("[id*='/response&c=']")).every((part) =>
            part.id.includes("/response&c=" + code.toLowerCase() + "/")));
        const sample = section.querySelector(".panel-response-samples");
        answers[code] = {
          text: block.textContent.slice(tablist.textContent.length),
          codes: Array.from(block.querySelectorAll("code")).map((span) => span.textContent.trim()),
          sample: sample ? sample.textContent : "",
        };
      }
      shown[slug] = answers;
    }
    return shown;
  })()`;

  it.each(apiVersions)(
    "reference $id shows, under each error status tab, that status's identifiers and an example built from one",
    async (version) => {
      const bundle = bundles.get(version.id) as OpenApiDocument;
      const tables = listOperations(bundle).flatMap(({ operation }) => {
        const table = operation["x-errors"] as { ids: { id: string; status?: number }[] } | undefined;
        const tag = operation.tags?.[0];
        if (table === undefined || tag === undefined || operation.operationId === undefined) return [];
        return [{ slug: `${tag}/${operation.operationId.toLowerCase()}`, ids: table.ids }];
      });
      expect(tables.length).toBeGreaterThan(20);
      const page = await site.browser.context.newPage();
      await openOperation(page, version, tables[0]?.slug as string);
      const shown = (await page.evaluate(readErrorAnswers(tables.map(({ slug }) => slug)))) as Record<
        string,
        Record<string, { text: string; codes: string[]; sample: string }>
      >;
      const missing: string[] = [];
      for (const { slug, ids } of tables) {
        const answers = shown[slug] ?? {};
        // Identifiers the page lists without a status code are under the catch-all answer.
        const tabOf = (status?: number) => (status === undefined ? "default" : String(status));
        for (const { id, status } of ids) {
          if (!answers[tabOf(status)]?.codes.includes(id))
            missing.push(`${slug}: ${id} under ${tabOf(status)}`);
        }
        for (const [tab, { text, sample }] of Object.entries(answers)) {
          // The shared answer's generic text stays off pages that have their own.
          if (text.includes("Which errors this operation has"))
            missing.push(`${slug}: generic text under ${tab}`);
          const own = ids.filter(({ status }) => tabOf(status) === tab).map(({ id }) => id);
          const pool = own.length > 0 ? own : tab === "default" ? ids.map(({ id }) => id) : [];
          if (pool.length > 0 && !pool.some((id) => sample.includes(`"${id}"`)))
            missing.push(`${slug}: the ${tab} example names none of ${pool.join(", ")}`);
        }
      }
      expect(missing).toEqual([]);
      await screenshot(page, `${version.dir}-error-answers`);
      await page.close();
    },
    300_000,
  );

  it("an operation the interface barely describes says so once, with its sandbox support", async () => {
    const version = apiVersions.find((v) => v.id === "2.1") as ApiVersion;
    const page = await site.browser.context.newPage();
    await openOperation(page, version, "v2.1-content/getdrilltags_v2_1");
    const section = page.locator('[data-section-id$="/getdrilltags_v2_1"]').first();
    const text = (await section.textContent()) ?? "";
    expect(text.split(undocumentedLead)).toHaveLength(2);
    expect(text).toContain("501");
    expect(text).not.toMatch(/x-undocumented|function not given|No request payload/);
    await screenshot(page, "v2.1-unknown-operation");
    await page.close();
  }, 60_000);

  it.each(storeVersions)(
    "reference $id: searching an operation's own summary lists it first",
    async (version) => {
      const page = await site.browser.context.newPage();
      await page.goto(new URL(`${version.dir}/index.html`, site.server.url).href);
      await waitForReference(page);
      await page.locator(".menu-content [data-testid=search-trigger]").click();
      const input = page.getByPlaceholder("Search docs...");
      await input.fill("Search the store");
      const first = page
        .locator('[data-component-name="Search/SearchItem"][href*="/"]')
        .filter({ hasText: "/" })
        .first();
      await first.waitFor({ state: "visible" });
      await expect(first.getAttribute("href")).resolves.toMatch(/\/searchstore_v2_[01]$/);
      await page.close();
    },
    60_000,
  );

  it("group links work when opened on their own, as in a new tab", async () => {
    const version = apiVersions.find((v) => v.id === "2.1") as ApiVersion;
    const page = await site.browser.context.newPage();
    await page.goto(new URL(`${version.dir}/index.html`, site.server.url).href);
    await waitForReference(page);
    const hrefs = await page
      .locator(".menu-item-type-group > a")
      .evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThan(3);
    for (const href of hrefs) {
      const response = await fetch(new URL(href, site.server.url), { signal: AbortSignal.timeout(5_000) });
      expect(response.status, href).toBe(200);
    }
    const store = hrefs.find((href) => href.endsWith("-store")) as string;
    await page.goto(new URL(store, site.server.url).href);
    await page.waitForURL(
      (url) => url.pathname.endsWith(`/${version.dir}/index.html`) && url.hash === `#${store}`,
    );
    await waitForReference(page);
    await page.close();
  }, 60_000);

  /** Every page; the references with an operation open, and again with their search showing results. */
  const axePages = [
    ...sitePages
      .filter((page) => !page.path.includes("/"))
      .map((page) => ({
        name: page.name === "index" ? "landing" : page.name,
        path: page.path,
        search: false,
        term: "",
      })),
    ...apiVersions.flatMap((version) => {
      const path = `${version.dir}/index.html#/${operationSlug(version)}`;
      return [
        { name: `${version.dir}-operation`, path, search: false, term: walked(version).term },
        { name: `${version.dir}-operation-search`, path, search: true, term: walked(version).term },
      ];
    }),
  ];

  for (const mode of ["light", "dark"] as const) {
    it.each(axePages)(
      `$name in ${mode} mode: axe finds no serious or critical violation`,
      async ({ name, path, search, term }) => {
        const page = await site.browser.context.newPage();
        await page.emulateMedia({ colorScheme: mode });
        await page.goto(new URL(path, site.server.url).href);
        if (path.includes("#")) await waitForReference(page);
        if (search) {
          await page.locator(".menu-content [data-testid=search-trigger]").click();
          const input = page.getByPlaceholder("Search docs...");
          await input.fill(term);
          await page
            .locator('[data-component-name="Search/SearchItem"]')
            .first()
            .waitFor({ state: "visible" });
        }
        await expect(page.evaluate("document.documentElement.classList.contains('dark')")).resolves.toBe(
          mode === "dark",
        );
        // The colour behind the middle of the page: Redoc paints its panels, the guides their body.
        const background = await page.evaluate(`(() => {
        let e = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
        while (e && getComputedStyle(e).backgroundColor === "rgba(0, 0, 0, 0)") e = e.parentElement;
        return e ? getComputedStyle(e).backgroundColor : "rgb(255, 255, 255)";
      })()`);
        const [r = 0, g = 0, b = 0] = String(background).match(/\d+/g)?.map(Number) ?? [];
        // Dark mode on every page: a dark body, not only inside Redoc (behind the search, its overlay).
        if (!search)
          expect((r + g + b) / 3 < 100, `${name} ${mode} background ${background}`).toBe(mode === "dark");
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations
          .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
          .map(
            (violation) =>
              `${violation.id} ×${violation.nodes.length}: ${violation.nodes[0]?.html.slice(0, 120)}`,
          );
        expect(bad).toEqual([]);
        if (mode === "dark" || search) await screenshot(page, `${name}-${mode}`);
        await page.close();
      },
      // axe's time grows with the page: the Changes page lists every unreleased change.
      180_000,
    );
  }

  /** Every page on a phone; a reference with its walked operation open (samples included). */
  const phonePages = sitePages.map((page) => {
    const version = apiVersions.find((v) => page.path.startsWith(`${v.dir}/`));
    return version
      ? { name: `phone-${page.name}`, path: `${page.path}#/${operationSlug(version)}`, version }
      : { name: `phone-${page.name === "index" ? "landing" : page.name}`, path: page.path, version };
  });

  /** The walked operation's section of a reference page, as Redoc renders it. */
  function walkedSection(page: Page, version: ApiVersion): Locator {
    return page.locator(`[data-section-id$="/${operationSlug(version).split("/")[1]}"]`).first();
  }

  /**
   * Opens a page at 390×844. On a phone Redoc folds its menu away, so a reference is ready when its
   * walked operation shows; that section comes back with it.
   */
  async function openOnPhone(
    path: string,
    version: ApiVersion | undefined,
  ): Promise<{ page: Page; section?: Locator }> {
    const page = await site.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(new URL(path, site.server.url).href);
    if (!version) return { page };
    const section = walkedSection(page, version);
    await section.waitFor({ state: "visible" });
    return { page, section };
  }

  it.each(phonePages)(
    "$name: at 390×844 the header fits, nothing overlaps it and the menu button is in it",
    async ({ name, path, version }) => {
      const { page } = await openOnPhone(path, version);
      await page.evaluate("window.scrollTo(0, 0)");
      // On a reference, Redoc's menu button counts as part of the header: it must sit inside it.
      const boxes =
        await page.evaluate(`Array.from(document.querySelectorAll(".site-header a, .site-header button, [data-testid=floating-button]")).map((el) => {
      const r = el.getBoundingClientRect(); return { text: el.textContent || el.getAttribute("aria-label"), left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    })`);
      const list = boxes as { text: string; left: number; right: number; top: number; bottom: number }[];
      const guides = ["Overview", "Authentication", "Errors", "Versions", "Changes"];
      expect(list.filter((box) => guides.includes(box.text.trim())).map((box) => box.text.trim())).toEqual(
        guides,
      );
      // Every link of the header, the guides' last one ("Changes") included, stays on screen with room to
      // the edge: no link hides behind a sideways scroll without a hint.
      for (const box of list) {
        expect(box.left, box.text).toBeGreaterThanOrEqual(4);
        expect(box.right, box.text).toBeLessThanOrEqual(386);
      }
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i] as (typeof list)[0];
          const b = list[j] as (typeof list)[0];
          const overlap =
            a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
          expect(overlap, `${a.text} overlaps ${b.text}`).toBe(false);
        }
      }
      if (path.includes("/")) {
        // The menu button stays within the header, so it covers none of the text scrolling under it,
        // and it still opens and closes the menu.
        const header = await page.locator(".site-header").boundingBox();
        const menuButton = page.locator("[data-testid=floating-button]");
        const button = await menuButton.boundingBox();
        expect(header).not.toBeNull();
        expect(button).not.toBeNull();
        if (header !== null && button !== null) {
          expect(button.y).toBeGreaterThanOrEqual(header.y);
          expect(button.y + button.height).toBeLessThanOrEqual(header.y + header.height);
        }
        await menuButton.click();
        await expect(menuButton.getAttribute("aria-expanded")).resolves.toBe("true");
        await page.locator(".menu-content [data-testid=search-trigger]").waitFor({ state: "visible" });
        await screenshot(page, `${name}-menu`);
        await menuButton.click();
        await expect(menuButton.getAttribute("aria-expanded")).resolves.toBe("false");
      }
      await screenshot(page, name);
      await page.close();
    },
    60_000,
  );

  /**
   * Where the page's layout hides or breaks text: how wide the page is next to the screen, words
   * of a table drawn on more than one line (an identifier broken inside a word), and code blocks
   * whose lines run past their box or whose text lies under a button.
   */
  const layoutProblems = `(() => {
    const screen = document.documentElement.clientWidth;
    const pageWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const cell = node.parentElement && node.parentElement.closest("th, td");
      if (!cell || cell.getClientRects().length === 0) continue;
      const head = cell.closest("thead");
      if (head && getComputedStyle(head).position === "absolute") continue;
      for (const word of node.textContent.matchAll(/S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
    const cut = [];
    const covered = [];
    for (const pre of document.querySelectorAll("pre")) {
      if (pre.getClientRects().length === 0) continue;
      if (pre.scrollWidth > pre.clientWidth + 1 || pre.scrollHeight > pre.clientHeight + 1)
        cut.push(pre.textContent.trim().slice(0, 50));
      const code = pre.querySelector("code") || pre;
      const block = pre.closest("[data-component-name='CodeBlock/CodeBlock']") || pre.parentElement;
      for (const button of block.querySelectorAll("button")) {
        // Fold toggles drawn inside a JSON sample belong to the code itself.
        if (pre.contains(button)) continue;
        const b = button.getBoundingClientRect();
        for (const r of code.getClientRects()) {
          if (b.width > 0 && b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom)
            covered.push(pre.textContent.trim().slice(0, 50));
        }
      }
    }
    return { screen, pageWidth, broken, cut, covered: [...new Set(covered)] };
  })()`;

  interface Layout {
    screen: number;
    pageWidth: number;
    broken: string[];
    cut: string[];
    covered: string[];
  }

  it.each(phonePages)(
    "$name: at 390×844 no page is wider than the screen, no word of a table breaks, every sample reads whole",
    async ({ name, path, version }) => {
      const { page, section } = await openOnPhone(path, version);
      if (section) {
        const samples = section.locator(".panel-request-samples");
        await samples.scrollIntoViewIfNeeded();
        await samples.locator("pre").first().waitFor({ state: "visible" });
        await screenshot(page, `${name}-samples`);
      }
      const layout = (await page.evaluate(layoutProblems)) as Layout;
      expect(layout.screen).toBe(390);
      expect(layout.pageWidth, `${name} is wider than the screen`).toBeLessThanOrEqual(layout.screen);
      expect(layout.broken, "words broken across lines in a table").toEqual([]);
      expect(layout.cut, "code blocks with hidden lines").toEqual([]);
      expect(layout.covered, "code under a button").toEqual([]);
      if (!version) await screenshot(page, `${name}-full`, true);
      await page.close();
    },
    60_000,
  );

  it.each(apiVersions)(
    "reference $id at 1400×900: the TypeScript and curl samples read whole, the copy button beside the code",
    async (version) => {
      const page = await site.browser.context.newPage();
      await page.setViewportSize({ width: 1400, height: 900 });
      await openOperation(page, version, operationSlug(version));
      const samples = walkedSection(page, version).locator(".panel-request-samples");
      for (const language of ["TypeScript", "curl"]) {
        const picker = samples.locator('[data-component-name="Dropdown/Dropdown"] > button').last();
        if ((await picker.textContent())?.trim() !== language) {
          await picker.click();
          await page.getByRole("menuitem", { name: language }).click();
        }
        await expect(picker.textContent()).resolves.toBe(language);
        const layout = (await page.evaluate(layoutProblems)) as Layout;
        expect(layout.cut, `${language}: code blocks with hidden lines`).toEqual([]);
        expect(layout.covered, `${language}: code under a button`).toEqual([]);
        // The copy button is still there, above the code.
        const copy = samples.locator('[data-component-name="CodeBlock/CodeBlock"] [data-testid=copy-button]');
        await expect(copy.isVisible()).resolves.toBe(true);
        const button = await copy.boundingBox();
        const code = await samples.locator("pre code").boundingBox();
        expect(button !== null && code !== null && button.y + button.height <= code.y).toBe(true);
        await screenshot(page, `${version.dir}-samples-${language.toLowerCase()}`);
      }
      await page.close();
    },
    60_000,
  );

  it("made no request off the local origin during the whole run", () => {
    expect(allRequests.length).toBeGreaterThan(0);
    expect(allRequests.filter((url) => !isLocal(url))).toEqual([]);
  });
});
