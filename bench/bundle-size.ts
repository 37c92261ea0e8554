/**
 * Bundle size: the client and auth packages bundled with esbuild (from their built `dist`, as an
 * application would import them), minified and gzipped, next to the libraries they build on; for
 * the client also each entry of its exports map and each export on its own.
 */

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Platform } from "esbuild";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import { formatBytes, formatPercent, formatRatio, now } from "./stats.ts";

/** The main entry's whole public API (`export *`), min + gzip. */
const CLIENT_TARGET_BYTES = 7000;
/** `createDrillClient` + `unwrap` + the error classes, min + gzip. */
const CLIENT_CORE_TARGET_BYTES = 5000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLIENT_DIR = fileURLToPath(new URL("../packages/client/", import.meta.url));
const AUTH_DIR = fileURLToPath(new URL("../packages/auth/", import.meta.url));

interface BundleSpec {
  readonly label: string;
  /** Source of the entry module. */
  readonly entry: string;
  /** Where bare imports of the entry resolve from. */
  readonly resolveDir: string;
  readonly platform: Platform;
  readonly external: readonly string[];
}

interface BundleSize {
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

async function bundle(spec: BundleSpec): Promise<BundleSize> {
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

/** The client's entries, from its exports map: `@drill-practice/client`, `…/v2.1` and so on. */
async function clientEntries(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(`${CLIENT_DIR}package.json`, "utf8")) as {
    exports: Record<string, unknown>;
  };
  return Object.keys(manifest.exports)
    .filter((key) => !key.endsWith(".json"))
    .map((key) => `@drill-practice/client${key.slice(1)}`);
}

/** The run-time exports of an entry, as an application sees them. */
async function runtimeExports(entry: string): Promise<Record<string, unknown>> {
  return { ...((await import(entry)) as Record<string, unknown>) };
}

function isErrorClass(value: unknown): boolean {
  return typeof value === "function" && value.prototype instanceof Error;
}

function capitalized(label: string): string {
  return `${label[0]?.toUpperCase()}${label.slice(1)}`;
}

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const authExternal = ["@drill-practice/client", "openapi-fetch", "node:*"];
  const entries = await clientEntries();
  const main = await runtimeExports("@drill-practice/client");
  const errorClasses = Object.keys(main)
    .filter((name) => isErrorClass(main[name]))
    .sort();
  const coreNames = ["createDrillClient", "unwrap", ...errorClasses];
  const browser = (label: string, entry: string): BundleSpec => ({
    label,
    entry,
    resolveDir: ROOT,
    platform: "browser",
    external: [],
  });
  const specs: BundleSpec[] = [
    browser("client, browser, whole public API", 'export * from "@drill-practice/client";'),
    {
      ...browser("client, Node, whole public API", 'export * from "@drill-practice/client";'),
      platform: "node",
    },
    browser(
      "client, browser, `createDrillClient` + `unwrap` + the errors",
      `export { ${coreNames.join(", ")} } from "@drill-practice/client";`,
    ),
    browser(
      "client, browser, `createDrillClient` only",
      'export { createDrillClient } from "@drill-practice/client";',
    ),
    browser(
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
  const sizes = new Map<string, BundleSize>();
  for (const spec of specs) sizes.set(spec.label, await bundle(spec));
  const get = (label: string): BundleSize => {
    const size = sizes.get(label);
    if (size === undefined) throw new Error(`no bundle ${label}`);
    return size;
  };

  // Per entry (its whole public API) and per export (imported alone), all for the browser.
  const perEntry: { entry: string; size: BundleSize }[] = [];
  const perExport: { entry: string; name: string; size: BundleSize }[] = [];
  for (const entry of entries) {
    perEntry.push({ entry, size: await bundle(browser(`${entry} (whole)`, `export * from "${entry}";`)) });
    const names = Object.keys(await runtimeExports(entry)).sort();
    for (const name of names) {
      // One-version entries re-export the main entry's helpers; those cost the same from either.
      if (entry !== "@drill-practice/client" && name !== "createDrillClient" && name in main) continue;
      const spec = browser(`${entry}: ${name}`, `export { ${name} } from "${entry}";`);
      perExport.push({ entry, name, size: await bundle(spec) });
    }
  }

  const openapiFetch = get("reference: openapi-fetch alone, browser");
  const joseSign = get("reference: jose `SignJWT` alone, Node");
  const reference = `${formatBytes(openapiFetch.gzipped)} (openapi-fetch alone)`;
  const targetRow = (label: string, target: number): ResultRow => {
    const size = get(label);
    const met = size.gzipped <= target;
    return {
      metric: `${capitalized(label)}, min + gzip`,
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
    targetRow("client, browser, whole public API", CLIENT_TARGET_BYTES),
    targetRow("client, browser, `createDrillClient` + `unwrap` + the errors", CLIENT_CORE_TARGET_BYTES),
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
  const core = get("client, browser, `createDrillClient` + `unwrap` + the errors");
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
  for (const [size, target, what] of [
    [clientBrowser, CLIENT_TARGET_BYTES, "the whole public API"],
    [core, CLIENT_CORE_TARGET_BYTES, "`createDrillClient` + `unwrap` + the errors"],
  ] as const) {
    if (size.gzipped <= target) continue;
    const top = [...size.files]
      .filter(([path, bytes]) => path.includes("packages/client/") && bytes > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([path, bytes]) => `\`${path.split("/").pop()}\` ${bytes.toLocaleString("en-US")} B`)
      .join(", ");
    notes.push(
      `**Missed** for ${what} by ${(size.gzipped - target).toLocaleString("en-US")} B gzipped ` +
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
      `Targets (1 kB = 1,000 B): main entry's whole public API ≤ ${CLIENT_TARGET_BYTES.toLocaleString("en-US")} B; ` +
        `\`createDrillClient\` + \`unwrap\` + the errors ≤ ${CLIENT_CORE_TARGET_BYTES.toLocaleString("en-US")} B`,
    ],
    rows,
    details,
    notes,
    durationMs: now() - started,
  };
}
