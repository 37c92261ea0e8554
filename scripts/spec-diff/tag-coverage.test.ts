/**
 * What the release's consumer code must reach for the guard to miss nothing: an operation of every
 * tag of every version the baseline has, each `@drill-practice/*` entry compiled from its sources,
 * and `pnpm spec:diff` needing no build of any package.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import { sourceEntries } from "./consumers.ts";
import { practiceApi } from "./fixtures/practice-api.ts";
import type { ConsumerSnapshot } from "./run.ts";
import { calledOperations, uncoveredTags } from "./tag-coverage.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const baselineDir = join(root, "spec/baseline");
const snapshot = JSON.parse(readFileSync(join(baselineDir, "consumers.json"), "utf8")) as ConsumerSnapshot;
const scratch = scratchDirForAll("tag-coverage-");

describe("the baseline's consumer code", () => {
  it("calls at least one operation of every tag of every version the baseline has", () => {
    const gaps = uncoveredTags(
      baselineDir,
      snapshot.files.map((file) => file.code),
    );
    expect(gaps.map((gap) => `API ${gap.version}: ${gap.tag}`)).toEqual([]);
  });

  it("compiles each @drill-practice entry it imports from that package's sources, never a build", () => {
    const entries = sourceEntries(root);
    const imported = new Set(
      snapshot.files.flatMap((file) =>
        [...file.code.matchAll(/from "(@drill-practice\/[^"]+)"/g)].map((m) => m[1]),
      ),
    );
    imported.delete("@drill-practice/tooling/process");
    imported.delete("@drill-practice/tooling/scratch-hooks");
    expect(imported.size).toBeGreaterThan(5);
    for (const specifier of imported) {
      expect(entries[specifier as string], `${specifier} has no source entry`).toMatch(
        /^packages\/\w+\/src\//,
      );
      expect(existsSync(join(root, entries[specifier as string] as string))).toBe(true);
    }
  });
});

describe("uncoveredTags", () => {
  it("names a tag none of whose operations is called, and is content once one is", async () => {
    const dir = join(scratch(), "bundles");
    await mkdir(dir, { recursive: true });
    const doc = practiceApi();
    (doc.paths["/api/answer/{reference}"].put as Record<string, unknown>).tags = ["answers"];
    (doc.paths["/api/store"].get as Record<string, unknown>).tags = ["store"];
    // A bundle of a version of the one list; a file of any other name is not a version's bundle.
    await writeFile(join(dir, "openapi-v2.1.json"), JSON.stringify(doc));
    await writeFile(join(dir, "openapi-v9.1.json"), JSON.stringify(doc));
    const storeOnly = ['await client.GET("/api/store");'];
    expect(uncoveredTags(dir, storeOnly)).toEqual([
      { version: "2.1", tag: "answers", operations: ["PUT /api/answer/{reference}"] },
    ]);
    const both = [
      ...storeOnly,
      "client.PUT(\n  '/api/answer/{reference}', { params: { path: { reference: 'r' } } });",
    ];
    expect(uncoveredTags(dir, both)).toEqual([]);
  });

  it("reads calls, not mentions of a path", () => {
    expect([...calledOperations(['const url = "/api/store"; await c.GET(`/api/2/x`);'])]).toEqual([
      "GET /api/2/x",
    ]);
  });
});

describe("pnpm spec:diff", () => {
  it("runs no build before it judges: only the generate tasks of the description, the client and the sandbox", async () => {
    const script = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts["spec:diff"] as string;
    const turbo = /turbo (run [^&]+?)\s*&&/.exec(script)?.[1];
    expect(turbo, script).toBeDefined();
    const args = (turbo as string).split(/\s+/).filter((arg) => !arg.startsWith("--output-logs"));
    const { stdout } = await promisify(execFile)(
      join(root, "node_modules/.bin/turbo"),
      [...args, "--dry=json"],
      {
        cwd: root,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
        maxBuffer: 1 << 26,
      },
    );
    // A package without the script is listed with the command `<NONEXISTENT>`: nothing runs.
    const tasks = (JSON.parse(stdout) as { tasks: { taskId: string; command: string }[] }).tasks
      .filter((task) => task.command !== "<NONEXISTENT>")
      .map((task) => task.taskId)
      .sort();
    // The sandbox's generated modules are not committed; its sources import them.
    expect(tasks).toEqual([
      "@drill-practice/client#generate",
      "@drill-practice/sandbox#generate",
      "@drill-practice/spec#generate",
    ]);
  }, 60_000);
});
