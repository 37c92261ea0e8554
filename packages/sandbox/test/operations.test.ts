/**
 * Coverage of the whole description: every operation is routed; the simulated ones are listed in the
 * README exactly as the code has them; every other one answers 501 `not_simulated`.
 */
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { readBlock, renderErrorTable, renderOperationsTable, tableCells } from "../scripts/readme-tables.js";
import { bundledSpec } from "../src/http/bundled-spec.js";
import { listOperations } from "../src/http/openapi.js";
import { SIMULATED_OPERATIONS } from "../src/index.js";
import { client, sharedSandbox, tokenFor } from "./helpers.js";

const shared = sharedSandbox();
let api: ReturnType<typeof client>;

beforeAll(async () => {
  api = client(shared(), await tokenFor(shared(), "u-ana"));
});

describe("operations of the description", () => {
  it("has every simulated operation in the description", async () => {
    const ids = new Set(listOperations(bundledSpec()).map((op) => op.operationId));
    for (const id of Object.keys(SIMULATED_OPERATIONS)) expect(ids, id).toContain(id);
  });

  it("answers 501 not_simulated, naming the operation, for every other operation", {
    timeout: 60_000,
  }, async () => {
    const operations = listOperations(bundledSpec()).filter(
      (op) => !(op.operationId in SIMULATED_OPERATIONS),
    );
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) {
      const path = op.path.replace(/\{[^}]+\}/g, "x1");
      const query = op.parameters
        .filter((p) => p.in === "query" && p.required)
        .map((p) => `${p.name}=x1`)
        .join("&");
      const res = await api(op.method, query ? `${path}?${query}` : path, {
        ...(op.requestBody?.required ? { body: {} } : {}),
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(501);
      expect(res.body, `${op.method} ${op.path}`).toMatchObject({
        ID: "not_simulated",
        operationId: op.operationId,
      });
      expect((res.body as { message: string }).message).toContain(op.operationId);
    }
  });

  it("takes form fields on every unsimulated write: 501, never 415", { timeout: 60_000 }, async () => {
    const writes = listOperations(bundledSpec()).filter(
      (op) =>
        !(op.operationId in SIMULATED_OPERATIONS) &&
        op.requestBody?.content.some((m) => m.mediaType === "application/x-www-form-urlencoded"),
    );
    expect(writes.length).toBeGreaterThan(70);
    for (const op of writes) {
      const path = op.path.replace(/\{[^}]+\}/g, "x1");
      // A list goes out as a repeated field, as the service takes it.
      const res = await api(op.method, path, { body: { name: "Spanish verbs", tag: ["es", "verbs"] } });
      expect(res.status, `${op.method} ${op.path}`).toBe(501);
      expect(res.body, `${op.method} ${op.path}`).toMatchObject({ operationId: op.operationId });
    }
  });

  it("still requires a token for unsimulated operations", async () => {
    const res = await client(shared(), undefined)("GET", "/api/2.1/users");
    expect(res.status).toBe(401);
  });

  it("lists the simulated operations and error IDs in the README as the code has them", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    // If this fails, run `pnpm run readme:tables` in packages/sandbox.
    const doc = bundledSpec();
    expect(tableCells(readBlock(readme, "simulated-operations"))).toEqual(
      tableCells(renderOperationsTable(doc)),
    );
    expect(tableCells(readBlock(readme, "error-ids"))).toEqual(tableCells(renderErrorTable()));
    for (const id of Object.keys(SIMULATED_OPERATIONS)) expect(readme).toContain(`\`${id}\``);
  });
});
