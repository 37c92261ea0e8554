import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageDir } from "../../src/build-site.ts";
import { asOpenApiDocument, listOperations, type OpenApiDocument } from "../../src/openapi-document.ts";
import { type ApiVersion, apiVersions } from "../../src/site-header.ts";

/** The built site the tests check (`pnpm docs` writes it; turbo runs that before the tests). */
export const distDir = join(packageDir, "dist");

/** Where the browser tests leave their screenshots for review (gitignored). */
export const screenshotDir = join(packageDir, "screenshots");

/** The hand-written pages and the references, relative to the site root. */
export const sitePages = [
  { name: "index", path: "index.html" },
  { name: "authentication", path: "authentication.html" },
  { name: "errors", path: "errors.html" },
  { name: "versioning", path: "versioning.html" },
  { name: "check-integration", path: "check-integration.html" },
  { name: "changes", path: "changes.html" },
  { name: "migrating", path: "migrating.html" },
  ...apiVersions.map((version) => ({ name: version.dir, path: `${version.dir}/index.html` })),
] as const;

/** Fails with a hint instead of a pile of ENOENTs when the site was not built (synchronous, for test collection too). */
export function assertSiteBuilt(): void {
  if (!existsSync(join(distDir, "index.html"))) {
    throw new Error(
      `${distDir}/index.html is missing: build the site first (\`pnpm docs\`, or \`pnpm test\` via turbo)`,
    );
  }
}

/** A per-version bundle of `@drill-practice/spec`, as the site was built from it. */
export async function loadBundle(version: ApiVersion): Promise<OpenApiDocument> {
  const require = createRequire(import.meta.url);
  const path = require.resolve(`@drill-practice/spec/${version.bundle}`);
  return asOpenApiDocument(JSON.parse(await readFile(path, "utf8")), path);
}

/** The operationIds of a bundle; every operation of ours has one. */
export function operationIds(bundle: OpenApiDocument): string[] {
  return listOperations(bundle).map(({ method, path, operation }) => {
    if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
    return operation.operationId;
  });
}

/** Pulls the API description Redoc embedded in a built reference page back out. */
export function embeddedDefinition(html: string): OpenApiDocument {
  const match = /const __redoc_definition = (\{.*?\});\s*const __redoc_options/s.exec(html);
  if (!match?.[1]) throw new Error("no embedded __redoc_definition found in the page");
  return asOpenApiDocument(JSON.parse(match[1]), "embedded definition");
}

/** One operation's code samples as the built reference shows them. */
export interface BuiltSamples {
  version: ApiVersion;
  method: string;
  path: string;
  operationId: string;
  typescript: string;
  curl: string;
}

/** Every operation's samples from the built references, each operationId once (shared operations appear in both). */
export async function builtSamples(): Promise<BuiltSamples[]> {
  const byId = new Map<string, BuiltSamples>();
  for (const version of apiVersions) {
    const html = await readFile(join(distDir, version.dir, "index.html"), "utf8");
    for (const { method, path, operation } of listOperations(embeddedDefinition(html))) {
      const samples = operation["x-codeSamples"] as { lang: string; source: string }[] | undefined;
      const typescript = samples?.find((s) => s.lang === "TypeScript")?.source;
      const curl = samples?.find((s) => s.lang === "curl")?.source;
      const id = operation.operationId ?? `${method} ${path}`;
      if (typescript === undefined || curl === undefined)
        throw new Error(`${id}: no TypeScript or curl sample`);
      if (!byId.has(id)) byId.set(id, { version, method, path, operationId: id, typescript, curl });
    }
  }
  return [...byId.values()];
}

/**
 * Whether an error answer shows that a sample reached its operation well formed: a sample of a
 * stateful operation names records by placeholder (`test-1`), which a fresh sandbox refuses with the
 * operation's own identifier; `invalid_request` (the request broke the description) and
 * `not_simulated` do not count.
 */
export function refusedForItsRecords(id: string | undefined): boolean {
  return id !== undefined && id !== "invalid_request" && id !== "not_simulated";
}

/**
 * Operations whose sample, run as printed, removes a record the other samples name: deleting the
 * account `user-ana` (`DELETE /api/2.1.1/user/user-ana`) would leave every later sample about her
 * refused.
 */
const REMOVES_SHARED_RECORDS = new Set(["deleteUser_v2_1_1"]);

/** Samples in the order they run against one sandbox: those of {@link REMOVES_SHARED_RECORDS} last. */
export function inRunOrder<T extends { readonly operationId: string }>(samples: readonly T[]): T[] {
  const last = (sample: T) => REMOVES_SHARED_RECORDS.has(sample.operationId);
  return [...samples.filter((sample) => !last(sample)), ...samples.filter(last)];
}
