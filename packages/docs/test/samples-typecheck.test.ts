/**
 * Every operation of every reference has a TypeScript sample that calls it through the client.
 * `snippets.test.ts` compiles them all against the packed packages and runs those of the
 * operations the sandbox simulates.
 */
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { apiVersions } from "../src/site-header.ts";
import { assertSiteBuilt, type BuiltSamples, builtSamples } from "./helpers/site.ts";

describe("TypeScript samples", () => {
  let samples: BuiltSamples[];
  beforeAll(async () => {
    assertSiteBuilt();
    samples = await builtSamples();
  });

  it("exist for every operation of every reference (each distinct operation of the description)", async () => {
    const require = createRequire(import.meta.url);
    const { listOperations } = await import("../src/openapi-document.ts");
    const operationIds = (file: string) =>
      listOperations(require(`@drill-practice/spec/${file}`)).map(
        ({ operation }) => operation.operationId as string,
      );
    // The whole description, and the references' bundles together, hold the same operations.
    const ids = new Set(operationIds("openapi.json"));
    const referenced = new Set(apiVersions.flatMap((version) => operationIds(version.bundle)));
    expect([...referenced].sort()).toEqual([...ids].sort());
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
