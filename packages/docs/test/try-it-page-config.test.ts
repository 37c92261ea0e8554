/**
 * What the build puts into a reference page for Try it (`addTryIt`): the page's URLs as JSON right
 * before the marked loader, found again (and taken out) by those marks alone, whatever esbuild's
 * minified output looks like.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { addTryIt, buildLoader, type TryItScripts } from "../src/try-it/bundle.ts";
import { readTryItPage, withoutTryIt } from "../src/try-it/page-config.ts";

const outDir = scratchDirForAll("drill-docs-try-it-page-");
const scripts: TryItScripts = {
  panel: "assets/try-it.0123456789abcdef.js",
  worker: "assets/try-it-sandbox.fedcba9876543210.js",
  loader: "",
  files: [],
};
const page = '<!DOCTYPE html><html><head></head><body><div id="redoc"></div></body></html>\n';
const configElement = /<script type="application\/json" id="try-it-page">(.*?)<\/script/is;
const loaderElement = /<script type="module" data-try-it-loader>(.+?)<\/script>/s;

/** The reference page `v2.1/index.html` with Try it added, its URLs leading up by `rootPrefix`. */
function withTryIt(rootPrefix: string) {
  return addTryIt(outDir(), "v2.1", page, [], scripts, rootPrefix);
}

beforeAll(async () => {
  await mkdir(join(outDir(), "assets"));
  // The loader as the build makes it, so the checks below see its real code.
  scripts.loader = await buildLoader();
});

describe("the page's Try it configuration", () => {
  it("names the panel, the table and the worker in JSON right before the marked loader, before </body>", async () => {
    const { html, table } = await withTryIt("../");
    const configured = readTryItPage(html, "v2.1/index.html");
    expect(configured).toEqual({
      panel: "../assets/try-it.0123456789abcdef.js",
      config: { operations: `../${table}`, worker: "../assets/try-it-sandbox.fedcba9876543210.js" },
    });
    // Resolved against the page, the table's URL leads to the table the build wrote.
    await expect(readFile(join(outDir(), "v2.1", configured.config.operations), "utf8")).resolves.toBe("[]");
    expect(html).toMatch(
      /<script type="application\/json" id="try-it-page">[^<]+<\/script>\n<script type="module" data-try-it-loader>.+<\/script>\n<\/body>/s,
    );
  });

  it("leaves the loader the same on every page: the URLs are in the configuration only", async () => {
    const [near, far] = await Promise.all([withTryIt("../"), withTryIt("../../")]);
    const loader = loaderElement.exec(near.html)?.[1];
    expect(loader).toBeDefined();
    expect(loaderElement.exec(far.html)?.[1]).toBe(loader);
    expect(loader).not.toContain("assets/");
  });

  it("keeps a </script> or <!-- in a URL from ending or hiding the element", async () => {
    const { html, table } = await withTryIt("../</script><!--<script>/");
    // An HTML parser ends a script's text at its first `</script`; none may come before the JSON's end.
    const text = configElement.exec(html)?.[1] ?? "";
    expect(text).not.toContain("<");
    expect(JSON.parse(text)).toEqual({
      panel: "../</script><!--<script>/assets/try-it.0123456789abcdef.js",
      config: {
        operations: `../</script><!--<script>/${table}`,
        worker: "../</script><!--<script>/assets/try-it-sandbox.fedcba9876543210.js",
      },
    });
  });

  it("comes out with the loader, leaving the page as it was before", async () => {
    const { html } = await withTryIt("../");
    expect(withoutTryIt(html, "v2.1/index.html")).toBe(page);
  });

  it("is missed loudly, so a reader never takes a page without the panel for one with it", async () => {
    expect(() => readTryItPage(page, "v2.1/index.html")).toThrow(/^v2\.1\/index\.html has no .*try-it-page/);
    expect(() => withoutTryIt(page, "v2.1/index.html")).toThrow(/^v2\.1\/index\.html has no /);
    // The configuration alone is not the panel either.
    const { html } = await withTryIt("../");
    const configOnly = html.replace(loaderElement, "");
    expect(() => withoutTryIt(configOnly, "v2.1/index.html")).toThrow(/has no .*data-try-it-loader/);
  });
});
