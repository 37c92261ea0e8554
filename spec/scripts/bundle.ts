/**
 * Builds spec/dist/: `openapi.json` (every version) and one bundle per API
 * version (`openapi-v2.1.1.json`, `openapi-v2.1.json`, `openapi-v2.0.json`: the
 * list in `@drill-practice/tooling/api-versions`). Redocly bundles each API named in redocly.yaml (the
 * per-version ones keep only their operations through the `filter-in`
 * decorator); this script then drops the tags and tag groups that the filter
 * left without operations, so each version's docs show only its own menu.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import { pruneUnusedTags } from "./prune-tags.ts";
import { restoreComponents } from "./restore-components.ts";

const specDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const distDir = join(specDir, "dist");
const redocly = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

/**
 * Schemas no operation carries but every integrator needs (the key file and
 * the assertion's header and claims). Redocly's `remove-unused-components`
 * drops them from the per-version bundles, so they are copied back from the
 * full bundle.
 */
const AUTH_SCHEMAS = ["ServiceAccountKeyFile", "AssertionHeader", "AssertionClaims"] as const;

const targets = [
  { api: "drill_practice", file: "openapi.json", version: undefined },
  ...API_VERSIONS.map((version) => ({ api: version.redoclyApi, file: version.bundle, version: version.id })),
];

await rm(distDir, { recursive: true, force: true });
await mkdir(distDir, { recursive: true });

let full: Record<string, unknown> | undefined;
for (const { api, file, version } of targets) {
  const output = join(distDir, file);
  execFileSync(
    process.execPath,
    [redocly, "bundle", api, "--config", "redocly.yaml", "--output", output, "--ext", "json"],
    {
      cwd: specDir,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  const document = JSON.parse(await readFile(output, "utf8")) as Record<string, unknown>;
  let pruned = pruneUnusedTags(document);
  if (full === undefined) full = pruned;
  else {
    pruned = restoreComponents(pruned, full);
    keepAuthSchemas(pruned, full);
  }
  if (version !== undefined) {
    const info = pruned.info as Record<string, unknown>;
    pruned.info = { ...info, title: `Drill Practice Service API ${version}`, version };
  }
  await writeFile(output, `${JSON.stringify(pruned, null, 2)}\n`);
  console.log(`spec: wrote dist/${file}`);
}

function keepAuthSchemas(target: Record<string, unknown>, source: Record<string, unknown>): void {
  const from = (source.components as { schemas: Record<string, unknown> }).schemas;
  const components = (target.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = { ...components.schemas };
  target.components = { ...components, schemas };
  for (const name of AUTH_SCHEMAS) {
    if (!(name in from)) throw new Error(`spec bundle: schema ${name} is missing from the full bundle`);
    schemas[name] = from[name];
  }
}
