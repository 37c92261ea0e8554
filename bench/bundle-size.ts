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
  OPENAPI_FETCH_ALONE,
  ROOT,
} from "./bundle.ts";
import { atMost, type BenchmarkResult, compared, fmt, info, type ResultRow, timed } from "./harness.ts";

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const AUTH_EXTERNAL = ["@drill-practice/client", "openapi-fetch", "node:*"];
const OPENAPI_FETCH = { label: OPENAPI_FETCH_ALONE.label, name: "openapi-fetch alone" };
const JOSE = { label: "reference: jose `SignJWT` alone, Node", name: "jose `SignJWT` alone" };

/** A bundle with a row of its own: report-only, against its reference, in the summary when `headline`. */
interface Reported extends BundleSpec {
  readonly reference?: typeof OPENAPI_FETCH;
  readonly headline?: boolean;
}

/** The client's entries, from its exports map: `@drill-practice/client`, `…/v2.1` and so on. */
async function clientEntries(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(`${CLIENT_DIR}package.json`, "utf8")) as { exports: object };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith(".json"))
    .map((key) => `@drill-practice/client${key.slice(1)}`);
}

/** Every bundle besides the budgeted ones, in the order of the rows and then of the table. */
function specs(entries: readonly string[]): Reported[] {
  const auth = (platform: "node" | "browser", jose: boolean): Reported => ({
    label: `auth, ${platform === "node" ? "Node" : "browser"}, ${jose ? "with jose" : "without jose (external)"}`,
    ...{ entry: 'export * from "@drill-practice/auth";', resolveDir: ROOT, platform },
    external: jose ? AUTH_EXTERNAL : [...AUTH_EXTERNAL, "jose"],
    ...(platform === "node" ? { reference: JOSE, headline: true } : {}),
  });
  const client = (label: string, names: string, headline = false): Reported => ({
    ...browserBundle(`client, browser, ${label}`, `export ${names} from "@drill-practice/client";`),
    ...{ reference: OPENAPI_FETCH, headline },
  });
  const everyEntry = entries.map((entry, index) => `export * as entry${index} from "${entry}";`).join("\n");
  const jose = browserBundle(JOSE.label, 'export { SignJWT } from "jose";');
  return [
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
    const entries = await clientEntries();
    // The budgeted bundles come from the same code as the client's size test (bundle.ts).
    const budgeted = await measureClientBudgets();
    const sizes: BundleSize[] = budgeted.map(({ size }) => size);
    for (const spec of specs(entries)) sizes.push(await bundle(spec));
    const get = (label: string) => sizes.find((size) => size.spec.label === label) as BundleSize;
    const cells = (size: BundleSize, reference = OPENAPI_FETCH) =>
      compared(size.gzipped, get(reference.label).gzipped, fmt.bytes, reference.name);
    const metric = (label: string) => `${label[0]?.toUpperCase()}${label.slice(1)}, min + gzip`;
    const rows: ResultRow[] = budgeted.map(({ budget, size }) =>
      atMost(metric(budget.label), size.gzipped, budget.bytes, " B", cells(size)),
    );
    for (const size of sizes) {
      const { reference, headline } = size.spec as Reported;
      if (reference !== undefined) rows.push(info(metric(size.spec.label), cells(size, reference), headline));
    }
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
      rows,
      details: [
        {
          title: "All bundles (each entry of the client's exports map alone last, openapi-fetch included)",
          headers: ["Bundle", "Minified", "Min + gzip", "What is inside (minified bytes in output)"],
          rows: sizes.map((size) => [
            size.spec.label,
            fmt.bytes(size.minified),
            fmt.bytes(size.gzipped),
            size.contents,
          ]),
        },
      ],
      notes: [
        `The client's own code adds ${fmt.bytes(get("client, browser, whole public API").gzipped - get(OPENAPI_FETCH.label).gzipped)} gzipped to ` +
          "openapi-fetch in the browser bundle of the main entry's whole public API. The errors counted with " +
          `\`createDrillClient\` and \`unwrap\` are every error class the main entry exports (${errors.join(", ")}). The ` +
          "auth bundles leave out `@drill-practice/client`, `openapi-fetch` and the `node:` built-ins; at run time the " +
          `auth bundle without jose still imports: ${authImports.length === 0 ? "nothing" : authImports.join(", ")}.`,
      ],
    };
  });
}
