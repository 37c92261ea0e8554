/**
 * What TypeScript says about a form field the operation's page does not name, as the README's
 * troubleshooting quotes it: the error names the field, in each version's entry.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileCalls } from "./compile-calls.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const scratch = join(packageDir, ".tmp", "misspelt-field");

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const CALLS = `import { createDrillClient as v21 } from "@drill-practice/client/v2.1";
import { createDrillClient as v20 } from "@drill-practice/client/v2.0";

const c21 = v21({ baseUrl: "https://drill.example" });
const c20 = v20({ baseUrl: "https://drill.example" });
await c21.POST("/api/2.1/groups", { body: { name: "n", description: "d", catalogRestrictonMode: "GRANT" } });
await c20.PUT("/api/2/user", { body: { timezone: "Europe/Amsterdam" } });
await c21.POST("/api/2.1/groups", { body: { name: "n", description: "d", catalogRestrictionMode: "GRANT" } });
`;

describe("a misspelt optional form field", () => {
  it("gets an error that names the field, as the README's troubleshooting quotes it", async () => {
    const byLine = await compileCalls("misspelt-field", CALLS, {
      "@drill-practice/client/v2.1": "src/v2.1.ts",
      "@drill-practice/client/v2.0": "src/v2.0.ts",
    });
    // One diagnostic per misspelt call (lines 6 and 7); the right one compiles.
    expect([...byLine.keys()].sort()).toEqual([6, 7]);
    const v21 = (byLine.get(6) ?? "").replace(/^calls\.ts:\d+: /, "");
    expect(v21).toBe(
      `error TS2322: Type '"GRANT"' is not assignable to type '"catalogRestrictonMode is not a field of this request form"'.`,
    );
    expect(byLine.get(7)).toContain('"timezone is not a field of this request form"');
    expect([...byLine.values()].join("\n")).not.toContain("'never'");

    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const at = readme.indexOf("## Troubleshooting");
    const section = readme.slice(at, readme.indexOf("\n## ", at + 1));
    expect(section).toContain(v21);
  }, 300_000);
});
