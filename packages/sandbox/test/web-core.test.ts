import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const dir = scratchDirForAll("sandbox-web-core-");

describe("the Web entry (createSandbox)", () => {
  it("bundles for the browser without a Node module and runs with code generation from strings forbidden", async () => {
    const outfile = join(dir(), "scenario.mjs");
    // platform "browser": an import of a Node built-in fails the build instead of being left external.
    const result = await build({
      entryPoints: [fileURLToPath(new URL("./support/web-scenario.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      outfile,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => path.startsWith("node:"))).toEqual([]);
    expect(inputs.some((path) => path.includes("src/generated/spec-validators"))).toBe(true);

    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--disallow-code-generation-from-strings", outfile],
        { timeout: 60_000, encoding: "utf8" },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      );
    });
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ token: 200, search: 200, invalid: 400, violations: 0 });
    expect(report.total).toBeGreaterThan(0);
    expect(report.invalidBody).toMatchObject({ ID: "invalid_request", parameter: "resultSize" });
  });
});
