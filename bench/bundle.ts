/**
 * Bundling for size figures, for the bundle-size benchmark: esbuild from the packages' built `dist`,
 * as an application imports them, minified and gzipped; and the client's size budgets (issue #23).
 * `bench/client-size-budget.test.ts` guards the budgets in `pnpm test`.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Platform } from "esbuild";

/** The repository root: bare imports of the workspace packages resolve from here. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface BundleSpec {
  readonly label: string;
  /** Source of the entry module. */
  readonly entry: string;
  /** Where bare imports of the entry resolve from. */
  readonly resolveDir: string;
  readonly platform: Platform;
  readonly external: readonly string[];
}

export interface BundleSize {
  readonly spec: BundleSpec;
  readonly minified: number;
  readonly gzipped: number;
  /** Packages that ended up in the bundle, with their minified input bytes. */
  readonly contents: string;
  /** Bare module specifiers the bundle still imports at run time (its externals in use). */
  readonly runtimeImports: readonly string[];
}

/** The package an input file of a bundle belongs to (pnpm nests them under .pnpm/…/node_modules). */
function packageOf(input: string): string {
  const path = input.replaceAll("\\", "/");
  const match = /.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\//.exec(path);
  if (match?.[1] !== undefined) return match[1];
  const workspace = /packages\/(client|auth)\//.exec(path)?.[1];
  return workspace === undefined ? "(entry)" : `@drill-practice/${workspace}`;
}

/** Bundles an entry module with esbuild (ESM, es2022, minified) and measures it, gzipped at level 9. */
export async function bundle(spec: BundleSpec): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: spec.entry, resolveDir: spec.resolveDir, loader: "js", sourcefile: "entry.js" },
    ...{ bundle: true, minify: true, format: "esm", target: "es2022", write: false, metafile: true },
    ...{ platform: spec.platform, external: [...spec.external], logLevel: "silent", legalComments: "none" },
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`${spec.label}: esbuild produced no output`);
  const byPackage = new Map<string, number>();
  const outputs = Object.values(result.metafile.outputs);
  for (const [input, meta] of outputs.flatMap((o) => Object.entries(o.inputs)))
    byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + meta.bytesInOutput);
  const contents = [...byPackage]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `${name} ${bytes.toLocaleString("en-US")} B`);
  const imports = outputs.flatMap((meta) => meta.imports.filter((i) => i.external).map((i) => i.path));
  return {
    spec,
    minified: output.contents.byteLength,
    gzipped: gzipSync(output.contents, { level: 9 }).byteLength,
    contents: contents.join(", "),
    runtimeImports: [...new Set(imports)].sort(),
  };
}

/** A browser bundle of an entry module whose bare imports resolve from the repository root. */
export function browserBundle(label: string, entry: string): BundleSpec {
  return { label, entry, resolveDir: ROOT, platform: "browser", external: [] };
}

/** openapi-fetch alone, the very copy the client depends on: what the client wraps. */
export const OPENAPI_FETCH_ALONE: BundleSpec = {
  ...browserBundle("reference: openapi-fetch alone, browser", 'export { default } from "openapi-fetch";'),
  resolveDir: fileURLToPath(new URL("../packages/client/", import.meta.url)),
};

/** Every error class the client's main entry exports, sorted by name. */
export async function clientErrorClasses(): Promise<string[]> {
  const main = (await import("@drill-practice/client")) as Record<string, unknown>;
  const isError = (value: unknown) => typeof value === "function" && value.prototype instanceof Error;
  return Object.keys(main)
    .filter((name) => isError(main[name]))
    .sort();
}

/** A size budget of the client's browser bundle (min + gzip, 1 kB = 1,000 B). */
export interface ClientBudget {
  /** What is bundled, as the reports name it. */
  readonly label: string;
  /** Most gzipped bytes allowed. */
  readonly bytes: number;
  /** The entry module, given the main entry's error classes. */
  readonly entry: (errorClasses: readonly string[]) => string;
}

/** The client's size budgets: what an application pays for the client in a browser bundle. */
export const CLIENT_BUDGETS: readonly ClientBudget[] = [
  {
    label: "client, browser, `createDrillClient` + `unwrap` + the errors",
    bytes: 9600,
    entry: (errors) =>
      `export { ${["createDrillClient", "unwrap", ...errors].join(", ")} } from "@drill-practice/client";`,
  },
  {
    label: "client, browser, whole public API",
    bytes: 11_300,
    entry: () => 'export * from "@drill-practice/client";',
  },
];

/** Bundles the client as each budget says and returns the sizes beside the budgets. */
export async function measureClientBudgets(): Promise<{ budget: ClientBudget; size: BundleSize }[]> {
  const errorClasses = await clientErrorClasses();
  const measured: { budget: ClientBudget; size: BundleSize }[] = [];
  for (const budget of CLIENT_BUDGETS)
    measured.push({ budget, size: await bundle(browserBundle(budget.label, budget.entry(errorClasses))) });
  return measured;
}
