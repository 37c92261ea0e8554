import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderWireTypes } from "../../scripts/generate-wire-types.js";

describe("generated wire types", () => {
  it("match the packaged OpenAPI description (run `pnpm --filter @drill-practice/sandbox generate`)", async () => {
    const committed = await readFile(new URL("../../src/generated/openapi.ts", import.meta.url), "utf8");
    expect(committed).toBe(await renderWireTypes());
  });
});
