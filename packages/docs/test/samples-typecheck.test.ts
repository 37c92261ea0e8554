/**
 * Every operation of both references has a TypeScript sample that calls it through the client.
 * `snippets.test.ts` compiles them all against the packed packages and runs those of the
 * operations the sandbox simulates.
 */
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { assertSiteBuilt, type BuiltSamples, builtSamples } from "./helpers/site.ts";

describe("TypeScript samples", () => {
  let samples: BuiltSamples[];
  beforeAll(async () => {
    assertSiteBuilt();
    samples = await builtSamples();
  });

  it("exist for every operation of both references (218 distinct operations in the spec)", async () => {
    const require = createRequire(import.meta.url);
    const ids = new Set<string>();
    for (const bundle of ["openapi-v2.1.json", "openapi-v2.0.json"]) {
      const { listOperations } = await import("../src/openapi-document.ts");
      const document = require(`@drill-practice/spec/${bundle}`);
      for (const { operation } of listOperations(document)) ids.add(operation.operationId as string);
    }
    expect(samples.map((s) => s.operationId).sort()).toEqual([...ids].sort());
    for (const sample of samples) {
      expect(sample.typescript, sample.operationId).toContain("serviceAccountAuth");
      if (!sample.typescript.includes("auth.getToken()")) {
        expect(sample.typescript, sample.operationId).toContain(
          `client.${sample.method.toUpperCase()}("${sample.path}"`,
        );
        expect(sample.typescript, sample.operationId).toContain("await unwrap(");
      }
    }
  });
});
