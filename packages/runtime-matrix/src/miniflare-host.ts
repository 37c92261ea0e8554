/**
 * Run by the matrix's Node 24 (Miniflare needs Node 22 or later): starts workerd through
 * Miniflare with the Worker bundle, no compatibility flag, the scenario's input as a text
 * binding, sends it one request and prints the Worker's report on one line.
 *
 * Environment: MATRIX_MINIFLARE (folder of the miniflare package), MATRIX_WORKER (the bundle),
 * DRILL_MATRIX_INPUT (the scenario's input, JSON).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { INPUT_VARIABLE, REPORT_MARKER } from "./entries/report-line.js";

/** The part of Miniflare's API used here (the package is not a workspace dependency). */
interface MiniflareInstance {
  dispatchFetch(url: string): Promise<{ status: number; text(): Promise<string> }>;
  dispose(): Promise<void>;
}
type MiniflareConstructor = new (options: Record<string, unknown>) => MiniflareInstance;

const required = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
};

// A fixed date keeps the Worker's behaviour stable across workerd updates; no flag is set.
const COMPATIBILITY_DATE = "2025-09-01";

const miniflareDir = required("MATRIX_MINIFLARE");
const manifest = JSON.parse(await readFile(join(miniflareDir, "package.json"), "utf8")) as {
  exports?: { ".": { import?: string } | string };
  main?: string;
};
const root = manifest.exports?.["."];
const entry = (typeof root === "string" ? root : root?.import) ?? manifest.main ?? "index.js";
const { Miniflare } = (await import(pathToFileURL(join(miniflareDir, entry)).href)) as {
  Miniflare: MiniflareConstructor;
};

const script = await readFile(required("MATRIX_WORKER"), "utf8");
const mf = new Miniflare({
  modules: true,
  script,
  compatibilityDate: COMPATIBILITY_DATE,
  bindings: { MATRIX_INPUT: required(INPUT_VARIABLE) },
});
try {
  const response = await mf.dispatchFetch("http://matrix.invalid/");
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`the Worker answered HTTP ${response.status}: ${text.slice(0, 2000)}`);
  console.log(`${REPORT_MARKER}${text}`);
} catch (error) {
  const where = locate(error instanceof Error ? error.message : String(error));
  if (where !== undefined) console.error(`workerd rejected the bundle at ${where}`);
  throw error;
} finally {
  await mf.dispose();
}

/**
 * workerd names a line of the one-file bundle (`script-0:823:13`); this finds the installed
 * module it came from (esbuild's `// path` comments) and the code on that line.
 */
function locate(message: string): string | undefined {
  const match = /script-0:(\d+):\d+/.exec(message);
  if (match === null) return undefined;
  const lines = script.split("\n");
  const index = Number(match[1]) - 1;
  let module = "the bundle";
  for (let i = index; i >= 0; i -= 1) {
    const line = lines[i] ?? "";
    if (line.startsWith("// ")) {
      module = line.slice(3).replace(/^.*?(?=node_modules\/)/, "");
      break;
    }
  }
  return `${module}: ${(lines[index] ?? "").trim()}`;
}
