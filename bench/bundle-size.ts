/**
 * Bundle size: the client and auth bundled by esbuild from their built `dist`, minified and
 * gzipped, next to openapi-fetch alone and jose's `SignJWT` alone; the client's size budgets.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  type BundleSize,
  type BundleSpec,
  browserBundle,
  bundle,
  CLIENT_BUDGETS,
  clientErrorClasses,
  measureClientBudgets,
  ROOT,
} from "./bundle.ts";
import {
  type BenchmarkResult,
  type DetailTable,
  fmt,
  info,
  judged,
  type ResultRow,
  timed,
} from "./harness.ts";

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const AUTH_DIR = fileURLToPath(new URL("../packages/auth/", import.meta.url));
const AUTH_EXTERNAL = ["@drill-practice/client", "openapi-fetch", "node:*"];
const OPENAPI_FETCH = "reference: openapi-fetch alone, browser";
const JOSE = "reference: jose `SignJWT` alone, Node";

/** The client's entries, from its exports map: `@drill-practice/client`, `…/v2.1` and so on. */
async function clientEntries(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(`${CLIENT_DIR}package.json`, "utf8")) as {
    exports: Record<string, unknown>;
  };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith(".json"))
    .map((key) => `@drill-practice/client${key.slice(1)}`);
}

function specs(entries: readonly string[]): BundleSpec[] {
  const auth = (platform: "node" | "browser", jose: boolean): BundleSpec => ({
    label: `auth, ${platform === "node" ? "Node" : "browser"}, ${jose ? "with jose" : "without jose (external)"}`,
    entry: 'export * from "@drill-practice/auth";',
    resolveDir: ROOT,
    platform,
    external: jose ? AUTH_EXTERNAL : [...AUTH_EXTERNAL, "jose"],
  });
  return [
    {
      ...browserBundle("client, Node, whole public API", 'export * from "@drill-practice/client";'),
      platform: "node",
    },
    browserBundle(
      "client, browser, `createDrillClient` only",
      'export { createDrillClient } from "@drill-practice/client";',
    ),
    browserBundle(
      "client, browser, every entry together",
      entries.map((entry, index) => `export * as entry${index} from "${entry}";`).join("\n"),
    ),
    { ...browserBundle(OPENAPI_FETCH, 'export { default } from "openapi-fetch";'), resolveDir: CLIENT_DIR },
    auth("node", true),
    auth("node", false),
    auth("browser", true),
    auth("browser", false),
    {
      label: JOSE,
      entry: 'export { SignJWT } from "jose";',
      resolveDir: AUTH_DIR,
      platform: "node",
      external: [],
    },
  ];
}

const capitalized = (label: string) => `${label[0]?.toUpperCase()}${label.slice(1)}`;

function rowsOf(
  budgeted: { budget: (typeof CLIENT_BUDGETS)[number]; size: BundleSize }[],
  get: (label: string) => BundleSize,
): ResultRow[] {
  const base = get(OPENAPI_FETCH).gzipped;
  const jose = get(JOSE).gzipped;
  const against = (size: BundleSize) => ({
    ours: fmt.bytes(size.gzipped),
    reference: `${fmt.bytes(base)} (openapi-fetch alone)`,
    ratio: fmt.ratio(size.gzipped / base),
  });
  const client = (label: string, headline = false) =>
    info(`${capitalized(label)}, min + gzip`, against(get(label)), headline);
  const auth = (label: string) =>
    info(
      `${capitalized(label)}, min + gzip`,
      {
        ours: fmt.bytes(get(label).gzipped),
        reference: `${fmt.bytes(jose)} (jose \`SignJWT\` alone)`,
        ratio: fmt.ratio(get(label).gzipped / jose),
      },
      true,
    );
  return [
    ...budgeted.map(({ budget, size }) =>
      judged(
        `${capitalized(budget.label)}, min + gzip`,
        { ...against(size), target: `≤ ${fmt.count(budget.bytes)} B` },
        { met: size.gzipped <= budget.bytes, miss: `${fmt.percent(size.gzipped / budget.bytes - 1)} over` },
      ),
    ),
    client("client, Node, whole public API"),
    client("client, browser, `createDrillClient` only"),
    client("client, browser, every entry together", true),
    auth("auth, Node, with jose"),
    auth("auth, Node, without jose (external)"),
  ];
}

async function perEntry(entries: readonly string[], base: number): Promise<DetailTable> {
  const rows: string[][] = [];
  for (const entry of entries) {
    const size = await bundle(browserBundle(`${entry} (whole)`, `export * from "${entry}";`));
    rows.push([
      `\`${entry}\``,
      fmt.bytes(size.minified),
      fmt.bytes(size.gzipped),
      fmt.ratio(size.gzipped / base),
    ]);
  }
  return {
    title: "Client per entry of its exports map (browser, `export *` of the entry, openapi-fetch included)",
    headers: ["Entry", "Minified", "Min + gzip", "vs openapi-fetch alone"],
    rows,
  };
}

export function run(): Promise<BenchmarkResult> {
  return timed("bundle-size", async () => {
    const entries = await clientEntries();
    // The budgeted bundles come from the same code as the client's size test would use (bundle.ts).
    const budgeted = await measureClientBudgets();
    const all = [...budgeted.map(({ size }) => size.spec), ...specs(entries)];
    const sizes = new Map(budgeted.map(({ size }) => [size.spec.label, size]));
    for (const spec of all) if (!sizes.has(spec.label)) sizes.set(spec.label, await bundle(spec));
    const get = (label: string): BundleSize => {
      const size = sizes.get(label);
      if (size === undefined) throw new Error(`no bundle ${label}`);
      return size;
    };
    const base = get(OPENAPI_FETCH).gzipped;
    const errors = await clientErrorClasses();
    const whole = get("client, browser, whole public API");
    const authImports = get("auth, Node, without jose (external)").runtimeImports;
    return {
      title: "Bundle size",
      measured:
        "Size of `@drill-practice/client` and `@drill-practice/auth` bundled by esbuild's JS API from their built " +
        "`dist` (ESM, `target: es2022`, minified, tree-shaken), gzipped with node:zlib at level 9. References: " +
        "openapi-fetch bundled alone (what the client wraps) and jose's `SignJWT` alone (what auth signs with), " +
        "bundled in the same run.",
      setup: [
        "esbuild, `bundle: true, minify: true, format: 'esm', legalComments: 'none'`",
        `Budgets (1 kB = 1,000 B): ${CLIENT_BUDGETS.map((b) => `${b.label.replace("client, browser, ", "")} ≤ ${fmt.count(b.bytes)} B`).join("; ")}`,
      ],
      rows: rowsOf(budgeted, get),
      details: [
        {
          title: "All bundles",
          headers: ["Bundle", "Minified", "Min + gzip", "What is inside (minified bytes in output)"],
          rows: all.map((spec) => [
            spec.label,
            fmt.bytes(get(spec.label).minified),
            fmt.bytes(get(spec.label).gzipped),
            get(spec.label).contents,
          ]),
        },
        await perEntry(entries, base),
      ],
      notes: [
        `The client's own code adds ${fmt.bytes(whole.gzipped - base)} gzipped to openapi-fetch in the browser bundle of ` +
          `the main entry's whole public API. The errors counted with \`createDrillClient\` and \`unwrap\` are every error ` +
          `class the main entry exports (${errors.map((name) => `\`${name}\``).join(", ")}). The auth bundles leave out ` +
          "`@drill-practice/client`, `openapi-fetch` and the `node:` built-ins; at run time the auth bundle without jose " +
          `still imports: ${authImports.length === 0 ? "nothing" : authImports.map((name) => `\`${name}\``).join(", ")}.`,
      ],
    };
  });
}
