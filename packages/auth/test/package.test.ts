/**
 * Publishing metadata that tools act on: bundlers drop modules listed as side-effect
 * free, and a publish must never ship a stale build.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface Manifest {
  readonly sideEffects?: unknown;
  readonly bin?: Record<string, string>;
  readonly scripts?: Record<string, string>;
}

async function manifest(): Promise<Manifest> {
  return JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as Manifest;
}

describe("package.json", () => {
  it("marks the CLI entry points as having side effects (they run on import)", async () => {
    const { sideEffects, bin } = await manifest();
    expect(Array.isArray(sideEffects)).toBe(true);
    const listed = sideEffects as string[];
    for (const target of Object.values(bin ?? {})) expect(listed).toContain(target);
    expect(listed).toContain("./dist/cli.js");
    // The bin imports exactly the module listed, and the source of that module exists.
    const binText = await readFile(join(packageDir, "bin", "drill-token.js"), "utf8");
    expect(binText).toContain('import "../dist/cli.js";');
    await access(join(packageDir, "src", "cli.ts"));
  });

  it("builds before every publish, but not on pack (tests pack the package)", async () => {
    const { scripts = {} } = await manifest();
    expect(scripts.prepublishOnly).toBe("pnpm run build");
    expect(scripts.prepack).toBeUndefined();
    expect(scripts.prepare).toBeUndefined();
  });
});
