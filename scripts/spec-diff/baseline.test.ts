/**
 * The release step: the changes of the release are archived for the docs, the current state
 * becomes the baseline, and the diff against it is empty again.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import { writeBaseline } from "./baseline.ts";
import { practiceApi } from "./fixtures/practice-api.ts";
import { baselineBundles, runSpecDiff, specPackages } from "./run.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const scratch = scratchDirForAll("spec-baseline-");

describe("writeBaseline (pnpm run version)", () => {
  it("archives the release's changes, then makes the current bundles and compiling consumer code the baseline", async () => {
    const baselineDir = join(scratch(), "baseline");
    const distDir = join(scratch(), "dist");
    const changesets = join(scratch(), "changesets");
    await mkdir(baselineDir, { recursive: true });
    await mkdir(distDir, { recursive: true });
    await mkdir(changesets, { recursive: true });
    const changed = practiceApi();
    changed.paths["/api/answer/{reference}"].put.operationId = "saveAnswer";
    const bundles = ["openapi.json", ...API_VERSIONS.map((version) => version.bundle)];
    for (const bundle of bundles) {
      await writeFile(join(baselineDir, bundle), JSON.stringify(practiceApi()));
      await writeFile(join(distDir, bundle), JSON.stringify(changed));
    }
    await writeFile(
      join(baselineDir, "release.json"),
      JSON.stringify({ packages: { "@drill-practice/client": "0.0.9" }, generatedTypes: "old" }),
    );

    const written = writeBaseline({
      root,
      distDir,
      baselineDir,
      consumers: [
        { path: "examples/compiles.ts", code: "export const n: number = 1;\n" },
        {
          path: ".spec-diff/snippets/README.md-9.ts",
          origin: "README.md:9",
          code: "const s: string = 1;\nexport {};\n",
        },
      ],
    });

    const client = specPackages(root).find((pkg) => pkg.name === "@drill-practice/client");
    expect(written.archived).toBe(join(baselineDir, "changes", `${client?.version}.json`));
    const archive = JSON.parse(await readFile(written.archived as string, "utf8"));
    expect(archive.since).toEqual({ "@drill-practice/client": "0.0.9" });
    expect(archive.versions[0].findings).toEqual([
      expect.objectContaining({
        severity: "breaking",
        pointer: "/paths/~1api~1answer~1{reference}/put/operationId",
        rule: "own: operationId-renamed",
      }),
    ]);
    expect(baselineBundles(baselineDir).sort()).toEqual([...bundles].sort());
    for (const bundle of bundles)
      expect(await readFile(join(baselineDir, bundle), "utf8")).toBe(
        await readFile(join(distDir, bundle), "utf8"),
      );
    const snapshot = JSON.parse(await readFile(join(baselineDir, "consumers.json"), "utf8"));
    expect(snapshot.files.map((file: { path: string }) => file.path)).toEqual(["examples/compiles.ts"]);
    expect(snapshot.leftOut).toEqual([
      {
        path: ".spec-diff/snippets/README.md-9.ts",
        origin: "README.md:9",
        reason: expect.stringMatching(/^README\.md:9: TS2322: /),
      },
    ]);
    const release = JSON.parse(await readFile(join(baselineDir, "release.json"), "utf8"));
    expect(release.packages["@drill-practice/client"]).toBe(client?.version);
    expect(release.generatedTypes).toMatch(/^[0-9a-f]{64}$/);

    const next = runSpecDiff({
      root,
      baselineDir,
      currentDir: distDir,
      changesetDir: changesets,
      consumers: "always",
    });
    expect(next.versions.flatMap((version) => version.findings)).toEqual([]);
    expect(next.typesChanged).toBe(false);
    expect(next.compileErrors).toEqual([]);
    expect(next.problems).toEqual([]);
  }, 180_000);

  it("refuses to write without the bundles", () => {
    expect(() =>
      writeBaseline({
        root,
        distDir: join(scratch(), "none"),
        baselineDir: join(scratch(), "b2"),
        consumers: [],
      }),
    ).toThrow(/openapi\.json is missing; run pnpm generate first/);
  });
});
