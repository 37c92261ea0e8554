/**
 * Bundle size: the client and auth packages bundled with esbuild (from their built `dist`, as an
 * application would import them), minified and gzipped, next to the libraries they build on; for
 * the client also each entry of its exports map and each export on its own.
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
  runtimeExports,
} from "./bundle.ts";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import { formatBytes, formatPercent, formatRatio, now } from "./stats.ts";

const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const AUTH_DIR = fileURLToPath(new URL("../packages/auth/", import.meta.url));

/** The client's entries, from its exports map: `@drill-practice/client`, `…/v2.1` and so on. */
async function clientEntries(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(`${CLIENT_DIR}package.json`, "utf8")) as {
    exports: Record<string, unknown>;
  };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith(".json"))
    .map((key) => `@drill-practice/client${key.slice(1)}`);
}

function capitalized(label: string): string {
  return `${label[0]?.toUpperCase()}${label.slice(1)}`;
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const authExternal = ["@drill-practice/client", "openapi-fetch", "node:*"];
  const entries = await clientEntries();
  const main = await runtimeExports("@drill-practice/client");
  const errorClasses = await clientErrorClasses();
  // The budgeted bundles come from the same code as the size-budget test.
  const budgeted = await measureClientBudgets();
  const specs: BundleSpec[] = [
    ...budgeted.map(({ size }) => size.spec),
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
    {
      label: "reference: openapi-fetch alone, browser",
      entry: 'export { default } from "openapi-fetch";',
      resolveDir: CLIENT_DIR,
      platform: "browser",
      external: [],
    },
    {
      label: "auth, Node, with jose",
      entry: 'export * from "@drill-practice/auth";',
      resolveDir: ROOT,
      platform: "node",
      external: authExternal,
    },
    {
      label: "auth, Node, without jose (external)",
      entry: 'export * from "@drill-practice/auth";',
      resolveDir: ROOT,
      platform: "node",
      external: [...authExternal, "jose"],
    },
    {
      label: "auth, browser, with jose",
      entry: 'export * from "@drill-practice/auth";',
      resolveDir: ROOT,
      platform: "browser",
      external: authExternal,
    },
    {
      label: "auth, browser, without jose (external)",
      entry: 'export * from "@drill-practice/auth";',
      resolveDir: ROOT,
      platform: "browser",
      external: [...authExternal, "jose"],
    },
    {
      label: "reference: jose `SignJWT` alone, Node",
      entry: 'export { SignJWT } from "jose";',
      resolveDir: AUTH_DIR,
      platform: "node",
      external: [],
    },
  ];
  const sizes = new Map<string, BundleSize>(budgeted.map(({ size }) => [size.spec.label, size]));
  for (const spec of specs) if (!sizes.has(spec.label)) sizes.set(spec.label, await bundle(spec));
  const get = (label: string): BundleSize => {
    const size = sizes.get(label);
    if (size === undefined) throw new Error(`no bundle ${label}`);
    return size;
  };

  // Per entry (its whole public API) and per export (imported alone), all for the browser.
  const perEntry: { entry: string; size: BundleSize }[] = [];
  const perExport: { entry: string; name: string; size: BundleSize }[] = [];
  for (const entry of entries) {
    perEntry.push({
      entry,
      size: await bundle(browserBundle(`${entry} (whole)`, `export * from "${entry}";`)),
    });
    const names = Object.keys(await runtimeExports(entry)).sort();
    for (const name of names) {
      // One-version entries re-export the main entry's helpers; those cost the same from either.
      if (entry !== "@drill-practice/client" && name !== "createDrillClient" && name in main) continue;
      const spec = browserBundle(`${entry}: ${name}`, `export { ${name} } from "${entry}";`);
      perExport.push({ entry, name, size: await bundle(spec) });
    }
  }

  const openapiFetch = get("reference: openapi-fetch alone, browser");
  const joseSign = get("reference: jose `SignJWT` alone, Node");
  const reference = `${formatBytes(openapiFetch.gzipped)} (openapi-fetch alone)`;
  const targetRow = ({ budget, size }: (typeof budgeted)[number]): ResultRow => {
    const target = budget.bytes;
    const met = size.gzipped <= target;
    return {
      metric: `${capitalized(budget.label)}, min + gzip`,
      ours: formatBytes(size.gzipped),
      reference,
      ratio: formatRatio(size.gzipped / openapiFetch.gzipped),
      target: `≤ ${target.toLocaleString("en-US")} B`,
      verdict: met ? "met" : "missed",
      ...(met ? {} : { miss: `${formatPercent(size.gzipped / target - 1)} over` }),
    };
  };
  const infoRow = (label: string, headline = false): ResultRow => {
    const size = get(label);
    return {
      metric: `${capitalized(label)}, min + gzip`,
      ours: formatBytes(size.gzipped),
      reference,
      ratio: formatRatio(size.gzipped / openapiFetch.gzipped),
      target: "—",
      verdict: "info",
      ...(headline ? { headline } : {}),
    };
  };
  const rows: ResultRow[] = [
    ...budgeted.map(targetRow),
    infoRow("client, Node, whole public API"),
    infoRow("client, browser, `createDrillClient` only"),
    infoRow("client, browser, every entry together", true),
  ];
  for (const label of ["auth, Node, with jose", "auth, Node, without jose (external)"]) {
    const size = get(label);
    rows.push({
      metric: `${capitalized(label)}, min + gzip`,
      ours: formatBytes(size.gzipped),
      reference: `${formatBytes(joseSign.gzipped)} (jose \`SignJWT\` alone)`,
      ratio: formatRatio(size.gzipped / joseSign.gzipped),
      target: "—",
      verdict: "info",
      headline: true,
    });
  }
  const details: DetailTable[] = [
    {
      title: "All bundles",
      headers: ["Bundle", "Minified", "Min + gzip", "What is inside (minified bytes in output)"],
      rows: specs.map((spec) => {
        const size = get(spec.label);
        return [spec.label, formatBytes(size.minified), formatBytes(size.gzipped), size.contents];
      }),
    },
    {
      title: "Client per entry of its exports map (browser, `export *` of the entry, openapi-fetch included)",
      headers: ["Entry", "Minified", "Min + gzip", "vs openapi-fetch alone"],
      rows: perEntry.map(({ entry, size }) => [
        `\`${entry}\``,
        formatBytes(size.minified),
        formatBytes(size.gzipped),
        formatRatio(size.gzipped / openapiFetch.gzipped),
      ]),
    },
    {
      title:
        "Client per export, each imported alone (browser, openapi-fetch included where the export needs it; " +
        "helpers the one-version entries re-export are listed once, under the main entry)",
      headers: ["Entry", "Export", "Minified", "Min + gzip"],
      rows: perExport.map(({ entry, name, size }) => [
        `\`${entry}\``,
        `\`${name}\``,
        formatBytes(size.minified),
        formatBytes(size.gzipped),
      ]),
    },
  ];
  const clientBrowser = get("client, browser, whole public API");
  const clientFiles = [...clientBrowser.files]
    .filter(([path, bytes]) => path.includes("packages/client/") && bytes > 0)
    .sort((a, b) => b[1] - a[1]);
  details.push({
    title: "Client's own files in the browser bundle (whole public API), largest first",
    headers: ["File", "Minified bytes in output"],
    rows: clientFiles.map(([path, bytes]) => [
      `\`${path.slice(path.indexOf("packages/client/"))}\``,
      bytes.toLocaleString("en-US"),
    ]),
  });
  const authImports = get("auth, Node, without jose (external)").runtimeImports;
  const notes = [
    `The client's own code adds ${formatBytes(clientBrowser.gzipped - openapiFetch.gzipped)} gzipped to openapi-fetch ` +
      "in the browser bundle of the main entry's whole public API. The errors counted with `createDrillClient` and " +
      `\`unwrap\` are every error class the main entry exports (${errorClasses.map((name) => `\`${name}\``).join(", ")}). ` +
      "The auth bundles leave out `@drill-practice/client` and " +
      "`openapi-fetch` (an application using auth has them already) and the `node:` built-ins; auth is meant for " +
      "servers, and its browser bundle is shown only to compare sizes. At run time the auth bundle without jose " +
      `still imports: ${authImports.length === 0 ? "nothing" : authImports.map((name) => `\`${name}\``).join(", ")}.`,
  ];
  for (const { budget, size } of budgeted) {
    const target = budget.bytes;
    if (size.gzipped <= target) continue;
    const top = [...size.files]
      .filter(([path, bytes]) => path.includes("packages/client/") && bytes > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([path, bytes]) => `\`${path.split("/").pop()}\` ${bytes.toLocaleString("en-US")} B`)
      .join(", ");
    notes.push(
      `**Missed** for ${budget.label} by ${(size.gzipped - target).toLocaleString("en-US")} B gzipped ` +
        `(${formatPercent(size.gzipped / target - 1)}). openapi-fetch takes ${formatBytes(openapiFetch.gzipped)} of ` +
        `the budget on its own; the client's own code is the rest, largest files (minified): ${top}.`,
    );
  }
  return {
    name: "bundle-size",
    title: "Bundle size",
    measured:
      "Size of `@drill-practice/client` and `@drill-practice/auth` bundled by esbuild's JS API from their built `dist` " +
      "(ESM, `target: es2022`, minified, tree-shaken from an entry that re-exports the package or the named exports), " +
      "gzipped with node:zlib at level 9. References: openapi-fetch bundled alone (what the client wraps) and jose's " +
      "`SignJWT` alone (what auth signs with), bundled in the same run. The client is also bundled per entry of its " +
      "exports map and per export.",
    setup: [
      "esbuild 0.28.2, `bundle: true, minify: true, format: 'esm', legalComments: 'none'`",
      `Budgets (1 kB = 1,000 B): ${CLIENT_BUDGETS.map(
        (budget) =>
          `${budget.label.replace("client, browser, ", "")} ≤ ${budget.bytes.toLocaleString("en-US")} B`,
      ).join("; ")}`,
    ],
    rows,
    details,
    notes,
    durationMs: now() - started,
  };
}
