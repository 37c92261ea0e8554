import { describe, expect, it } from "vitest";
import { showErrorTables } from "../src/error-responses.ts";
import { listOperations, type OpenApiDocument } from "../src/openapi-document.ts";
import { apiVersions } from "../src/site-header.ts";
import { loadBundle } from "./helpers/site.ts";

type Answer = {
  $ref?: string;
  description?: string;
  content?: Record<string, { example?: { ID?: string; id?: string } }>;
};

describe.each(apiVersions)("error answers of reference $id", (version) => {
  it("give every operation with an error table its own identifiers, codes and example", async () => {
    const bundle: OpenApiDocument = await loadBundle(version);
    const { document, shown } = showErrorTables(bundle);
    const tables = listOperations(document).filter(({ operation }) => "x-errors" in operation);
    expect(shown).toHaveLength(tables.length);
    // API 2.1.1 grows page by page; the retired versions are typed in full.
    expect(tables.length).toBeGreaterThan(version.id === "2.1.1" ? 0 : 20);
    for (const { method, path, operation } of tables) {
      const where = `${method} ${path}`;
      const responses = operation.responses as Record<string, Answer>;
      const ids = (operation["x-errors"] as { ids: { id: string; status?: number }[] }).ids;
      for (const { id, status } of ids) {
        const answer = responses[status === undefined ? "default" : String(status)];
        expect(answer, `${where} ${id}`).toBeDefined();
        expect(answer?.$ref, where).toBeUndefined();
        expect(answer?.description, `${where} ${id}`).toContain(`\`${id}\``);
        const example = answer?.content?.["application/json"]?.example;
        expect(
          ids.map((entry) => entry.id),
          where,
        ).toContain(example?.ID ?? example?.id);
      }
    }
    // The input is left as it was, and an operation without a table keeps the shared answer.
    const untouched = listOperations(bundle).find(({ operation }) => "x-errors" in operation);
    expect(JSON.stringify(untouched?.operation.responses)).toMatch(
      /#\/components\/responses\/(OAuth)?Error"/,
    );
    const before = new Map(
      listOperations(bundle).map((o) => [`${o.method} ${o.path}`, o.operation.responses]),
    );
    for (const { method, path, operation } of listOperations(document)) {
      if ("x-errors" in operation) continue;
      expect(operation.responses, `${method} ${path}`).toEqual(before.get(`${method} ${path}`));
    }
  });
});
