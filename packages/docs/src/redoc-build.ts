import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { runProcess } from "@drill-practice/tooling/process";

/** Options for {@link runBuildDocs}. */
export interface BuildDocsOptions {
  /** The OpenAPI document to render (JSON or YAML file). */
  input: string;
  /** The HTML file to write. */
  output: string;
  /** Handlebars page template; Redoc's own when absent. */
  template?: string;
  /** Redocly configuration file holding the Redoc options; none (Redoc's defaults) when absent. */
  config?: string;
  /** Page title; the description's when absent. */
  title?: string;
  /** Upper bound for the run; Redoc renders a version in about a second. Default 120 s. */
  timeoutMs?: number;
}

function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@redocly/cli/package.json")), "bin", "cli.js");
}

/**
 * Renders one reference page with `redocly build-docs`, Redoc's script inlined so the page
 * needs no CDN. Telemetry and update checks are switched off, as nothing in the build may
 * reach the network. Rejects with the tool's output when it fails.
 *
 * @example
 * ```ts
 * import { runBuildDocs } from "./redoc-build.ts";
 *
 * await runBuildDocs({
 *   input: ".build/openapi-v2.1.json",
 *   output: "dist/v2.1/index.html",
 *   template: ".build/reference-v2.1.hbs",
 *   config: "redocly.yaml",
 *   title: "Drill Practice API 2.1 reference",
 * });
 * ```
 */
export async function runBuildDocs(options: BuildDocsOptions): Promise<void> {
  const args = [
    redoclyBin(),
    "build-docs",
    options.input,
    "--output",
    options.output,
    ...(options.template === undefined ? [] : ["--template", options.template]),
    ...(options.config === undefined ? [] : ["--config", options.config]),
    ...(options.title === undefined ? [] : ["--title", options.title]),
    "--inlineBundle",
    "--lint-config",
    "error",
  ];
  const timeoutMs = options.timeoutMs ?? 120_000;
  const result = await runProcess({
    command: process.execPath,
    args,
    cwd: process.cwd(),
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    timeoutMs,
  });
  if (result.exitCode !== 0) {
    const why = result.timedOut
      ? `timed out after ${timeoutMs} ms`
      : (result.exitCode ?? "did not run to its end");
    throw new Error(
      `redocly build-docs for ${options.input} failed (${why}):\n${(result.stdout + result.stderr).trim()}`,
    );
  }
}
