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
  atMost,
  type BenchmarkResult,
  type DetailTable,
  fmt,
  info,
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
  const manifest = JSON.parse(await readFile(`${CLIENT_DIR}package.json`, "utf8")) as { exports: object };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith(".json"))
    .map((key) => `@drill-practice/client${key.slice(1)}`);
}

function specs(entries: readonly string[]): BundleSpec[] {
  const auth = (platform: "node" | "browser", jose: boolean): BundleSpec => ({
    label: `auth, ${platform === "node" ? "Node" : "browser"}, ${jose ? "with jose" : "without jose (external)"}`,
    ...{ entry: 'export * from "@drill-practice/auth";', resolveDir: ROOT, platform },
    external: jose ? AUTH_EXTERNAL : [...AUTH_EXTERNAL, "jose"],
  });
  const whole = 'export * from "@drill-practice/client";';
  const everyEntry = entries.map((entry, index) => `export * as entry${index} from "${entry}";`).join("\n");
  return [
    { ...browserBundle("client, Node, whole public API", whole), platform: "node" },
    browserBundle(
      "client, browser, `createDrillClient` only",
      'export { createDrillClient } from "@drill-practice/client";',
    ),
    browserBundle("client, browser, every entry together", everyEntry),
    { ...browserBundle(OPENAPI_FETCH, 'export { default } from "openapi-fetch";'), resolveDir: CLIENT_DIR },
    ...[auth("node", true), auth("node", false), auth("browser", true), auth("browser", false)],
    {
      label: JOSE,
      entry: 'export { SignJWT } from "jose";',
      resolveDir: AUTH_DIR,
      platform: "node",
      external: [],
    },
  ];
}

function rowsOf(
  budgeted: { budget: (typeof CLIENT_BUDGETS)[number]; size: BundleSize }[],
  get: (label: string) => BundleSize,
): ResultRow[] {
  const against = (size: BundleSize, reference: string, label: string) => ({
    ours: fmt.bytes(size.gzipped),
    reference: `${fmt.bytes(get(reference).gzipped)} (${label})`,
    ratio: fmt.ratio(size.gzipped / get(reference).gzipped),
  });
  const row = (label: string, headline: boolean, reference = OPENAPI_FETCH, name = "openapi-fetch alone") =>
    info(
      `${label[0]?.toUpperCase()}${label.slice(1)}, min + gzip`,
      against(get(label), reference, name),
      headline,
    );
  return [
    ...budgeted.map(({ budget, size }) => {
      const label = `${budget.label[0]?.toUpperCase()}${budget.label.slice(1)}, min + gzip`;
      return atMost(
        label,
        against(size, OPENAPI_FETCH, "openapi-fetch alone"),
        size.gzipped,
        budget.bytes,
        " B",
      );
    }),
    row("client, Node, whole public API", false),
    row("client, browser, `createDrillClient` only", false),
    row("client, browser, every entry together", true),
    row("auth, Node, with jose", true, JOSE, "jose `SignJWT` alone"),
    row("auth, Node, without jose (external)", true, JOSE, "jose `SignJWT` alone"),
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
    // The budgeted bundles come from the same code as the client's size test (bundle.ts).
    const budgeted = await measureClientBudgets();
    const all = [...budgeted.map(({ size }) => size.spec), ...specs(entries)];
    const sizes = new Map(budgeted.map(({ size }) => [size.spec.label, size]));
    for (const spec of all) if (!sizes.has(spec.label)) sizes.set(spec.label, await bundle(spec));
    const get = (label: string) => sizes.get(label) as BundleSize;
    const base = get(OPENAPI_FETCH).gzipped;
    const errors = (await clientErrorClasses()).map((name) => `\`${name}\``);
    const authImports = get("auth, Node, without jose (external)").runtimeImports.map(
      (name) => `\`${name}\``,
    );
    const budgets = CLIENT_BUDGETS.map(
      (b) => `${b.label.replace("client, browser, ", "")} ≤ ${fmt.count(b.bytes)} B`,
    );
    return {
      setup: [
        "esbuild, `bundle: true, minify: true, format: 'esm', legalComments: 'none'`",
        `Budgets (1 kB = 1,000 B): ${budgets.join("; ")}`,
      ],
      rows: rowsOf(budgeted, get),
      details: [
        {
          title: "All bundles",
          headers: ["Bundle", "Minified", "Min + gzip", "What is inside (minified bytes in output)"],
          rows: all.map(({ label }) => [
            label,
            fmt.bytes(get(label).minified),
            fmt.bytes(get(label).gzipped),
            get(label).contents,
          ]),
        },
        await perEntry(entries, base),
      ],
      notes: [
        `The client's own code adds ${fmt.bytes(get("client, browser, whole public API").gzipped - base)} gzipped to ` +
          "openapi-fetch in the browser bundle of the main entry's whole public API. The errors counted with " +
          `\`createDrillClient\` and \`unwrap\` are every error class the main entry exports (${errors.join(", ")}). The ` +
          "auth bundles leave out `@drill-practice/client`, `openapi-fetch` and the `node:` built-ins; at run time the " +
          `auth bundle without jose still imports: ${authImports.length === 0 ? "nothing" : authImports.join(", ")}.`,
      ],
    };
  });
}
