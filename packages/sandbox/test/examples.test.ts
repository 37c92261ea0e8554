/**
 * Every `@example` in the package's doc comments is a fenced TypeScript block,
 * as in the other packages. (Compiling them, as the client does, is still to
 * come: many are fragments that use variables they do not declare.)
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.parentPath.includes("generated"),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("documentation examples", () => {
  it("every @example is fenced as ts", async () => {
    const unfenced: string[] = [];
    for (const file of await sourceFiles(join(packageDir, "src"))) {
      const lines = (await readFile(file, "utf8")).split("\n");
      lines.forEach((line, index) => {
        if (/^\s*\* @example\s*$/.test(line) && !/^\s*\* ```ts$/.test(lines[index + 1] ?? "")) {
          unfenced.push(`${relative(packageDir, file)}:${index + 1}`);
        }
      });
    }
    expect(unfenced).toEqual([]);
  });
});
