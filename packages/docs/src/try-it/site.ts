/**
 * The docs build's one hook for Try it: bundles the scripts, writes each reference's table of
 * operations and puts the loader into its page.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { exampleAnsweredOperations, SIMULATED_OPERATIONS } from "@drill-practice/sandbox";
import type { OpenApiDocument } from "../openapi-document.ts";
import type { SampleValues } from "../sample-values.ts";
import type { ApiVersion } from "../site-header.ts";
import { addTryIt, buildTryItScripts } from "./bundle.ts";
import { tryItOperations } from "./operations.ts";

/**
 * Adds the Try it panel to the references already written to `outDir`; returns the files written.
 */
export async function addTryItToSite(
  outDir: string,
  bundles: readonly { version: ApiVersion; bundle: OpenApiDocument }[],
  values: SampleValues,
): Promise<string[]> {
  const scripts = await buildTryItScripts(outDir);
  // Faithfulness comes from the sandbox's own exports, so it follows the sandbox as it grows.
  const answers = { simulated: SIMULATED_OPERATIONS, examples: await exampleAnsweredOperations() };
  const files = [...scripts.files];
  for (const { version, bundle } of bundles) {
    const page = join(outDir, version.dir, "index.html");
    const operations = tryItOperations(bundle, values, answers);
    const { html, table } = await addTryIt(
      outDir,
      version.dir,
      await readFile(page, "utf8"),
      operations,
      scripts,
      "../",
    );
    await writeFile(page, html);
    files.push(table);
  }
  return files;
}
