/**
 * The README's list of the built site's pages names every guide the build writes: a new page that
 * the list forgets (as `check-integration.html` was) fails here.
 */
import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

const siteDir = new URL("../site/", import.meta.url);

describe("the docs README", () => {
  it("lists every guide page of site/ in its page list", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const list = readme.slice(0, readme.indexOf("## Commands"));
    // layout.html is the frame every guide is put into, not a page of its own.
    const guides = (await readdir(siteDir)).filter(
      (name) => name.endsWith(".html") && name !== "layout.html",
    );
    expect(guides).toContain("check-integration.html");
    for (const guide of guides) expect(list, guide).toContain(`- \`${guide}\`:`);
  });
});
