/**
 * The README's TypeScript blocks must compile, each on its own, against the package's
 * source, and its shell examples must not put a token or the client secret on a
 * command line (where `ps` shows it).
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { USAGE } from "../src/cli-run.js";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "readme-examples");
const tscBin = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

interface Block {
  readonly line: number;
  readonly code: string;
}

function blocks(text: string, language: string): Block[] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((block) => ({
    line: text.slice(0, block.index).split("\n").length,
    code: block[1] ?? "",
  }));
}

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("README", () => {
  it("every ts block compiles on its own against the package source", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const examples = blocks(readme, "ts");
    expect(examples.length).toBeGreaterThanOrEqual(7);

    await rm(scratch, { recursive: true, force: true });
    await mkdir(scratch, { recursive: true });
    const names = examples.map((_, index) => `readme-${String(index).padStart(2, "0")}.ts`);
    for (const [index, example] of examples.entries()) {
      // Each block is a module of its own: nothing it uses can come from another block.
      await writeFile(join(scratch, names[index] as string), `${example.code}\nexport {};\n`);
    }
    const source = (path: string) => relative(scratch, join(packageDir, path)).replaceAll("\\", "/");
    await writeFile(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          lib: ["es2023", "dom", "dom.iterable"],
          types: ["node"],
          typeRoots: [source("node_modules/@types")],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          noUnusedLocals: false,
          paths: {
            "@drill-practice/auth": [source("src/index.ts")],
            "@drill-practice/client": [source("../client/src/index.ts")],
          },
        },
        files: names,
      }),
    );
    const output = await run(process.execPath, [tscBin, "-p", "tsconfig.json"], { cwd: scratch }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? "failed",
    );
    // Point each error at the README line it came from.
    const located = output.replace(
      /^readme-(\d+)\.ts\((\d+),\d+\)/gm,
      (_match, index: string, line: string) => {
        const example = examples[Number(index)];
        return `README.md:${(example?.line ?? 0) + Number(line)}`;
      },
    );
    expect(located).toBe("");
  }, 120_000);

  it("never puts a bearer token or the client secret into a command's arguments", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const shell = [...blocks(readme, "sh"), { line: 0, code: USAGE }];
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
