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
  /** Minified bytes in the output per input file. */
  readonly files: ReadonlyMap<string, number>;
  /** Bare module specifiers the bundle still imports at run time (its externals in use). */
  readonly runtimeImports: readonly string[];
}

function workspacePackage(path: string): string {
  if (path.includes("packages/client/")) return "@drill-practice/client";
  if (path.includes("packages/auth/")) return "@drill-practice/auth";
  return "(entry)";
}

/**
 * Bundles an entry module with esbuild (ESM, es2022, minified, no legal comments) and measures
 * it, gzipped with node:zlib at level 9.
 */
export async function bundle(spec: BundleSpec): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: spec.entry, resolveDir: spec.resolveDir, loader: "js", sourcefile: "entry.js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: spec.platform,
    target: "es2022",
    external: [...spec.external],
    write: false,
    metafile: true,
    logLevel: "silent",
    legalComments: "none",
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`${spec.label}: esbuild produced no output`);
  const byPackage = new Map<string, number>();
  const files = new Map<string, number>();
  for (const outputMeta of Object.values(result.metafile.outputs)) {
    for (const [input, meta] of Object.entries(outputMeta.inputs)) {
      files.set(input, (files.get(input) ?? 0) + meta.bytesInOutput);
      const path = input.replaceAll("\\", "/");
      // The last node_modules segment names the package (pnpm nests them under .pnpm/…/node_modules).
      const match = /.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\//.exec(path);
      const name = match?.[1] ?? workspacePackage(path);
      byPackage.set(name, (byPackage.get(name) ?? 0) + meta.bytesInOutput);
    }
  }
  const contents = [...byPackage]
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `${name} ${bytes.toLocaleString("en-US")} B`)
    .join(", ");
  return {
    spec,
    minified: output.contents.byteLength,
    gzipped: gzipSync(output.contents, { level: 9 }).byteLength,
    contents,
    files,
    runtimeImports: [
      ...new Set(
        Object.values(result.metafile.outputs).flatMap((meta) =>
          meta.imports.filter((entry) => entry.external).map((entry) => entry.path),
        ),
      ),
    ].sort(),
  };
}

/**
 * A browser bundle of an entry module whose bare imports resolve from the repository root.
 */
export function browserBundle(label: string, entry: string): BundleSpec {
  return { label, entry, resolveDir: ROOT, platform: "browser", external: [] };
}

/**
 * The run-time exports of an entry, as an application sees them.
 */
async function runtimeExports(entry: string): Promise<Record<string, unknown>> {
  return { ...((await import(entry)) as Record<string, unknown>) };
}

function isErrorClass(value: unknown): boolean {
  return typeof value === "function" && value.prototype instanceof Error;
}

/**
 * Every error class the client's main entry exports, sorted by name.
 */
export async function clientErrorClasses(): Promise<string[]> {
  const main = await runtimeExports("@drill-practice/client");
  return Object.keys(main)
    .filter((name) => isErrorClass(main[name]))
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
    entry: (errorClasses) =>
      `export { ${["createDrillClient", "unwrap", ...errorClasses].join(", ")} } from "@drill-practice/client";`,
  },
  {
    label: "client, browser, whole public API",
    bytes: 11_300,
    entry: () => 'export * from "@drill-practice/client";',
  },
];

/**
 * Bundles the client as each budget says and returns the sizes beside the budgets.
 */
export async function measureClientBudgets(): Promise<{ budget: ClientBudget; size: BundleSize }[]> {
  const errorClasses = await clientErrorClasses();
  const measured: { budget: ClientBudget; size: BundleSize }[] = [];
  for (const budget of CLIENT_BUDGETS) {
    measured.push({ budget, size: await bundle(browserBundle(budget.label, budget.entry(errorClasses))) });
  }
  return measured;
}
