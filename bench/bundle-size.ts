/**
 * Bundle size: the client and auth packages bundled with esbuild (from their built `dist`, as an
 * application would import them), minified and gzipped, next to the libraries they build on.
 */

import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Platform } from "esbuild";
import type { BenchmarkResult, DetailTable, ResultRow } from "./report.ts";
import { formatBytes, formatPercent, formatRatio, now } from "./stats.ts";

const CLIENT_TARGET_BYTES = 8000;
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

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const authExternal = ["@drill-practice/client", "openapi-fetch", "node:*"];
  const specs: BundleSpec[] = [
    {
      label: "client, browser, whole public API",
      entry: 'export * from "@drill-practice/client";',
      resolveDir: ROOT,
      platform: "browser",
      external: [],
    },
    {
      label: "client, Node, whole public API",
      entry: 'export * from "@drill-practice/client";',
      resolveDir: ROOT,
      platform: "node",
      external: [],
    },
    {
      label: "client, browser, `createDrillClient` only",
      entry: 'export { createDrillClient } from "@drill-practice/client";',
      resolveDir: ROOT,
      platform: "browser",
      external: [],
    },
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

  const openapiFetch = get("reference: openapi-fetch alone, browser");
  const joseSign = get("reference: jose `SignJWT` alone, Node");
  const rows: ResultRow[] = [];
  for (const label of ["client, browser, whole public API", "client, Node, whole public API"]) {
    const size = get(label);
    const met = size.gzipped <= CLIENT_TARGET_BYTES;
    rows.push({
      metric: `${label[0]?.toUpperCase()}${label.slice(1)}, min + gzip`,
      ours: formatBytes(size.gzipped),
      reference: `${formatBytes(openapiFetch.gzipped)} (openapi-fetch alone)`,
      ratio: formatRatio(size.gzipped / openapiFetch.gzipped),
      target: "≤ 8 kB (8,000 B)",
      verdict: met ? "met" : "missed",
      ...(met ? {} : { miss: `${formatPercent(size.gzipped / CLIENT_TARGET_BYTES - 1)} over` }),
    });
  }
  const createOnly = get("client, browser, `createDrillClient` only");
  rows.push({
    metric: "Client, browser, `createDrillClient` only, min + gzip",
    ours: formatBytes(createOnly.gzipped),
    reference: `${formatBytes(openapiFetch.gzipped)} (openapi-fetch alone)`,
    ratio: formatRatio(createOnly.gzipped / openapiFetch.gzipped),
    target: "—",
    verdict: "info",
  });
  for (const label of ["auth, Node, with jose", "auth, Node, without jose (external)"]) {
    const size = get(label);
    rows.push({
      metric: `${label[0]?.toUpperCase()}${label.slice(1)}, min + gzip`,
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
      "in the browser bundle (whole public API). The auth bundles leave out `@drill-practice/client` and " +
      "`openapi-fetch` (an application using auth has them already) and the `node:` built-ins; auth is meant for " +
      "servers, and its browser bundle is shown only to compare sizes. At run time the auth bundle without jose " +
      `still imports: ${authImports.length === 0 ? "nothing" : authImports.map((name) => `\`${name}\``).join(", ")}.`,
  ];
  if (clientBrowser.gzipped > CLIENT_TARGET_BYTES) {
    const top = clientFiles
      .slice(0, 3)
      .map(([path, bytes]) => `\`${path.split("/").pop()}\` ${bytes.toLocaleString("en-US")} B`)
      .join(", ");
    notes.push(
      `**Missed** by ${(clientBrowser.gzipped - CLIENT_TARGET_BYTES).toLocaleString("en-US")} B gzipped ` +
        `(${formatPercent(clientBrowser.gzipped / CLIENT_TARGET_BYTES - 1)}). openapi-fetch takes ` +
        `${formatBytes(openapiFetch.gzipped)} of the budget on its own; the client's own code is the rest, largest ` +
        `files (minified): ${top}. An application importing only \`createDrillClient\` gets ` +
        `${formatBytes(createOnly.gzipped)}${createOnly.gzipped <= CLIENT_TARGET_BYTES ? ", within the target" : ""}. ` +
        "Ways under the target: move helpers that not every application uses (pagination, for one) to a " +
        "separate entry point, so that `export *` no longer pulls them in, and trim the transport's and the retry " +
        "policy's code.",
    );
  }
  return {
    name: "bundle-size",
    title: "Bundle size",
    measured:
      "Size of `@drill-practice/client` and `@drill-practice/auth` bundled by esbuild's JS API from their built `dist` " +
      "(ESM, `target: es2022`, minified, tree-shaken from an entry that re-exports the package), gzipped with " +
      "node:zlib at level 9. References: openapi-fetch bundled alone (what the client wraps) and jose's `SignJWT` alone " +
      "(what auth signs with).",
    setup: [
      "esbuild 0.28.2, `bundle: true, minify: true, format: 'esm', legalComments: 'none'`",
      "Target ≤ 8 kB applies to the client (1 kB = 1,000 B here)",
    ],
    rows,
    details,
    notes,
    durationMs: now() - started,
  };
}
