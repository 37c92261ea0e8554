/**
 * `pnpm release:dry-run` end to end: the packages as users receive them from a registry. The pnpm
 * install of the packed tarballs fails as it does for users (`ERR_PNPM_FETCH_404` for the client),
 * and the same packages published to the local registry install with npm and with pnpm, type-check
 * and run against the installed `drill-sandbox`.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readChangesets } from "../spec-diff/changesets.ts";
import { type DryRunReport, PUBLISHED, releaseDryRun } from "./dry-run.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
// Minutes on a busy machine: run by CI (CI=true) and on request (DRILL_RELEASE_DRY_RUN=1), skipped
// loudly otherwise; DRILL_RELEASE_DRY_RUN=0 skips it under CI too (a CI that runs it elsewhere).
const flag = process.env.DRILL_RELEASE_DRY_RUN;
const wanted = flag === "1" || (flag !== "0" && process.env.CI === "true");
if (!wanted)
  console.warn(
    "release dry run: SKIPPED (DRILL_RELEASE_DRY_RUN=1 runs it, as CI=true does; or run pnpm release:dry-run)",
  );

describe.runIf(wanted)("pnpm release:dry-run", () => {
  let scratch: string | undefined;
  let report: DryRunReport;
  beforeAll(async () => {
    scratch = await makeScratchDir("release-dry-run-test-");
    const upstream = execFileSync("npm", ["config", "get", "registry"]).toString().trim();
    report = await releaseDryRun({ root, scratch, upstream });
    console.log(
      `release dry run: ${report.steps.map((step) => `${step.name} ${step.seconds} s`).join("; ")}`,
    );
  }, 30 * 60_000);
  // The copy holds a whole install: removing it takes a while on a busy machine.
  afterAll(() => removeScratchDir(scratch), 10 * 60_000);

  it("shows pnpm refusing the packed tarballs: the client is looked up in the registry", () => {
    expect(report.tarballInstall.exitCode).not.toBe(0);
    expect(report.tarballInstall.error).toContain("ERR_PNPM_FETCH_404");
    expect(report.tarballInstall.error).toContain("@drill-practice%2Fclient");
  });

  it("publishes the three packages, versioned by the pending changesets, to the local registry", () => {
    expect(Object.keys(report.published)).toEqual([...PUBLISHED]);
    for (const version of Object.values(report.published)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    if (readChangesets(`${root}/.changeset`).length > 0)
      for (const name of PUBLISHED) {
        expect(report.changelogs[name], name).toMatch(new RegExp(`^${report.published[name]}\\n`));
      }
  });

  it("installs them from the registry with npm and with pnpm; the program type-checks and runs against the installed drill-sandbox", () => {
    expect(report.programOutput.npm).toMatch(/^store: \d+ drill\(s\), first "[^"]+"$/);
    expect(report.programOutput.pnpm).toBe(report.programOutput.npm);
  });
});
