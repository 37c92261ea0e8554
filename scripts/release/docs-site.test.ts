/**
 * The released docs site keeps every release: a new one adds `v<version>/` and becomes `latest/`;
 * rebuilding an older one never takes `latest/` from the newest.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import { addRelease } from "./docs-site.ts";

const scratch = scratchDirForAll("docs-site-");

async function build(name: string, text: string): Promise<string> {
  const dir = join(scratch(), name);
  await mkdir(join(dir, "2.1"), { recursive: true });
  await writeFile(join(dir, "index.html"), text);
  await writeFile(join(dir, "2.1", "index.html"), `${text} 2.1`);
  return dir;
}

describe("addRelease", () => {
  it("keeps earlier releases reachable and points latest/ at the newest", async () => {
    const site = join(scratch(), "site");
    expect(await addRelease({ built: await build("a", "docs 0.2.0"), site, version: "0.2.0" })).toEqual([
      "0.2.0",
    ]);
    expect(await addRelease({ built: await build("b", "docs 0.10.0"), site, version: "0.10.0" })).toEqual([
      "0.10.0",
      "0.2.0",
    ]);
    expect(await readFile(join(site, "v0.2.0/2.1/index.html"), "utf8")).toBe("docs 0.2.0 2.1");
    expect(await readFile(join(site, "latest/index.html"), "utf8")).toBe("docs 0.10.0");
    // A rebuild of the older release replaces its own folder only.
    await addRelease({ built: await build("c", "docs 0.2.0 again"), site, version: "0.2.0" });
    expect(await readFile(join(site, "v0.2.0/index.html"), "utf8")).toBe("docs 0.2.0 again");
    expect(await readFile(join(site, "latest/index.html"), "utf8")).toBe("docs 0.10.0");
    expect(JSON.parse(await readFile(join(site, "versions.json"), "utf8"))).toEqual(["0.10.0", "0.2.0"]);
    const index = await readFile(join(site, "index.html"), "utf8");
    expect(index).toContain('<a href="v0.2.0/">0.2.0</a>');
    expect(index).toContain('url=latest/"');
    expect(existsSync(join(site, ".nojekyll"))).toBe(true);
  });

  it("refuses a version that is not one", async () => {
    await expect(
      addRelease({ built: scratch(), site: join(scratch(), "s2"), version: "latest" }),
    ).rejects.toThrow('--version must be a version such as 1.2.3 (got "latest")');
  });
});
