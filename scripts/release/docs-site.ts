/**
 * The GitHub Pages site of the released docs: each release's build under `v<version>/`, kept from
 * one release to the next (the release workflow checks out the `gh-pages` branch, adds the new
 * release and pushes it back), `latest/` a copy of the newest, and a root page listing them all.
 *
 * Usage: tsx scripts/release/docs-site.ts --built <dir> --site <dir> --version <x.y.z>
 */
import { cp, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Versions newest first (pre-releases after their release's numbers compare equal). */
function byNewest(a: string, b: string): number {
  const parts = (version: string) => version.split(/[.-]/).map((part) => Number(part));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return b.localeCompare(a);
}

function indexPage(versions: readonly string[]): string {
  const items = versions.map((version) => `    <li><a href="v${version}/">${version}</a></li>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Drill Practice SDK documentation</title>
  <meta http-equiv="refresh" content="0; url=latest/">
</head>
<body>
  <p>The documentation of the latest release is at <a href="latest/">latest/</a>. Every release:</p>
  <ul>
${items}
  </ul>
</body>
</html>
`;
}

/**
 * Adds a release's built docs to the site and returns every version it now holds, newest first.
 *
 * @example
 * ```ts
 * import { addRelease } from "./docs-site.ts";
 *
 * const versions = await addRelease({ built: "packages/docs/dist", site: "site", version: "0.2.0" });
 * console.log(versions); // ["0.2.0", …the earlier releases]
 * ```
 */
export async function addRelease(options: {
  built: string;
  site: string;
  version: string;
}): Promise<string[]> {
  const { built, site, version } = options;
  if (!SEMVER.test(version))
    throw new Error(`--version must be a version such as 1.2.3 (got ${JSON.stringify(version)})`);
  await mkdir(site, { recursive: true });
  for (const dir of [`v${version}`, "latest"]) {
    await rm(join(site, dir), { recursive: true, force: true });
    await cp(built, join(site, dir), { recursive: true });
  }
  const versions = (await readdir(site, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && SEMVER.test(entry.name.slice(1)) && entry.name.startsWith("v"))
    .map((entry) => entry.name.slice(1))
    .sort(byNewest);
  const newest = versions[0];
  // An older release rebuilt later must not take `latest/` from the newest.
  if (newest !== undefined && newest !== version) {
    await rm(join(site, "latest"), { recursive: true, force: true });
    await cp(join(site, `v${newest}`), join(site, "latest"), { recursive: true });
  }
  await writeFile(join(site, "versions.json"), `${JSON.stringify(versions, null, 2)}\n`);
  await writeFile(join(site, "index.html"), indexPage(versions));
  // Served as they are: no Jekyll processing of the files.
  await writeFile(join(site, ".nojekyll"), "");
  return versions;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({
      options: { built: { type: "string" }, site: { type: "string" }, version: { type: "string" } },
      strict: true,
    });
    if (!values.built || !values.site || !values.version)
      throw new Error("--built, --site and --version are all needed");
    const versions = await addRelease({ built: values.built, site: values.site, version: values.version });
    console.log(`docs-site: ${values.site} holds ${versions.join(", ")}; latest/ is ${versions[0]}`);
  } catch (error) {
    console.error(`docs-site: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
