/**
 * The sandbox's MSW handlers under MSW 3 on Node 24 (MSW 2 on the host's Node 20 is tested in the
 * sandbox package). MSW 3 and Node 24 come from `runtimes/` like the matrix's runtimes: missing, the
 * test is skipped loudly here and fails under CI=true.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { declareMissing } from "../../../scripts/test-requirements.js";
import { binaryPath, RUNTIME_CASES, RUNTIMES_DIR, unavailableWithMsw3 } from "../src/runtimes.js";

const node24 = RUNTIME_CASES.find((runtime) => runtime.id === "node24");
if (node24 === undefined) throw new Error("the matrix has no Node 24 case");
const missing = unavailableWithMsw3(node24);
describe("sandboxHandlers with MSW 3 on Node 24", () => {
  if (declareMissing("MSW 3 on Node 24", missing)) return;
  // Inside runtimes/, so that the bundle's `msw` imports resolve to the pinned MSW 3.
  const scratch = scratchDirForAll(".msw3-check-", RUNTIMES_DIR);
  it("serves token exchange, search and faults to the global fetch, and leaves other origins alone", async () => {
    const outfile = join(scratch(), "msw3-node24.mjs");
    await build({
      entryPoints: [fileURLToPath(new URL("../src/entries/msw3-node24.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node22",
      outfile,
      external: ["msw", "msw/*"],
      logLevel: "silent",
    });
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(binaryPath(node24), [outfile], { timeout: 30_000, encoding: "utf8" }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
      );
    });
    const report = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
    expect(report).toMatchObject({
      token: 200,
      search: 200,
      fault: 503,
      elsewhere: "refused",
      violations: 0,
    });
    expect(String(report.node)).toMatch(/^24\./);
    expect(report.total).toBeGreaterThan(0);
  });
});
