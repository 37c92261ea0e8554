/**
 * What TypeScript says about a few lines of calls against the package's own sources, the way a
 * consumer's editor shows it: one `calls.ts:<line>: error TS…` line per diagnostic.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileExamples, scratchPaths } from "@drill-practice/tooling/examples";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** The diagnostics of `code` (a file `calls.ts`), its imports mapped from entry names to sources. */
export async function compileCalls(
  scratchName: string,
  code: string,
  paths: Record<string, string>,
): Promise<Map<number, string>> {
  const scratch = join(packageDir, ".tmp", scratchName);
  const errors = await compileExamples({
    scratch,
    examples: [{ origin: "calls.ts:1", code }],
    compilerOptions: {
      types: [],
      allowImportingTsExtensions: true,
      paths: scratchPaths({ packageDir, scratch, paths }),
    },
  });
  const lines = errors
    .trim()
    .split("\n")
    .filter((line) => line !== "");
  return new Map(lines.map((line) => [Number(/^calls\.ts:(\d+)/.exec(line)?.[1]), line]));
}
