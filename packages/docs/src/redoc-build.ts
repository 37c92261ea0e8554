import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

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
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      resolve(`timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on("exit", (exitCode, signal) => {
      clearTimeout(timer);
      resolve(exitCode ?? `killed by ${signal}`);
    });
  });
  if (code !== 0) {
    throw new Error(`redocly build-docs for ${options.input} failed (${code}):\n${output.trim()}`);
  }
}
