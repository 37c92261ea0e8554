/**
 * `pnpm install` on a fresh clone warns about no build script: every installed dependency that
 * has one (an install script or a native build) is named in `pnpm-workspace.yaml`, as allowed to
 * run it or as skipped, and the Quick start says what the skipped one would have done.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The names listed under one top-level key of pnpm-workspace.yaml (a block list of scalars). */
function listUnder(yaml: string, key: string): string[] {
  const block = new RegExp(`^${key}:\\n((?:[ \\t]*(?:-.*|#.*)?\\n)*)`, "m").exec(yaml)?.[1] ?? "";
  return [...block.matchAll(/^\s*-\s*["']?([^"'\s#]+)/gm)].map((match) => match[1] as string);
}

/** Each installed package (name) that pnpm would build: preinstall, install or postinstall, or a binding.gyp. */
async function packagesWithBuilds(): Promise<string[]> {
  const store = join(root, "node_modules", ".pnpm");
  const found = new Set<string>();
  for (const entry of await readdir(store)) {
    const modules = join(store, entry, "node_modules");
    if (!existsSync(modules)) continue;
    for (const name of await readdir(modules)) {
      const names = name.startsWith("@")
        ? (await readdir(join(modules, name))).map((inner) => `${name}/${inner}`)
        : [name];
      for (const pkg of names) {
        const manifest = join(modules, pkg, "package.json");
        if (!existsSync(manifest)) continue;
        const { scripts = {} } = JSON.parse(await readFile(manifest, "utf8")) as {
          scripts?: Record<string, string>;
        };
        if (
          scripts.preinstall ||
          scripts.install ||
          scripts.postinstall ||
          existsSync(join(modules, pkg, "binding.gyp"))
        )
          found.add(pkg);
      }
    }
  }
  return [...found].sort();
}

describe("pnpm install's build scripts", () => {
  it("are each allowed or skipped by name in pnpm-workspace.yaml, so install does not warn", async () => {
    const yaml = await readFile(join(root, "pnpm-workspace.yaml"), "utf8");
    const allowed = listUnder(yaml, "onlyBuiltDependencies");
    const skipped = listUnder(yaml, "ignoredBuiltDependencies");
    const building = await packagesWithBuilds();
    // The installed tree has some: without them the check below would pass on nothing.
    expect(building).toContain("esbuild");
    expect(building.filter((name) => !allowed.includes(name) && !skipped.includes(name))).toEqual([]);
    // Each name either runs or is skipped, never both.
    expect(allowed.filter((name) => skipped.includes(name))).toEqual([]);
  });

  it("the Quick start says why a skipped script does not matter", async () => {
    const yaml = await readFile(join(root, "pnpm-workspace.yaml"), "utf8");
    const readme = await readFile(join(root, "README.md"), "utf8");
    const quickStart = readme.slice(
      readme.indexOf("## Quick start"),
      readme.indexOf("\n## ", readme.indexOf("## Quick start") + 1),
    );
    for (const name of listUnder(yaml, "ignoredBuiltDependencies"))
      expect(quickStart).toContain(`${name}'s is skipped`);
  });
});
