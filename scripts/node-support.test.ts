/**
 * The Node.js versions the documents promise agree with what the packages declare and what the
 * runtime matrix runs: one `engines` floor for every published package, stated in each README and on
 * the docs' versioning page, next to the Node majors the matrix installs.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const PUBLISHED = ["packages/client", "packages/auth", "packages/sandbox"];
const STATEMENTS = [
  "README.md",
  "packages/client/README.md",
  "packages/auth/README.md",
  "packages/sandbox/README.md",
  "packages/docs/site/versioning.html",
];

async function json<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(join(root, path), "utf8")) as T;
}

describe("Node.js support statements", () => {
  it("every published package and the workspace declare the same engines floor", async () => {
    const declared = await Promise.all(
      [".", ...PUBLISHED].map(async (dir) => ({
        dir,
        node: (await json<{ engines?: { node?: string } }>(`${dir}/package.json`)).engines?.node,
      })),
    );
    expect(declared).toEqual(declared.map(({ dir }) => ({ dir, node: ">=20.19" })));
  });

  it("each README and the versioning page name that floor, the matrix's Node majors and Node 20's end of life", async () => {
    const matrix = await json<{ dependencies: Record<string, string> }>(
      "packages/runtime-matrix/runtimes/package.json",
    );
    const majors = Object.entries(matrix.dependencies)
      .filter(([name]) => /^node\d+$/.test(name))
      .map(([, spec]) => spec.slice(spec.lastIndexOf("@") + 1).split(".")[0]);
    expect(majors).toEqual(["22", "24"]);
    for (const file of STATEMENTS) {
      const text = (await readFile(join(root, file), "utf8")).replaceAll("&gt;", ">");
      const missing = [
        "Node.js 20 (20.19 or later), 22 and 24",
        ">=20.19",
        "end of life",
        /2026-04-30|30 April 2026/,
      ].filter((expected) =>
        typeof expected === "string" ? !text.includes(expected) : !expected.test(text),
      );
      expect({ file, missing }).toEqual({ file, missing: [] });
    }
  });
});
