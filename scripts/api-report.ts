/**
 * The API report of every public entry of the package in the current
 * directory, with `@microsoft/api-extractor`: one `etc/<entry>.api.md` per
 * entry of the exports map (the internal subpath excepted), committed. Run by
 * `check:package` in `pnpm test`, it fails when an entry's surface differs from
 * its committed report; `--update` rewrites the reports after an intended change.
 *
 * Usage: tsx scripts/api-report.ts [--update]
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from "@microsoft/api-extractor";

/** Subpaths that are not part of the public contract, so carry no report. */
const INTERNAL = new Set(["./internal", "./package.json"]);

const update = process.argv.includes("--update");
const packageDir = process.cwd();
const packageJsonPath = join(packageDir, "package.json");
const manifest = JSON.parse(await readFile(packageJsonPath, "utf8")) as {
  name: string;
  exports: Record<string, string | { types?: string }>;
};
const base = manifest.name.replace(/^@[^/]+\//, "");

await mkdir(join(packageDir, "etc"), { recursive: true });
let failed = false;
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (INTERNAL.has(subpath) || typeof target !== "object" || target.types === undefined) continue;
  const reportName = subpath === "." ? base : `${base}-${subpath.slice(2).replaceAll("/", "-")}`;
  const configObject: IConfigFile = {
    projectFolder: packageDir,
    newlineKind: "lf",
    mainEntryPointFilePath: join(packageDir, target.types),
    compiler: { tsconfigFilePath: join(packageDir, "tsconfig.build.json") },
    apiReport: {
      enabled: true,
      reportFileName: `${reportName}.api.md`,
      reportFolder: "<projectFolder>/etc/",
      reportTempFolder: "<projectFolder>/.tmp/api-report/",
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      extractorMessageReporting: {
        // Noted in the report itself (e.g. a type a signature uses but the entry does not export).
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        // The packages mark nothing @public/@beta: what an entry exports is public.
        "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
        // Members are documented on their class or interface, and links point at overloaded functions.
        "ae-undocumented": { logLevel: ExtractorLogLevel.None },
        "ae-unresolved-link": { logLevel: ExtractorLogLevel.None },
      },
      // The doc comments are Markdown with fenced examples, not strict TSDoc.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
  // No configuration file: the settings above are the whole configuration.
  const config = ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: undefined,
    packageJsonFullPath: packageJsonPath,
  });
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  const entry = `${manifest.name}${subpath.slice(1)}`;
  if (result.apiReportChanged && !update) {
    console.error(
      `api-report: the surface of ${entry} differs from etc/${reportName}.api.md; ` +
        "if the change is intended, run `pnpm --filter " +
        `${manifest.name} api:update\` and commit the report (and a changeset)`,
    );
    failed = true;
  } else if (!result.succeeded) {
    console.error(`api-report: ${entry}: ${result.errorCount} error(s), ${result.warningCount} warning(s)`);
    failed = true;
  } else {
    console.log(`api-report: ${entry} matches etc/${reportName}.api.md`);
  }
}
process.exit(failed ? 1 : 0);
