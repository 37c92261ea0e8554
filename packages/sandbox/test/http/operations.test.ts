/**
 * Coverage of the whole description: every operation is routed; the simulated ones are listed in the
 * README exactly as the code has them; every other one answers 501 `not_simulated`.
 */
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import {
  readBlock,
  renderErrorTable,
  renderExampleTable,
  renderNotSimulatedTable,
  renderOperationsTable,
  tableCells,
} from "../../scripts/readme-tables.js";
import { bundledSpec } from "../../src/http/bundled-spec.js";
import {
  listOperations,
  type OpenApiDocument,
  type Operation,
  pointerValue,
} from "../../src/http/openapi.js";
import { exampleAnsweredOperations, SIMULATED_OPERATIONS } from "../../src/index.js";
import { NOT_SIMULATED_REASONS } from "../../src/resources/not-simulated.js";
import { client, sharedSandbox, tokenFor } from "../support/helpers.js";

const shared = sharedSandbox();

/** Whether an operation's request body names its fields (anything but the open `FormFields`). */
function typedBody(doc: OpenApiDocument, op: Operation): boolean {
  return (op.requestBody?.content ?? []).some((media) => {
    const schema = pointerValue(doc, media.schemaPointer ?? "") as { $ref?: string } | undefined;
    return schema?.$ref !== undefined && schema.$ref !== "#/components/schemas/FormFields";
  });
}
/** The description, its operations no family simulates, and those of them an example answers. */
async function unsimulatedOperations() {
  const doc = bundledSpec();
  const unsimulated = listOperations(doc).filter((op) => !(op.operationId in SIMULATED_OPERATIONS));
  return { doc, unsimulated, examples: await exampleAnsweredOperations() };
}

/** The operation's path with a value ("x1") for every path parameter. */
/** A value a parameter's schema accepts: an enum's first value, a whole number, else "x1". */
function valueFor(parameter: Operation["parameters"][number] | undefined): string {
  const schema = parameter?.schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "x1";
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  return schema.type === "integer" || schema.type === "number" ? "1" : "x1";
}

function filledPath(op: Operation): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    valueFor(op.parameters.find((p) => p.in === "path" && p.name === name)),
  );
}

let api: ReturnType<typeof client>;

beforeAll(async () => {
  api = client(shared(), await tokenFor(shared(), "u-ana"));
});

describe("operations of the description", () => {
  it("has every simulated operation in the description", async () => {
    const ids = new Set(listOperations(bundledSpec()).map((op) => op.operationId));
    for (const id of Object.keys(SIMULATED_OPERATIONS)) expect(ids, id).toContain(id);
  });

  it("answers 501 not_simulated, naming the operation, for every other operation without a typed answer", {
    timeout: 60_000,
  }, async () => {
    const { doc, examples, unsimulated } = await unsimulatedOperations();
    const operations = unsimulated.filter((op) => !(op.operationId in examples));
    // Fewer as resource families simulate more of them; the filter must still find a good number.
    expect(operations.length).toBeGreaterThan(40);
    for (const op of operations) {
      const path = filledPath(op);
      const query = op.parameters
        .filter((p) => p.in === "query" && p.required)
        .map((p) => `${p.name}=${encodeURIComponent(valueFor(p))}`)
        .join("&");
      const res = await api(op.method, query ? `${path}?${query}` : path, {
        ...(op.requestBody?.required ? { body: {} } : {}),
      });
      if (res.status === 400 && typedBody(doc, op)) {
        // A typed form body whose required fields are missing is refused before anything else: with
        // the identifier the operation's page gives for it where it has an error table.
        const { ID, description } = res.body as { ID: string; description: string };
        if (ID === "invalid_request") expect(description, `${op.method} ${op.path}`).toMatch(/^request body/);
        else
          expect(
            op.errors.map((error) => error.id),
            `${op.method} ${op.path}`,
          ).toContain(ID);
        continue;
      }
      expect(res.status, `${op.method} ${op.path}`).toBe(501);
      expect(res.body, `${op.method} ${op.path}`).toMatchObject({
        ID: "not_simulated",
        operationId: op.operationId,
      });
      expect((res.body as { message: string }).message).toContain(op.operationId);
    }
  });

  it("takes form fields on every unsimulated write: 501 (or an example), never 415", {
    timeout: 60_000,
  }, async () => {
    const { doc, examples, unsimulated } = await unsimulatedOperations();
    const writes = unsimulated.filter((op) =>
      op.requestBody?.content.some((m) => m.mediaType === "application/x-www-form-urlencoded"),
    );
    // Fewer as resource families simulate more of them; the filter must still find some.
    expect(writes.length).toBeGreaterThan(0);
    for (const op of writes) {
      const path = filledPath(op);
      // A list goes out as a repeated field, as the service takes it.
      const res = await api(op.method, path, { body: { name: "Spanish verbs", tag: ["es", "verbs"] } });
      if (res.status === 400 && typedBody(doc, op)) {
        // A typed form body refuses a request without its required fields.
        expect((res.body as { description: string }).description).toMatch(/^request body/);
        continue;
      }
      if (op.operationId in examples) {
        // Typed bodies are checked against their fields; open ones take any field.
        expect([200, 201, 204, 400], `${op.method} ${op.path}`).toContain(res.status);
        continue;
      }
      expect(res.status, `${op.method} ${op.path}`).toBe(501);
      expect(res.body, `${op.method} ${op.path}`).toMatchObject({ operationId: op.operationId });
    }
  });

  it("says why for every 2.1.1 operation that answers 501, and only for those", async () => {
    const { unsimulated, examples } = await unsimulatedOperations();
    const at501 = unsimulated
      .filter((op) => op.path.startsWith("/api/2.1.1/") && !(op.operationId in examples))
      .map((op) => op.operationId)
      .sort();
    expect(Object.keys(NOT_SIMULATED_REASONS).sort()).toEqual(at501);
    for (const [id, why] of Object.entries(NOT_SIMULATED_REASONS)) expect(why.length, id).toBeGreaterThan(20);
  });

  it("still requires a token for unsimulated operations", async () => {
    const res = await client(shared(), undefined)("GET", "/api/2.1/users");
    expect(res.status).toBe(401);
  });

  it("lists the simulated operations and error IDs in the README as the code has them", async () => {
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    // If this fails, run `pnpm run readme:tables` in packages/sandbox.
    const doc = bundledSpec();
    expect(tableCells(readBlock(readme, "simulated-operations"))).toEqual(
      tableCells(renderOperationsTable(doc)),
    );
    expect(tableCells(readBlock(readme, "example-operations"))).toEqual(tableCells(renderExampleTable(doc)));
    expect(tableCells(readBlock(readme, "not-simulated-2.1.1"))).toEqual(
      tableCells(renderNotSimulatedTable(doc)),
    );
    expect(tableCells(readBlock(readme, "error-ids"))).toEqual(tableCells(renderErrorTable()));
    for (const id of Object.keys(SIMULATED_OPERATIONS)) expect(readme).toContain(`\`${id}\``);
  });
});
