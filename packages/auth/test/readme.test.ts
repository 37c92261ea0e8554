/**
 * The README's TypeScript blocks must compile, each on its own, against the package's
 * source, and its shell examples must not put a token or the client secret on a
 * command line (where `ps` shows it).
 */
import { readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { compileExamples, markdownBlocks } from "@drill-practice/tooling/examples";
import { afterAll, describe, expect, it } from "vitest";
import { USAGE } from "../src/cli-run.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "readme-examples");

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("README", () => {
  it("every ts block compiles on its own against the package source", async () => {
    const examples = markdownBlocks(await readFile(join(packageDir, "README.md"), "utf8"), "ts");
    expect(examples.length).toBeGreaterThanOrEqual(7);
    const source = (path: string) => relative(scratch, join(packageDir, path)).replaceAll("\\", "/");
    const errors = await compileExamples({
      scratch,
      examples,
      compilerOptions: {
        types: ["node"],
        typeRoots: [source("node_modules/@types")],
        paths: {
          "@drill-practice/auth": [source("src/index.ts")],
          "@drill-practice/auth/redis": [source("src/redis/index.ts")],
          "@drill-practice/client": [source("../client/src/index.ts")],
          "@drill-practice/auth/node": [source("src/node.ts")],
          "@drill-practice/client/internal": [source("../client/src/core/index.ts")],
        },
      },
    });
    expect(errors).toBe("");
  }, 120_000);

  it("lists every flag and environment variable of drill-token --help in its flag table", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const table = readme
      .split("\n")
      .filter((line) => line.startsWith("| `-"))
      .join("\n");
    const flags = new Set(USAGE.match(/(?<![\w-])--[a-z][a-z-]+/g));
    const variables = new Set(USAGE.match(/\bDRILL_[A-Z_]+/g));
    expect(flags.size).toBeGreaterThan(10);
    const missing = [...flags, ...variables].filter((name) => !table.includes(name));
    expect(missing).toEqual([]);
  });

  it("says in the flag table, as --help does, that --cache needs the redis package", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const row = readme.split("\n").find((line) => line.startsWith("| `--cache"));
    expect(row).toMatch(/needs the `redis` package .*\(`npm install redis`\)/);
    expect(USAGE).toMatch(/--cache <redis-url>[\s\S]*?needs the redis package\s+\(npm install redis\)/);
  });

  it("never puts a bearer token or the client secret into a command's arguments", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const shell = [...markdownBlocks(readme, "sh"), { origin: "src/cli-run.ts", code: USAGE }];
    expect(shell.some((block) => block.code.includes("curl -H @-"))).toBe(true);
    const exposed: string[] = [];
    for (const block of shell) {
      for (const line of block.code.split("\n")) {
        // What follows `curl` on a line is curl's argument list.
        const args = line
          .split(/\bcurl\b/)
          .slice(1)
          .join(" ");
        if (/Authorization|Bearer|client_secret=|CLIENT_SECRET/.test(args)) exposed.push(line.trim());
      }
    }
    expect(exposed).toEqual([]);
  });
});
