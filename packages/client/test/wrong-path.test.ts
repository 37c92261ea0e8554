/**
 * What TypeScript says about a path the description does not have, as the README's
 * troubleshooting quotes it: the compiler's own words, checked against the package's types.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileCalls } from "./compile-calls.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "wrong-path");

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const CALLS = `import { createDrillClient } from "@drill-practice/client";

const client = createDrillClient({ baseUrl: "https://drill.example" });
await client.GET("/api/2.1/gruops");
await client.GET("/api/2.1/gruops", {});
await client.GET("/api/2.1/group/{group}");
await client.GET("/api/2.1/groups");
await client.GET("/api/2.1/group/{group}", { params: { path: { group: "g1" } } });
`;

describe("a wrong path", () => {
  it("gets the messages the README's troubleshooting quotes, and a right one compiles", async () => {
    // One diagnostic per wrong call (the calls start on line 4): the last two are right.
    const byLine = await compileCalls("wrong-path", CALLS, { "@drill-practice/client": "src/index.ts" });
    expect([...byLine.keys()].sort()).toEqual([4, 5, 6]);
    const noOptions = "error TS2554: Expected 2 arguments, but got 1.";
    expect(byLine.get(4)).toContain(noOptions);
    expect(byLine.get(6)).toContain(noOptions);
    const named = (byLine.get(5) ?? "").replace(/^calls\.ts:\d+: /, "");
    expect(named).toMatch(/^error TS2345: .*"\/api\/2\.1\/gruops"/);

    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const at = readme.indexOf("## Troubleshooting");
    expect(at).toBeGreaterThan(0);
    const section = readme.slice(at, readme.indexOf("\n## ", at + 1));
    expect(section).toContain(`\`${noOptions}\``);
    expect(section).toContain('client.GET("/api/2.1/gruops")');
    expect(section).toContain(named);
  }, 300_000);
});
