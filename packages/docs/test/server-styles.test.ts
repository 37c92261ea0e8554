/**
 * The reference pages' server styles keep only the part of Redoc's theme the first paint reaches.
 * The small pages below have the shape of Redoc's output; the browser part compares each built
 * reference, before Redoc's script runs, with and without the whole theme its script injects.
 */
import { launchChromium } from "@drill-practice/tooling/chromium";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneServerStyles } from "../src/server-styles.ts";
import { apiVersions } from "../src/site-header.ts";
import { type StaticServer, startStaticServer } from "../src/static-server.ts";
import { chromiumFor } from "./helpers/browser.ts";
import { assertSiteBuilt, distDir } from "./helpers/site.ts";

/** A page in the shape of Redoc's server output: one component group, then the theme's global group. */
function redocPage(theme: string[], markup: string): string {
  const component =
    '.abc{color:var(--text-color);}/*!sc*/\ndata-styled.g1[id="sc-x"]{content:"abc,"}/*!sc*/\n';
  const global = `${theme.join("/*!sc*/\n")}/*!sc*/\ndata-styled.g2[id="sc-global-y1"]{content:"sc-global-y1,"}/*!sc*/\n`;
  return `<html><head><style data-styled="true" data-styled-version="6.4.2">${component}${global}</style></head><body>${markup}</body></html>`;
}

const styleOf = (html: string) => /<style data-styled="true"[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";

describe("pruneServerStyles", () => {
  it("keeps the custom properties the page refers to, and those they refer to, and drops the rest", () => {
    const html = redocPage(
      [
        ":root{--text-color:var(--grey-9);--grey-9:#111;--page-403-width:680px;--unused-ref:var(--grey-2);--grey-2:#eee;box-sizing:border-box}",
      ],
      '<p class="abc" style="margin:var(--spacing)">x</p>',
    );
    const { html: pruned, droppedProperties } = pruneServerStyles(html);
    const style = styleOf(pruned);
    expect(style).toContain(":root{--text-color:var(--grey-9);--grey-9:#111;box-sizing:border-box}");
    expect(style).not.toContain("--page-403-width");
    expect(style).not.toContain("--grey-2");
    expect(droppedProperties).toBe(3);
  });

  it("drops theme rules below the root whose classes the markup lacks, and keeps the root's own classes", () => {
    const html = redocPage(
      [
        ":root{--tag-color:red;--menu-gap:4px;--dark-ink:#000}",
        ":root .tag-green,:root .tag-blue{--tag-color:var(--menu-gap)}",
        ":root .card-variant-filled{--card-bg:white}",
        ":root.dark{--text-color:var(--dark-ink)}",
        ":root.dark .card-variant-filled{--card-bg:black}",
        ":root *::-webkit-scrollbar{width:6px}",
        "@media (prefers-reduced-motion: reduce){:root{--motion:none}}",
      ],
      '<span class="abc tag-blue">x</span>',
    );
    const { html: pruned, droppedRules } = pruneServerStyles(html);
    const style = styleOf(pruned);
    expect(style).toContain(":root .tag-green,:root .tag-blue{--tag-color:var(--menu-gap)}");
    expect(style).not.toContain("card-variant-filled");
    expect(style).toContain(":root.dark{--text-color:var(--dark-ink)}");
    expect(style).toContain(":root *::-webkit-scrollbar{width:6px}");
    expect(style).toContain("@media (prefers-reduced-motion: reduce){:root{--motion:none}}");
    // Reached through the kept rules: `--menu-gap` by a tag rule, `--dark-ink` by the dark root.
    expect(style).toMatch(/:root\{[^}]*--menu-gap:4px[^}]*--dark-ink:#000/);
    expect(style).not.toMatch(/:root\{[^}]*--tag-color:red/);
    expect(droppedRules).toBe(2);
  });

  it("leaves component rules and every group's marker, which styled-components rehydrates from, as they were", () => {
    const html = redocPage([":root{--text-color:#111;--x:1}"], '<p class="abc">x</p>');
    const style = styleOf(pruneServerStyles(html).html);
    expect(style).toContain(
      '.abc{color:var(--text-color);}/*!sc*/\ndata-styled.g1[id="sc-x"]{content:"abc,"}/*!sc*/',
    );
    expect(style).toContain('data-styled.g2[id="sc-global-y1"]{content:"sc-global-y1,"}/*!sc*/');
  });

  it("reads declarations whose values hold semicolons, in strings or brackets", () => {
    const html = redocPage(
      [':root{--quote:";";--data:url(data:image/svg+xml;utf8,<svg/>);--gone:1;--text-color:#111}'],
      '<p class="abc" style="content:var(--quote);background:var(--data)">x</p>',
    );
    const style = styleOf(pruneServerStyles(html).html);
    expect(style).toContain(
      ':root{--quote:";";--data:url(data:image/svg+xml;utf8,<svg/>);--text-color:#111}',
    );
  });

  it("leaves the rest of the page unchanged", () => {
    const markup = '<p class="abc">$& and $1 stay as written</p><script>var a = "var(--b)";</script>';
    const html = redocPage([":root{--text-color:#111;--b:2;--c:3}"], markup);
    const pruned = pruneServerStyles(html).html;
    expect(pruned).toContain(markup);
    expect(pruned.replace(styleOf(pruned), "")).toBe(html.replace(styleOf(html), ""));
  });

  it("fails, naming the module to check, when Redoc's output has no global group", () => {
    expect(() => pruneServerStyles("<html><head></head><body></body></html>")).toThrow(
      /src\/server-styles\.ts/,
    );
    const componentsOnly =
      '<style data-styled="true">.a{color:red}/*!sc*/\ndata-styled.g1[id="sc-x"]{content:"a,"}/*!sc*/\n</style>';
    expect(() => pruneServerStyles(componentsOnly)).toThrow(
      /no styled-components style tag with a global group/,
    );
  });
});

const chromium = chromiumFor("docs server styles in Chromium");

/** Every element's computed style, custom properties aside: what the reader sees of it. */
const paint = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body, body *")].map((element) => {
      const style = getComputedStyle(element);
      const shown: Record<string, string> = {};
      for (const name of style) if (!name.startsWith("--")) shown[name] = style.getPropertyValue(name);
      return { element: `${element.tagName.toLowerCase()}.${element.getAttribute("class") ?? ""}`, shown };
    }),
  );

type Paint = Awaited<ReturnType<typeof paint>>;

/** The properties that differ between two paints of the same page, element by element (the first 10). */
function differences(before: Paint, after: Paint): string[] {
  const found = before.length === after.length ? [] : [`${before.length} elements, then ${after.length}`];
  before.forEach(({ element, shown }, i) => {
    for (const [name, value] of Object.entries(shown)) {
      const now = after[i]?.shown[name];
      if (now !== value) found.push(`${element} ${name}: ${value} → ${now}`);
    }
  });
  return found.slice(0, 10);
}

describe.runIf(chromium.found)("the built references before Redoc's script runs", () => {
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    assertSiteBuilt();
    server = await startStaticServer({ root: distDir, port: 0 });
    browser = await launchChromium({ executablePath: chromium.path, timeoutMs: 60_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The theme Redoc's script puts on the page when it hydrates: every rule on the root, whole. */
  async function injectedTheme(url: string): Promise<string> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page
      .locator('.menu-content img[alt="redocly logo"]')
      .waitFor({ state: "attached", timeout: 30_000 });
    const theme = await page.evaluate(() =>
      [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText))
        .filter((text) => text.startsWith(":root") || (text.startsWith("@media") && text.includes(":root")))
        .join("\n"),
    );
    await context.close();
    return theme;
  }

  it.each(apiVersions)(
    "API $id paints the same, light and dark, as with the whole theme its script brings",
    async (version) => {
      const url = new URL(`${version.dir}/index.html`, server.url).href;
      const theme = await injectedTheme(url);
      // The script's theme declares what the server copy left out: there is something to compare.
      expect(theme.match(/--page-403-max-width/g)?.length).toBeGreaterThanOrEqual(1);
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      await page.goto(url);
      expect(
        await page.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue("--page-403-max-width"),
        ),
      ).toBe("");
      // Redoc's menu eases its colours in: without this, a paint read mid-way after a change differs.
      await page.evaluate(() => {
        const still = "*,*::before,*::after{transition:none!important;animation:none!important}";
        document.head.append(Object.assign(document.createElement("style"), { textContent: still }));
      });
      for (const mode of ["light", "dark"]) {
        await page.evaluate((m) => document.documentElement.setAttribute("class", m), mode);
        const served = await paint(page);
        expect(served.length).toBeGreaterThan(100);
        await page.evaluate((css) => {
          const style = Object.assign(document.createElement("style"), {
            id: "whole-theme",
            textContent: css,
          });
          document.head.prepend(style);
        }, theme);
        expect(
          await page.evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue("--page-403-max-width"),
          ),
        ).not.toBe("");
        expect(differences(served, await paint(page)), `${mode} mode`).toEqual([]);
        await page.evaluate(() => document.getElementById("whole-theme")?.remove());
      }
      await context.close();
    },
    90_000,
  );
});
