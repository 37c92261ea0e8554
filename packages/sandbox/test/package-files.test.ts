/**
 * What the published package holds: every file its documentation points readers to must be in it.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** The paths `npm pack` would put into the tarball (scripts off: nothing is built or generated here). */
async function packedFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: packageDir,
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_audit: "false" },
  });
  const [report] = JSON.parse(stdout) as { files: { path: string }[] }[];
  return (report?.files ?? []).map((file) => file.path);
}

describe("published files", () => {
  it("include every package file the README links to and the data files the docs name", {
    timeout: 120_000,
  }, async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const linked = [...readme.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)].map((m) =>
      (m[1] ?? "").replace(/^\.\//, ""),
    );
    expect(linked).toEqual(expect.arrayContaining(["data/FORMAT.md", "data/example.json"]));
    const files = await packedFiles();
    for (const path of [...new Set(linked)])
      expect(files, `${path} is linked from the README`).toContain(path);
  });
});
