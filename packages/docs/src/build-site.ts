import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  exampleAnsweredOperations,
  PROGRAMMABLE_RESPONSES,
  SIMULATED_OPERATIONS,
} from "@drill-practice/sandbox";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import { changesSections, renderChanges } from "./changes-page.ts";
import { addCodeSamples } from "./code-samples.ts";
import { addComponentNotes } from "./component-notes.ts";
import { showErrorTables } from "./error-responses.ts";
import { renderErrorsPage } from "./errors-page.ts";
import { groupRedirects } from "./group-redirects.ts";
import { layoutGuidePage } from "./guide-layout.ts";
import { linkGuideSchemas } from "./guide-links.ts";
import { migrationPage } from "./migration-page.ts";
import { findRemoteReferences, localizeRedocAssets, redocCreditFile } from "./offline-assets.ts";
import { asOpenApiDocument, listOperations, type OpenApiDocument } from "./openapi-document.ts";
import { addOperationNotes, operationLabels, type SandboxSupport } from "./operation-notes.ts";
import { fillMarkers } from "./page-markers.ts";
import { precompress } from "./precompress.ts";
import { runBuildDocs } from "./redoc-build.ts";
import { redocDefinition } from "./redoc-definition.ts";
import { type SampleValues, sampleValues } from "./sample-values.ts";
import { pruneServerStyles } from "./server-styles.ts";
import { withSandboxServer } from "./servers.ts";
import { splitRedocBundle } from "./shared-redoc.ts";
import { type ApiVersion, apiVersions, colorModeHead, renderSiteHeader } from "./site-header.ts";
import { labelTableCells } from "./table-labels.ts";
import { addTryItToSite } from "./try-it/site.ts";

/** The package directory (`packages/docs`). */
export const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Options for {@link buildSite}. */
export interface BuildSiteOptions {
  /** Where the site is written; emptied first. Default `<package>/dist`. */
  outDir?: string;
  /**
   * Directory holding `openapi-v2.1.json` and `openapi-v2.0.json`. Default: the bundles of the
   * `@drill-practice/spec` package (`spec/dist`).
   */
  specDir?: string;
  /**
   * The released baseline the Changes page compares with (`spec/baseline`). Default: the spec
   * package's when `specDir` is the default, none otherwise (the page then says there is none).
   */
  baselineDir?: string;
  /** Receives one line per step. Default: silent. */
  log?: (line: string) => void;
}

/** What {@link buildSite} wrote for one API version. */
export interface BuiltVersion {
  id: string;
  /** The reference page, relative to the output directory. */
  page: string;
  operations: number;
  /** Operations that carry `x-undocumented` and received a visible note. */
  noted: number;
  /** Operations with a note on observed facts (`x-observed`). */
  observed: number;
  /** Schemas and security schemes that carry `x-undocumented` and received a visible note. */
  notedComponents: number;
  /** The shared Redoc bundle the page imports, relative to the output directory. */
  redocBundle: string;
}

/** What {@link buildSite} wrote. */
export interface BuiltSite {
  outDir: string;
  versions: BuiltVersion[];
  /** Every file written, relative to the output directory. */
  files: string[];
}

const siteDir = join(packageDir, "site");

function bundlePath(version: ApiVersion, specDir: string | undefined): string {
  if (specDir !== undefined) return join(specDir, version.bundle);
  const require = createRequire(import.meta.url);
  try {
    return require.resolve(`@drill-practice/spec/${version.bundle}`);
  } catch {
    throw new Error(
      `the bundle ${version.bundle} of @drill-practice/spec is missing; ` +
        "run `pnpm --filter @drill-practice/spec generate` (or `pnpm docs` from the root, which does it first)",
    );
  }
}

async function readBundle(path: string): Promise<OpenApiDocument> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new Error(`cannot read the bundle ${path}; run \`pnpm --filter @drill-practice/spec generate\``);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return asOpenApiDocument(parsed, path);
}

/** A per-version bundle must hold only its own version's API paths (plus token exchange and discovery). */
function checkVersionPaths(bundle: OpenApiDocument, version: ApiVersion, source: string): void {
  const foreign = listOperations(bundle)
    .map((entry) => entry.path)
    .filter((path) => path.startsWith("/api/") && !path.startsWith(version.prefix));
  if (foreign.length > 0) {
    throw new Error(
      `${source}: paths outside ${version.prefix} in the ${version.id} bundle: ${foreign.join(", ")}`,
    );
  }
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full, base)));
    else files.push(relative(base, full));
  }
  return files.sort();
}

/**
 * Redoc prints the title followed by the version in brackets, so a title that already ends in
 * its version would read "… API 2.1 (2.1)". The rendered copy drops that trailing version.
 */
function withDisplayTitle(document: OpenApiDocument): OpenApiDocument {
  const suffix = ` ${document.info.version}`;
  if (!document.info.title.endsWith(suffix)) return document;
  return { ...document, info: { ...document.info, title: document.info.title.slice(0, -suffix.length) } };
}

/** How the sandbox answers each operation, from the sandbox package itself. */
export const sandboxSupport: SandboxSupport = {
  simulated: SIMULATED_OPERATIONS,
  programmable: PROGRAMMABLE_RESPONSES.operations === "all",
};

let examplesOnce: Promise<Record<string, string>> | undefined;

async function buildReference(
  version: ApiVersion,
  bundle: OpenApiDocument,
  outDir: string,
  workDir: string,
  values: SampleValues,
  labels: ReadonlyMap<string, string>,
): Promise<BuiltVersion> {
  const sampled = addCodeSamples(bundle, values).document;
  // The sandbox reads the same description, so its example answers match the operations here.
  examplesOnce ??= exampleAnsweredOperations();
  const support: SandboxSupport = { ...sandboxSupport, examples: await examplesOnce };
  const { document: operationsNoted, noted, observed } = addOperationNotes(sampled, support, labels);
  const { document: componentsNoted, noted: notedComponents } = addComponentNotes(operationsNoted);
  const document = showErrorTables(linkGuideSchemas(componentsNoted)).document;
  const input = join(workDir, version.bundle);
  // Redoc is given only what it renders; the notes above already carry the spec's markers.
  await writeFile(input, JSON.stringify(redocDefinition(withSandboxServer(withDisplayTitle(document)))));

  const template = join(workDir, `reference-${version.dir}.hbs`);
  const templateSource = await readFile(join(siteDir, "reference.hbs"), "utf8");
  await writeFile(
    template,
    fillMarkers(
      templateSource,
      { "site-header": renderSiteHeader({ kind: "reference", version: version.id }, "../") },
      "site/reference.hbs",
    ),
  );

  const page = join(version.dir, "index.html");
  const output = join(outDir, page);
  await runBuildDocs({
    input,
    output,
    template,
    config: join(packageDir, "redocly.yaml"),
    title: `API ${version.id} reference · Drill Practice API`,
  });
  const split = splitRedocBundle(localizeRedocAssets(await readFile(output, "utf8"), "../"), "../");
  // Redoc's script injects its whole theme again on hydrating; the first paint needs only a part.
  await writeFile(output, pruneServerStyles(split.html).html);
  await mkdir(join(outDir, dirname(split.file)), { recursive: true });
  await writeFile(join(outDir, split.file), split.source);
  // The unmodified bundle, for the reference's download button and for tooling.
  await writeFile(join(outDir, version.dir, "openapi.json"), `${JSON.stringify(bundle, null, 2)}\n`);
  return {
    id: version.id,
    page,
    operations: listOperations(bundle).length,
    noted: noted.length,
    observed: observed.length,
    notedComponents: notedComponents.length,
    redocBundle: split.file,
  };
}

/** The guide pages (landing, authentication, errors, versioning, changes, migration) and group redirects. */
async function writeGuides(
  outDir: string,
  bundles: readonly { version: ApiVersion; bundle: OpenApiDocument }[],
  options: BuildSiteOptions,
): Promise<void> {
  // The landing page counts the operations under each version's prefix; the token exchange and
  // discovery, which every reference also lists, carry no version and are not counted in.
  const counts = Object.fromEntries(
    bundles.map(({ version, bundle }) => [
      `operations-${version.id}`,
      String(listOperations(bundle).filter((entry) => entry.path.startsWith(version.prefix)).length),
    ]),
  );
  const specDir = options.specDir ?? dirname(bundlePath(apiVersions[0] as ApiVersion, options.specDir));
  const baselineDir =
    options.baselineDir ??
    (options.specDir === undefined ? join(specDir, "..", "baseline") : join(outDir, "no-baseline"));
  const guides: { file: string; values: Record<string, string> }[] = [
    { file: "index.html", values: counts },
    { file: "authentication.html", values: {} },
    { file: "errors.html", values: { "error-tables": renderErrorsPage(bundles.map((b) => b.bundle)) } },
    { file: "versioning.html", values: {} },
    { file: "check-integration.html", values: {} },
    { file: "changes.html", values: { changes: renderChanges(changesSections(baselineDir, specDir)) } },
    { file: "migrating.html", values: { migration: migrationPage(bundles.map((b) => b.bundle)) } },
  ];
  const guideFiles = guides.map((guide) => guide.file);
  for (const redirect of groupRedirects(bundles, guideFiles)) {
    await mkdir(join(outDir, redirect.dir), { recursive: true });
    await writeFile(join(outDir, redirect.dir, "index.html"), redirect.html);
  }
  const layout = await readFile(join(siteDir, "layout.html"), "utf8");
  for (const guide of guides) {
    const source = `site/${guide.file}`;
    const page = fillMarkers(await readFile(join(siteDir, guide.file), "utf8"), guide.values, source);
    const header = renderSiteHeader({ kind: "guide", file: guide.file }, "");
    const html = layoutGuidePage(
      layout,
      page,
      { "site-header": header, "color-mode": colorModeHead },
      source,
    );
    // A scrolling code block must be reachable by keyboard to be scrolled without a mouse; a
    // table stacked on a phone labels each cell with its column's header.
    await writeFile(join(outDir, guide.file), labelTableCells(html.replace(/<pre>/g, '<pre tabindex="0">')));
  }
}

/** Fails the build if any page would load something from another origin. */
async function refuseRemoteReferences(outDir: string, files: readonly string[]): Promise<void> {
  for (const file of files) {
    if (![".html", ".css", ".svg"].includes(extname(file))) continue;
    const remote = findRemoteReferences(await readFile(join(outDir, file), "utf8"));
    if (remote.length > 0) {
      throw new Error(
        `${file} would load from another origin: ${remote.map((r) => `${r.kind} ${r.url}`).join(", ")}`,
      );
    }
  }
}

/**
 * Builds the static documentation site: one Redoc reference per API version (with the
 * `x-undocumented` notes made visible), the landing page, the authentication guide and the
 * shared assets. Fails if any page would load something from another origin.
 */
export async function buildSite(options: BuildSiteOptions = {}): Promise<BuiltSite> {
  const outDir = options.outDir ?? join(packageDir, "dist");
  const log = options.log ?? (() => {});

  // Read in parallel, but report a problem in version order, so the same bad input always gets the same message.
  const reads = await Promise.allSettled(
    apiVersions.map(async (version) => {
      const path = bundlePath(version, options.specDir);
      const bundle = await readBundle(path);
      checkVersionPaths(bundle, version, path);
      return { version, bundle, path };
    }),
  );
  const bundles = reads.map((read) => {
    if (read.status === "rejected") throw read.reason;
    return read.value;
  });
  for (const { bundle, path } of bundles) log(`read ${path} (${listOperations(bundle).length} operations)`);

  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  for (const version of apiVersions) await mkdir(join(outDir, version.dir), { recursive: true });

  const values = sampleValues(bundles.map((entry) => entry.bundle));
  const labels = operationLabels(bundles.map((entry) => entry.bundle));
  const versions = await withScratchDir("drill-docs-", (workDir) =>
    Promise.all(
      bundles.map(({ version, bundle }) => buildReference(version, bundle, outDir, workDir, values, labels)),
    ),
  );
  for (const built of versions) {
    log(
      `wrote ${built.page} (${built.operations} operations with code samples, ${built.noted} with a ` +
        `"not shown" note, ${built.observed} with an observed-facts note, ${built.notedComponents} schemas and ` +
        'schemes with a "not shown" note)',
    );
  }
  await addTryItToSite(outDir, bundles, values);
  if (new Set(versions.map((built) => built.redocBundle)).size !== 1) {
    throw new Error("the references were built with different Redoc bundles; they must share one");
  }

  await writeGuides(outDir, bundles, options);
  for (const asset of ["style.css", "favicon.svg", redocCreditFile]) {
    await copyFile(join(siteDir, asset), join(outDir, asset));
  }

  const files = await listFiles(outDir);
  await refuseRemoteReferences(outDir, files);
  const compressed = await precompress(outDir, files);
  log(`site ready in ${outDir} (${files.length} files, ${compressed.length} precompressed copies)`);
  return { outDir, versions, files };
}
