import { describe, expect, it } from "vitest";
import { HTTP_METHODS, hasOperations, listOperations } from "../src/operations.js";

describe("listOperations", () => {
  it("visits paths in document order and methods in the fixed order, skipping what is no operation", () => {
    const document = {
      paths: {
        "/b": {
          post: { operationId: "postB" },
          get: { operationId: "getB" },
          parameters: [{ name: "p" }],
          summary: "x",
        },
        "/a": { trace: { operationId: "traceA" }, delete: null, put: [] },
        "/not-an-item": [],
        "/empty": {},
      },
    };
    expect(
      listOperations<{ operationId: string }>(document).map((o) => [
        o.path,
        o.method,
        o.operation.operationId,
        o.pathParameters.length,
      ]),
    ).toEqual([
      ["/b", "get", "getB", 1],
      ["/b", "post", "postB", 1],
      ["/a", "trace", "traceA", 0],
    ]);
    expect(listOperations({})).toEqual([]);
  });

  it("knows the eight methods of an OpenAPI path item", () => {
    expect([...HTTP_METHODS].sort()).toEqual([
      "delete",
      "get",
      "head",
      "options",
      "patch",
      "post",
      "put",
      "trace",
    ]);
    expect(hasOperations({ head: {} })).toBe(true);
    expect(hasOperations({ parameters: [], summary: "s" })).toBe(false);
  });
});
