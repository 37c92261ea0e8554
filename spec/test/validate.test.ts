import { API_VERSIONS } from "@drill-practice/tooling/api-versions";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { loadBundle } from "./spec-fixtures.ts";

// A second validator, independent of Redocly: the official OpenAPI 3.1 JSON Schema.
describe.each(["openapi.json", ...API_VERSIONS.map((version) => version.bundle)])("%s", (file) => {
  it("is valid against the OpenAPI 3.1 schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(loadBundle(file));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });
});
