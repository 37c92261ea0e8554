import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src", import.meta.url));

async function sources(): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith(".ts"));
  return Promise.all(
    files.map(async (entry) => {
      const file = join(entry.parentPath, entry.name);
      return { file: file.slice(srcDir.length + 1), text: await readFile(file, "utf8") };
    }),
  );
}

describe("runtime neutrality", () => {
  it("imports nothing but openapi-fetch and its own modules", async () => {
    const foreign: string[] = [];
    for (const { file, text } of await sources()) {
      for (const match of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)) {
        const specifier = match[1] ?? "";
        if (specifier !== "openapi-fetch" && !specifier.startsWith("./"))
          foreign.push(`${file}: ${specifier}`);
      }
      for (const match of text.matchAll(/\b(?:require\(|import\()\s*"([^"]+)"/g))
        foreign.push(`${file}: ${match[1]}`);
    }
    expect(foreign).toEqual([]);
  });

  it("touches process only to detect Node, through globalThis", async () => {
    const uses: string[] = [];
    for (const { file, text } of await sources()) {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      for (const line of code.split("\n")) {
        if (/\b(process|Buffer|__dirname|__filename|require)\b/.test(line))
          uses.push(`${file}: ${line.trim()}`);
      }
    }
    expect(uses).toEqual([
      "client.ts: const runtime = (globalThis as { process?: { versions?: { node?: unknown } } }).process;",
    ]);
  });
});
