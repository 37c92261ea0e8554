/**
 * Every shell command of the site and the READMEs that names a package binary runs it one way:
 * `npx -p <package> <bin>`, naming a published workspace package that declares that bin. It works
 * in a reader's npm project (no pnpm needed) and in this repository alike; a bare `npx <bin>` would
 * ask the registry for a package called like the bin. Each use is then dry-run: the workspace's bin with the same
 * arguments plus `--help`, which the CLIs answer only after checking every flag.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { runProcess } from "@drill-practice/tooling/process";
import { beforeAll, describe, expect, it } from "vitest";
import { packageDir } from "../src/build-site.ts";
import {
  type BinaryUse,
  findBinaryUses,
  htmlCodeBlocks,
  markdownShellBlocks,
} from "../src/shell-commands.ts";
import { assertSiteBuilt, builtSamples, distDir } from "./helpers/site.ts";

const repoDir = join(packageDir, "..", "..");

interface WorkspacePackage {
  name: string;
  dir: string;
  private: boolean;
  bins: Record<string, string>;
}

async function workspacePackages(): Promise<WorkspacePackage[]> {
  const root = join(repoDir, "packages");
  const packages: WorkspacePackage[] = [];
  for (const entry of await readdir(root)) {
    const manifest = JSON.parse(await readFile(join(root, entry, "package.json"), "utf8")) as {
      name: string;
      private?: boolean;
      bin?: Record<string, string>;
    };
    packages.push({
      name: manifest.name,
      dir: join(root, entry),
      private: manifest.private === true,
      bins: manifest.bin ?? {},
    });
  }
  return packages;
}

async function runNode(args: string[]): Promise<{ code: number | null; output: string }> {
  const result = await runProcess({
    command: process.execPath,
    args,
    cwd: packageDir,
    env: {},
    timeoutMs: 20_000,
  });
  return { code: result.exitCode, output: result.stdout + result.stderr };
}

describe("shell commands that name a package binary", () => {
  let packages: WorkspacePackage[];
  let uses: BinaryUse[];

  beforeAll(async () => {
    assertSiteBuilt();
    packages = await workspacePackages();
    const bins = packages.flatMap((p) => Object.keys(p.bins));
    expect(bins.sort()).toEqual(["drill-sandbox", "drill-token"]);
    uses = [];
    for (const file of (await readdir(distDir)).filter((f) => f.endsWith(".html"))) {
      for (const block of htmlCodeBlocks(await readFile(join(distDir, file), "utf8")))
        uses.push(...findBinaryUses(block, bins, file));
    }
    for (const sample of await builtSamples()) {
      uses.push(...findBinaryUses(sample.curl, bins, `${sample.version.dir} ${sample.operationId} (curl)`));
    }
    const readmes = [
      "README.md",
      "examples/README.md",
      "spec/README.md",
      ...packages.map((p) => join("packages", p.dir.split("/").pop() as string, "README.md")),
    ];
    for (const readme of readmes) {
      const text = await readFile(join(repoDir, readme), "utf8").catch(() => "");
      for (const block of markdownShellBlocks(text)) uses.push(...findBinaryUses(block, bins, readme));
    }
  });

  it("are found in the guides, the samples and the READMEs", () => {
    const sources = new Set(uses.map((use) => use.source.split(" ")[0]));
    for (const expected of [
      "index.html",
      "authentication.html",
      "v2.1",
      "v2.0",
      "README.md",
      "packages/auth/README.md",
      "packages/sandbox/README.md",
      "examples/README.md",
      "spec/README.md",
    ]) {
      expect(sources.has(expected), expected).toBe(true);
    }
  });

  it("run each binary one way, npx -p with its own package: never pnpm exec, a bare npx or an unqualified name", () => {
    const wrong = uses.filter((use) => {
      if (use.runner.kind !== "npx-p") return true;
      const owner = packages.find((p) => p.name === (use.runner as { pkg: string }).pkg);
      return owner === undefined || owner.private || owner.bins[use.bin] === undefined;
    });
    expect(wrong.map((use) => `${use.source}: ${use.line}`)).toEqual([]);
  });

  it("accept their arguments (dry run with --help)", async () => {
    const seen = new Set<string>();
    const failures: string[] = [];
    for (const use of uses) {
      const key = `${use.bin} ${use.args.join(" ")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const owner = packages.find((p) => p.bins[use.bin] !== undefined) as WorkspacePackage;
      const result = await runNode([join(owner.dir, owner.bins[use.bin] as string), ...use.args, "--help"]);
      if (result.code !== 0 || !result.output.includes(`Usage: ${use.bin}`))
        failures.push(`${use.source}: ${key} → ${result.code} ${result.output.slice(0, 200)}`);
    }
    expect(seen.size).toBeGreaterThan(2);
    expect(failures).toEqual([]);
  }, 120_000);

  it("reject a wrong flag in the same dry run, so the check above can fail", async () => {
    const owner = packages.find((p) => p.bins["drill-sandbox"] !== undefined) as WorkspacePackage;
    const result = await runNode([
      join(owner.dir, owner.bins["drill-sandbox"] as string),
      "--credentials-folder",
      "x",
      "--help",
    ]);
    expect(result.code).not.toBe(0);
  });
});

describe("findBinaryUses", () => {
  const bins = ["drill-sandbox", "drill-token"];
  it("tells how each binary is run and what follows it", () => {
    const uses = findBinaryUses(
      'npx drill-sandbox --port 4010\nTOKEN="$(npx -p @drill-practice/auth drill-token --json)"\n# drill-token in a comment\ndrill-token | jq .',
      bins,
      "x",
    );
    expect(uses.map((use) => [use.bin, use.runner.kind, use.args])).toEqual([
      ["drill-sandbox", "npx", ["--port", "4010"]],
      ["drill-token", "npx-p", ["--json"]],
      ["drill-token", "bare", []],
    ]);
  });

  it("joins continued lines and decodes HTML code blocks", () => {
    const [block] = htmlCodeBlocks(
      '<pre><code>npx -p @drill-practice/sandbox drill-sandbox \\\n  --credentials-dir ./creds &amp;&amp; <span class="comment">x</span></code></pre>',
    );
    const uses = findBinaryUses(block as string, bins, "x");
    expect(uses[0]?.args).toEqual(["--credentials-dir", "./creds"]);
  });
});
