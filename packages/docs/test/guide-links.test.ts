import { describe, expect, it } from "vitest";
import { linkGuideSchemas } from "../src/guide-links.ts";
import type { OpenApiDocument } from "../src/openapi-document.ts";

function input(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "T", version: "2.0", description: "See `AssertionClaims`." },
    tags: [
      {
        name: "authentication",
        description: "See the schemas `ServiceAccountKeyFile` and `AssertionHeader`.",
      },
    ],
    components: {
      schemas: {
        TokenRequest: {
          properties: {
            assertion: {
              description: "Its header is `AssertionHeader`.",
              example: "`AssertionHeader` stays",
            },
          },
        },
      },
    },
    paths: {
      "/daas/oauth/token": {
        post: {
          operationId: "exchangeToken",
          description: "Build it (see `AssertionClaims`); `Drill` stays code.",
        },
      },
    },
  };
}

describe("linkGuideSchemas", () => {
  it("links each mention of a schema the reference cannot show to the guide's section on it", () => {
    const document = linkGuideSchemas(input());
    expect(document.tags?.[0]?.description).toBe(
      "See the schemas [`ServiceAccountKeyFile`](../authentication.html#key-file) and " +
        "[`AssertionHeader`](../authentication.html#assertion).",
    );
    const operation = document.paths?.["/daas/oauth/token"]?.post as { description: string };
    expect(operation.description).toBe(
      "Build it (see [`AssertionClaims`](../authentication.html#assertion)); `Drill` stays code.",
    );
    const schemas = (
      document.components as { schemas: Record<string, { properties: Record<string, unknown> }> }
    ).schemas;
    expect(schemas.TokenRequest?.properties.assertion).toEqual({
      description: "Its header is [`AssertionHeader`](../authentication.html#assertion).",
      example: "`AssertionHeader` stays",
    });
    // The overview is not a tag, an operation or a schema: left as it is.
    expect(document.info.description).toBe("See `AssertionClaims`.");
  });

  it("leaves its input untouched", () => {
    const original = input();
    const copy = structuredClone(original);
    linkGuideSchemas(original);
    expect(original).toEqual(copy);
  });
});
