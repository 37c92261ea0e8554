/**
 * Bundle size: the client and auth bundled by esbuild from their built `dist`, as an application
 * imports them, minified and gzipped, next to openapi-fetch alone and jose's `SignJWT` alone; and the
 * client's size budgets (issue #23), which `bench/client-size-budget.test.ts` also holds in `pnpm test`.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Platform } from "esbuild";
import { atMost, type BenchmarkResult, compared, fmt, info, type ResultRow, timed } from "./harness.ts";

/** The repository root: bare imports of the workspace packages resolve from here. */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const AUTH_EXTERNAL = ["@drill-practice/client", "openapi-fetch", "node:*"];

/** A bundle to make; one with a `reference` gets a row, held to `budget` or in the summary when `headline`. */
interface BundleSpec {
  readonly label: string;
  /** Source of the entry module. */
  readonly entry: string;
  /** Where bare imports of the entry resolve from. */
  readonly resolveDir: string;
  readonly platform: Platform;
  readonly external: readonly string[];
  readonly reference?: { readonly label: string; readonly name: string };
  readonly headline?: boolean;
  readonly budget?: number;
}

/** The package an input file of a bundle belongs to (pnpm nests them under .pnpm/…/node_modules). */
function packageOf(input: string): string {
  const path = input.replaceAll("\\", "/");
  const match = /.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\//.exec(path);
  if (match?.[1] !== undefined) return match[1];
  const workspace = /packages\/(client|auth)\//.exec(path)?.[1];
  return workspace === undefined ? "(entry)" : `@drill-practice/${workspace}`;
}

/**
 * Bundles an entry module with esbuild (ESM, es2022, minified) and measures it, gzipped at level 9:
 * with the packages inside and their minified bytes, and the externals it still imports at run time.
 */
export async function bundle(spec: BundleSpec) {
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
  resolveDir: CLIENT_DIR,
};

/** Every error class the client's main entry exports, sorted by name. */
export async function clientErrorClasses(): Promise<string[]> {
  const main = (await import("@drill-practice/client")) as Record<string, unknown>;
  const isError = (value: unknown) => typeof value === "function" && value.prototype instanceof Error;
  return Object.keys(main)
    .filter((name) => isError(main[name]))
    .sort();
}

/**
 * The client's size budgets (min + gzip, 1 kB = 1,000 B): what an application pays for the client
 * in a browser bundle; `entry` makes the entry module from the main entry's error classes.
 */
export const CLIENT_BUDGETS = [
  {
    label: "client, browser, `createDrillClient` + `unwrap` + the errors",
    bytes: 9600,
    entry: (errors: readonly string[]) =>
      `export { ${["createDrillClient", "unwrap", ...errors].join(", ")} } from "@drill-practice/client";`,
  },
  {
    label: "client, browser, whole public API",
    // `SCHEMA_NAMES` holds one string per schema of the description, so this budget grows with the
    // description, not only with the client's code: API 2.1.1's 30 schemas added about 230 B.
    bytes: 11_500,
    entry: () => 'export * from "@drill-practice/client";',
  },
];

const OPENAPI_FETCH = { label: OPENAPI_FETCH_ALONE.label, name: "openapi-fetch alone" };
const JOSE = { label: "reference: jose `SignJWT` alone, Node", name: "jose `SignJWT` alone" };

/** The client's entries, from its exports map: `@drill-practice/client`, `…/v2.1` and so on. */
async function clientEntries(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(`${CLIENT_DIR}package.json`, "utf8")) as { exports: object };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith(".json"))
    .map((key) => `@drill-practice/client${key.slice(1)}`);
}

/** Every bundle, the budgeted ones first, in the order of the rows and then of the table. */
function specs(entries: readonly string[], errors: string[]): BundleSpec[] {
  const auth = (platform: "node" | "browser", jose: boolean): BundleSpec => ({
    label: `auth, ${platform === "node" ? "Node" : "browser"}, ${jose ? "with jose" : "without jose (external)"}`,
    ...{ entry: 'export * from "@drill-practice/auth";', resolveDir: ROOT, platform },
    external: jose ? AUTH_EXTERNAL : [...AUTH_EXTERNAL, "jose"],
    ...(platform === "node" ? { reference: JOSE, headline: true } : {}),
  });
  const client = (label: string, names: string, headline = false): BundleSpec => ({
    ...browserBundle(`client, browser, ${label}`, `export ${names} from "@drill-practice/client";`),
    ...{ reference: OPENAPI_FETCH, headline },
  });
  const everyEntry = entries.map((entry, index) => `export * as entry${index} from "${entry}";`).join("\n");
  const jose = browserBundle(JOSE.label, 'export { SignJWT } from "jose";');
  return [
    ...CLIENT_BUDGETS.map((b) => ({
      ...browserBundle(b.label, b.entry(errors)),
      reference: OPENAPI_FETCH,
      budget: b.bytes,
    })),
    { ...client("whole public API", "*"), label: "client, Node, whole public API", platform: "node" },
    client("`createDrillClient` only", "{ createDrillClient }"),
    { ...client("every entry together", "*", true), entry: everyEntry },
    auth("node", true),
    auth("node", false),
    OPENAPI_FETCH_ALONE,
    auth("browser", true),
    auth("browser", false),
    { ...jose, resolveDir: fileURLToPath(new URL("../packages/auth/", import.meta.url)), platform: "node" },
    ...entries.map((entry) =>
      browserBundle(`client, browser, \`${entry}\` (\`export *\`)`, `export * from "${entry}";`),
    ),
  ];
}

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("bundle-size", async () => {
    const errors = await clientErrorClasses();
    const sizes = await Promise.all(specs(await clientEntries(), errors).map(bundle));
    const get = (label: string) => sizes.find((size) => size.spec.label === label) as (typeof sizes)[number];
    const rows: ResultRow[] = sizes.flatMap(({ spec, gzipped }) => {
      const { label, reference, headline, budget } = spec;
      if (reference === undefined) return [];
      const metric = `${label[0]?.toUpperCase()}${label.slice(1)}, min + gzip`;
      const cells = compared(gzipped, get(reference.label).gzipped, fmt.bytes, reference.name);
      return budget === undefined
        ? info(metric, cells, headline)
        : atMost(metric, gzipped, budget, " B", cells);
    });
    const code = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(", ");
    const authImports = code(get("auth, Node, without jose (external)").runtimeImports);
    const budgets = CLIENT_BUDGETS.map(
      (b) => `${b.label.replace("client, browser, ", "")} ≤ ${fmt.count(b.bytes)} B`,
    );
    const ownCode = get("client, browser, whole public API").gzipped - get(OPENAPI_FETCH.label).gzipped;
    return {
      setup: [
        "esbuild, `bundle: true, minify: true, format: 'esm', legalComments: 'none'`",
        `Budgets (1 kB = 1,000 B): ${budgets.join("; ")}`,
      ],
      rows,
      details: [
        {
          title: "All bundles (each entry of the client's exports map alone last, openapi-fetch included)",
          headers: ["Bundle", "Minified", "Min + gzip", "What is inside (minified bytes in output)"],
          rows: sizes.map((s) => [s.spec.label, fmt.bytes(s.minified), fmt.bytes(s.gzipped), s.contents]),
        },
      ],
      notes: [
        `The client's own code adds ${fmt.bytes(ownCode)} gzipped to openapi-fetch in the browser bundle of the main entry's whole public API. The errors counted with ` +
          `\`createDrillClient\` and \`unwrap\` are every error class the main entry exports (${code(errors)}). The ` +
          "auth bundles leave out `@drill-practice/client`, `openapi-fetch` and the `node:` built-ins; at run time the " +
          `auth bundle without jose still imports: ${authImports || "nothing"}.`,
      ],
    };
  });
}
